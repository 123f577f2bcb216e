/** The authorizer counts keys with a valid checksum that no record holds: one EMF record each. */
import { type CapturedOutput, captureOutput } from "../http/output-capture.js";

process.env.POWERTOOLS_METRICS_DISABLED = "false";

let output: CapturedOutput;
beforeAll(() => {
  output = captureOutput();
});
afterAll(() => {
  output.restore();
  delete process.env.POWERTOOLS_METRICS_DISABLED;
});

it("publishes UnknownKeys 1 at once, with nothing of the key", async () => {
  const { countUnknownKey } = await import("../../lib/observability/metrics.js");
  countUnknownKey();
  countUnknownKey();
  const records = output.entries().filter((entry) => "_aws" in entry);
  expect(records).toHaveLength(2);
  for (const record of records) {
    expect(record).toMatchObject({ UnknownKeys: 1, service: "partner-directory" });
    expect(JSON.stringify(record)).not.toMatch(/pd_/);
  }
});
