/**
 * Builds each Lambda entry the way the CDK stack does (infra/constructs/directory-function.ts) and
 * measures the bundle: its size, and a cold `import()` in a fresh Node process, as a Lambda cold
 * start would load it. The options come from infra/bundling.ts, which the construct uses too.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { lambdaEsbuildOptions } from "../../infra/bundling.js";
import { percentile } from "./percentile.js";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The bundle the CDK stack deploys (infra/bundling.ts), built here to be measured. */
const LAMBDA_BUNDLE_OPTIONS = lambdaEsbuildOptions();

/** The environment the stack gives a function: what its modules read at import. */
const LAMBDA_ENV = {
  AWS_REGION: "eu-west-1",
  STAGE: "dev",
  DIRECTORY_TABLE: "directory",
  KEYS_TABLE: "keys",
  POWERTOOLS_SERVICE_NAME: "partner-directory",
  POWERTOOLS_LOG_LEVEL: "ERROR",
  POWERTOOLS_METRICS_NAMESPACE: "PartnerDirectory",
};

export interface BundleResult {
  readonly function: string;
  readonly bytes: number;
  readonly importMs: number;
}

export function functionEntries(): string[] {
  const dir = join(REPO_ROOT, "functions");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => join(dir, name));
}

/** Milliseconds a fresh `node` spends in `await import(bundle)` (module loading and top-level code). */
function coldImportMs(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, ...LAMBDA_ENV },
  });
  return Number(out);
}

export async function measureBundles(
  options: { imports?: number; onBundle?: (done: number, total: number) => void } = {},
): Promise<BundleResult[]> {
  const entries = functionEntries();
  const outdir = mkdtempSync(join(tmpdir(), "bench-bundles-"));
  const results: BundleResult[] = [];
  try {
    for (const entry of entries) {
      const name = basename(entry, ".ts");
      const outfile = join(outdir, name, "index.mjs");
      await build({ ...LAMBDA_BUNDLE_OPTIONS, entryPoints: [entry], outfile, absWorkingDir: REPO_ROOT });
      // Several fresh processes: the first also warms the OS file cache, the median smooths noise.
      const times = Array.from({ length: options.imports ?? 7 }, () => coldImportMs(outfile));
      results.push({
        function: name,
        bytes: statSync(outfile).size,
        importMs: Math.round(percentile(times, 50) * 10) / 10,
      });
      options.onBundle?.(results.length, entries.length);
    }
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
  return results;
}
