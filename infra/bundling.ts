/**
 * How every Lambda is bundled, defined once: the CDK function construct passes `lambdaBundling()`
 * to NodejsFunction, and the benchmark (npm run bench) builds the same bundles with esbuild
 * directly (`lambdaEsbuildOptions()`) to measure their size and cold import. Both are derived from
 * `LAMBDA_BUNDLE`; change the bundle there only.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BundlingOptions, LogLevel, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import type { BuildOptions } from "esbuild";

/** Package → stand-in module, for every Lambda bundle (absolute paths: esbuild's CLI runs elsewhere). */
const LAMBDA_ALIASES: Readonly<Record<string, string>> = {
  // Lambda's credentials are in the environment: the default chain's other links are dead weight.
  "@aws-sdk/credential-provider-node": fileURLToPath(new URL("./lambda-credentials.ts", import.meta.url)),
};

const LAMBDA_BUNDLE = {
  format: "esm",
  target: "node24",
  minify: true,
  // esbuild tree-shakes bundles by default; said explicitly so no flag can turn it off unnoticed.
  treeShaking: true,
  // An external `index.mjs.map` in the asset, without the sources: kept for on-call, not loaded
  // at start. No `NODE_OPTIONS=--enable-source-maps`: Node would then read and parse the map at
  // import, about 11 ms of CPU per cold start of a function with the SDK (docs/performance.md
  // "Bundles"). Set it on a function while investigating to get mapped stack traces.
  sourceMap: true,
  sourcesContent: false,
  // Function and class names survive minification: a stack trace names the functions even
  // without the source map (about 26 KB and 2 ms of cold import).
  keepNames: true,
  // Prefer packages' ESM builds so esbuild can tree-shake them.
  mainFields: ["module", "main"],
  // Bundle the AWS SDK v3 too: the version is the lockfile's, not whatever the runtime ships.
  externalModules: [] as readonly string[],
  // Some dependencies still call `require`; ESM has none unless we create one.
  banner: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
  alias: LAMBDA_ALIASES,
  // Modules keep the paths they are imported by: a symlinked node_modules (a git worktree's) would
  // otherwise put its target's location into the source map, and so into the asset hash.
  preserveSymlinks: true,
  logLevel: "warning",
} as const;

/** Rewrites the bundle's source map to repository paths (infra/source-map-paths.ts). */
const SOURCE_MAP_PATHS = fileURLToPath(new URL("./source-map-paths.ts", import.meta.url));
const BUNDLE_FILE = { esm: "index.mjs", cjs: "index.js" } as const;

/** One argument of a POSIX shell command (the hooks' commands run through bash -c). */
function shellArgument(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

const CDK_FORMAT = { esm: OutputFormat.ESM, cjs: OutputFormat.CJS } as const;
const CDK_LOG_LEVEL = {
  verbose: LogLevel.VERBOSE,
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warning: LogLevel.WARNING,
  error: LogLevel.ERROR,
  silent: LogLevel.SILENT,
} as const;

/** The bundle as NodejsFunction `bundling` props (local esbuild, never Docker). */
export function lambdaBundling(): BundlingOptions {
  return {
    format: CDK_FORMAT[LAMBDA_BUNDLE.format],
    target: LAMBDA_BUNDLE.target,
    minify: LAMBDA_BUNDLE.minify,
    sourceMap: LAMBDA_BUNDLE.sourceMap,
    sourcesContent: LAMBDA_BUNDLE.sourcesContent,
    keepNames: LAMBDA_BUNDLE.keepNames,
    mainFields: [...LAMBDA_BUNDLE.mainFields],
    externalModules: [...LAMBDA_BUNDLE.externalModules],
    banner: LAMBDA_BUNDLE.banner,
    // NodejsFunction has no prop for it; passed to the esbuild CLI as is.
    esbuildArgs: {
      "--tree-shaking": String(LAMBDA_BUNDLE.treeShaking),
      "--preserve-symlinks": LAMBDA_BUNDLE.preserveSymlinks,
      ...Object.fromEntries(
        Object.entries(LAMBDA_BUNDLE.alias).map(([name, path]) => [`--alias:${name}`, path]),
      ),
    },
    logLevel: CDK_LOG_LEVEL[LAMBDA_BUNDLE.logLevel],
    forceDockerBundling: false,
    // The asset hash is the bundle's (the output's): its source map must not name the folder it
    // was built in. `process.execPath`: the Node running the synth (24, as for every npm script).
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir, outputDir) => [
        [
          process.execPath,
          SOURCE_MAP_PATHS,
          join(outputDir, `${BUNDLE_FILE[LAMBDA_BUNDLE.format]}.map`),
          inputDir,
        ]
          .map(shellArgument)
          .join(" "),
      ],
    },
  };
}

/** The same bundle as a direct esbuild build (NodejsFunction always bundles for Node). */
export function lambdaEsbuildOptions(): BuildOptions {
  return {
    bundle: true,
    platform: "node",
    format: LAMBDA_BUNDLE.format,
    treeShaking: LAMBDA_BUNDLE.treeShaking,
    target: LAMBDA_BUNDLE.target,
    minify: LAMBDA_BUNDLE.minify,
    sourcemap: LAMBDA_BUNDLE.sourceMap,
    sourcesContent: LAMBDA_BUNDLE.sourcesContent,
    keepNames: LAMBDA_BUNDLE.keepNames,
    mainFields: [...LAMBDA_BUNDLE.mainFields],
    external: [...LAMBDA_BUNDLE.externalModules],
    banner: { js: LAMBDA_BUNDLE.banner },
    alias: { ...LAMBDA_BUNDLE.alias },
    preserveSymlinks: LAMBDA_BUNDLE.preserveSymlinks,
    logLevel: LAMBDA_BUNDLE.logLevel,
  };
}
