/**
 * `npm run build:client`: the typed client (lib/client/) as an npm package a partner installs
 * outside this repository: one ES module bundled by esbuild, its declarations
 * (client-declarations.ts), a package.json with no dependencies, and a README.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { cli } from "./args.js";
import { checkClientDeclarations, clientDeclarations } from "./client-declarations.js";
import { say } from "./terminal-text.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ENTRY = join(ROOT, "lib/client/index.ts");
const NAME = "@partner-directory/client";
/** The oldest Node with all the client calls: global fetch, AbortSignal.any, URL.canParse. */
const NODE_RANGE = ">=18.17";

const USAGE = `usage: npm run build:client [-- --out DIR]

Writes the typed client as an npm package to DIR (default dist/client/): an ES module with no
dependencies, its .d.ts declarations (the contract's types written out, no Zod), a package.json
and a README. A partner installs the folder, or its tarball, with npm install. Give npm the folder
as a path (npm pack ./dist/client): dist/client alone names a GitHub repository to npm.
DIR is replaced; it must be missing, empty or an earlier build.`;

cli({ name: "build:client", usage: USAGE, options: { out: { type: "string" } } }, async ({ values }) => {
  const out = resolve(values.out ?? join(ROOT, "dist/client"));
  emptyOut(out);
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  await bundle(out);
  for (const [name, text] of clientDeclarations()) {
    mkdirSync(dirname(join(out, name)), { recursive: true });
    writeFileSync(join(out, name), text);
  }
  writeFileSync(join(out, "package.json"), `${JSON.stringify(manifest(version), null, 2)}\n`);
  writeFileSync(join(out, "README.md"), README);
  checkClientDeclarations(out);
  say(`wrote ${NAME} ${version} to ${out}`);
});

/** Never deletes a folder that is not an earlier build. */
function emptyOut(out: string): void {
  if (existsSync(out) && readdirSync(out).length > 0) {
    const manifestFile = join(out, "package.json");
    const name = existsSync(manifestFile)
      ? (JSON.parse(readFileSync(manifestFile, "utf8")) as { name?: unknown }).name
      : undefined;
    if (name !== NAME)
      throw new Error(`${out} holds files that are not a build of ${NAME}; not replacing it`);
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
}

/** index.js: lib/client/ alone, ES2022 (every Node of NODE_RANGE, browsers, Deno, Bun). */
async function bundle(out: string): Promise<void> {
  const { metafile } = await build({
    entryPoints: [ENTRY],
    outfile: join(out, "index.js"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    metafile: true,
    logLevel: "error",
  });
  const foreign = Object.keys(metafile.inputs).filter((input) => !input.startsWith("lib/client/"));
  if (foreign.length > 0) throw new Error(`the client imports outside lib/client/: ${foreign.join(", ")}`);
}

function manifest(version: string) {
  return {
    name: NAME,
    version,
    description:
      "Typed client of the Partner Directory Search Service: one method per route, paging, retries.",
    // Handed to partners as a tarball: `npm publish` would put it on the public registry.
    private: true,
    type: "module",
    // `default` lets a Node that can require() an ES module do so; an older one says to import it.
    exports: { ".": { types: "./index.d.ts", import: "./index.js", default: "./index.js" } },
    types: "./index.d.ts",
    sideEffects: false,
    engines: { node: NODE_RANGE },
  };
}

const README = `# ${NAME}

The Partner Directory Search Service's typed client: one method per route, async iterators over
every page of a search, bounded retries on 429 and 5xx. No dependencies: it calls the global
\`fetch\`. Its types come with it (\`index.d.ts\`).

It is an ES module, with no CommonJS build: \`import\` it from a \`.mjs\` or \`.mts\` file, or from a
package whose package.json has \`"type": "module"\` (top-level \`await\` needs that too). It runs on
Node ${NODE_RANGE.slice(2)} or later, Deno, Bun and browsers.

\`\`\`ts
import { PartnerDirectoryClient, PartnerDirectoryError } from "${NAME}";

const client = new PartnerDirectoryClient({
  baseUrl: process.env.BASE_URL!,
  apiKey: process.env.PARTNER_API_KEY!,
});
const page = await client.searchEmployees({ companyId: "acme-home-care", limit: 10 });
for await (const person of client.allPersons({ companyId: "acme-home-care", limit: 100 })) {
  // every matching person, page after page
}
\`\`\`

Failures throw \`PartnerDirectoryError\` (\`status\`, \`error\`, \`requestId\`, \`retryAfterSeconds\`). The
service's partner guide describes every option.
`;
