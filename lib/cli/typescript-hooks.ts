/**
 * Lets Node run this project's TypeScript as it is: Node 24 strips the types itself, and this hook
 * resolves a relative `./x.js` specifier (TypeScript's NodeNext spelling) to the `./x.ts` source
 * when no `x.js` exists. Loaded with `--import` (typescript-node.ts) by the npm scripts and by every
 * child process the tools and tests start; the Lambdas are bundled and never load it.
 */
import { enableCompileCache, registerHooks } from "node:module";

// V8's compiled code of every module, kept on disk for the next start: a tool starts in about half
// the CPU (the tests start hundreds of loaders and CLIs). Next to the packages, gone with them.
enableCompileCache(new URL("../../node_modules/.cache/node-compile", import.meta.url).pathname);

const RELATIVE_JS = /^\.{1,2}\/.*\.js$/;

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!RELATIVE_JS.test(specifier) || (error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND")
        throw error;
      try {
        return nextResolve(`${specifier.slice(0, -".js".length)}.ts`, context);
      } catch {
        // Neither exists: the error names the specifier as written.
        throw error;
      }
    }
  },
});
