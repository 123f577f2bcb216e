import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { build } from "esbuild";
import { lambdaEsbuildOptions } from "../../infra/bundling.js";
import { functionEntries } from "../../lib/bench/bundles.js";
import { BATCH_FUNCTIONS, bundleTargetOf } from "../../lib/bench/report.js";

// Bundle bytes are deterministic for a lockfile, so the size target is checked here and not only
// by `npm run bench`: a value import of a classic-Zod module from the store once took both
// search bundles from 301 KB to 754 KB.
describe("Lambda bundles", () => {
  const outdir = mkdtempSync(join(tmpdir(), "bundle-size-"));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it.each(functionEntries().map((entry) => [basename(entry, ".ts"), entry] as const))(
    "%s is within its bundle size target and, if it answers requests, holds no classic Zod",
    async (name, entry) => {
      const outfile = join(outdir, name, "index.mjs");
      const { metafile } = await build({
        ...lambdaEsbuildOptions(),
        entryPoints: [entry],
        outfile,
        metafile: true,
      });
      expect(statSync(outfile).size).toBeLessThanOrEqual(bundleTargetOf(name));
      if (BATCH_FUNCTIONS.has(name)) return;
      expect(Object.keys(metafile.inputs).filter((input) => input.includes("zod/v4/classic"))).toEqual([]);
    },
  );
});
