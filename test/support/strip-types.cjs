/**
 * Jest's transform of the project's TypeScript: Node's own type stripping, the same that runs the
 * tools and the loaders the tests start (lib/cli/typescript-hooks.ts). The project writes only
 * erasable syntax (tsconfig's `erasableSyntaxOnly`), so stripping is the whole compilation; the
 * types are checked by `tsc` in `npm run checks`. Stripping keeps every line and column, so stack
 * traces need no source map. (ts-jest, before it, loaded TypeScript's compiler in every jest
 * worker, about 0.3 s of CPU each, and took about 10 ms a file.)
 */
const { createHash } = require("node:crypto");
const { stripTypeScriptTypes } = require("node:module");

module.exports = {
  process(source) {
    return { code: stripTypeScriptTypes(source, { mode: "strip" }) };
  },
  getCacheKey(source, path) {
    return createHash("sha256")
      .update(process.version)
      .update("\0")
      .update(path)
      .update("\0")
      .update(source)
      .digest("hex");
  },
};
