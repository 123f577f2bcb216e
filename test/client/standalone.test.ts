/** The client is importable on its own: bundled, it pulls in no package at all (no AWS SDK, no Zod). */
import { build } from "esbuild";

it("bundles from lib/client alone, a few kilobytes, with no dependency", async () => {
  const result = await build({
    entryPoints: [new URL("../../lib/client/index.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    platform: "neutral",
    minify: true,
    write: false,
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.filter((input) => input.includes("node_modules"))).toEqual([]);
  expect(inputs.every((input) => input.startsWith("lib/client/"))).toBe(true);
  const bytes = result.outputFiles[0]?.contents.byteLength ?? 0;
  expect(bytes).toBeGreaterThan(1000);
  expect(bytes).toBeLessThan(8 * 1024);
});
