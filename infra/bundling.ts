/**
 * How every Lambda is bundled, defined once: the CDK function construct passes it to
 * NodejsFunction, and the benchmark (npm run bench) builds the same bundles with esbuild directly
 * to measure their size and cold import.
 */
import type { BuildOptions } from "esbuild";

export const LAMBDA_BUNDLE = {
  target: "node24",
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  keepNames: true,
  // Prefer packages' ESM builds so esbuild can tree-shake them.
  mainFields: ["module", "main"],
  // Bundle the AWS SDK v3 too: the version is the lockfile's, not whatever the runtime ships.
  externalModules: [] as string[],
  // Some dependencies still call `require`; ESM has none unless we create one.
  banner: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
} as const;

/** The same bundle as a direct esbuild build (ESM, tree-shaken), for measuring it. */
export function lambdaEsbuildOptions(): BuildOptions {
  return {
    bundle: true,
    platform: "node",
    format: "esm",
    treeShaking: true,
    target: LAMBDA_BUNDLE.target,
    minify: LAMBDA_BUNDLE.minify,
    sourcemap: LAMBDA_BUNDLE.sourceMap,
    sourcesContent: LAMBDA_BUNDLE.sourcesContent,
    keepNames: LAMBDA_BUNDLE.keepNames,
    mainFields: [...LAMBDA_BUNDLE.mainFields],
    external: [...LAMBDA_BUNDLE.externalModules],
    banner: { js: LAMBDA_BUNDLE.banner },
    logLevel: "warning",
  };
}
