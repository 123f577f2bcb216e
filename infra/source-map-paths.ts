/**
 * esbuild writes a source map's `sources` relative to the bundle, which NodejsFunction builds in
 * a folder under the cloud assembly: the map, and so the asset hash, would change with the output
 * folder's depth, and `cdk diff` would churn. This rewrites them relative to the repository root.
 *
 * Run by the bundling's afterBundling hook (infra/bundling.ts) as
 * `node infra/source-map-paths.ts MAP_FILE REPO_ROOT`; only `node:` imports, so Node runs it as is.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

interface SourceMap {
  readonly sources: readonly string[];
  readonly sourceRoot?: string;
}

/** The map with every source as a `/`-separated path from `root`; everything else unchanged. */
function repoRelativeSources<T extends SourceMap>(map: T, mapDir: string, root: string): T {
  const base = resolve(mapDir, map.sourceRoot ?? "");
  const sources = map.sources.map((source) => relative(root, resolve(base, source)).split(sep).join("/"));
  const { sourceRoot: _dropped, ...rest } = map;
  return { ...rest, sources } as unknown as T;
}

function main(mapFile: string, root: string): void {
  const map = JSON.parse(readFileSync(mapFile, "utf8")) as SourceMap;
  writeFileSync(mapFile, JSON.stringify(repoRelativeSources(map, dirname(mapFile), root)));
}

const [, script, mapFile, root] = process.argv;
if (script !== undefined && resolve(script) === fileURLToPath(import.meta.url)) {
  if (mapFile === undefined || root === undefined)
    throw new Error("usage: source-map-paths.ts MAP_FILE REPO_ROOT");
  main(mapFile, root);
}
