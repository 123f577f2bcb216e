import { attachEngine } from "../../lib/local/engines.js";
import { DDB_LOCAL_ENV } from "../support/ddblocal-lifecycle.js";
import { requestEdgesSuite } from "./request-edges-suite.js";

// DynamoDB Local is shared by every jest worker: this file's tables get names of their own.
const suffix = `${process.pid}-${Date.now().toString(36)}`;
const skipped = process.env[DDB_LOCAL_ENV.skipped];
const endpoint = process.env[DDB_LOCAL_ENV.endpoint];

if (skipped) {
  // Only a missing java skips DynamoDB Local (globalSetup says so once); anything else fails.
  test.skip(`hostile requests over HTTP [ddblocal] skipped: ${skipped}`, () => {});
} else if (!endpoint) {
  test("hostile requests over HTTP [ddblocal]", () => {
    throw new Error(`DynamoDB Local did not start: ${process.env[DDB_LOCAL_ENV.error] ?? "no endpoint"}`);
  });
} else {
  requestEdgesSuite("ddblocal", async () => ({
    engine: attachEngine("ddblocal", endpoint),
    tableNames: { directory: `edges-directory-${suffix}`, keys: `edges-keys-${suffix}` },
  }));
}
