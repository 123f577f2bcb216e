/** The partner guide states the body limit the pipeline enforces. */
import { readFileSync } from "node:fs";
import { MAX_BODY_BYTES } from "../../lib/http/middleware/body-limit.js";

it("docs/partners.md states the body limit in bytes", () => {
  const guide = readFileSync(new URL("../../docs/partners.md", import.meta.url), "utf8");
  expect(guide).toContain(`1 MiB (${MAX_BODY_BYTES.toLocaleString("en-US")} bytes)`);
  expect(MAX_BODY_BYTES).toBe(1024 * 1024);
});
