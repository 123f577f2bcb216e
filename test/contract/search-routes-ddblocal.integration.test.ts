import { attachEngine } from "../../lib/local/engines.js";
import { DDB_LOCAL_ENV } from "../support/ddblocal-lifecycle.js";
import { searchRoutesSuite } from "./search-routes-suite.js";

// DynamoDB Local is shared by every jest worker: this file's tables get names of their own.
const suffix = `${process.pid}-${Date.now().toString(36)}`;
const skipped = process.env[DDB_LOCAL_ENV.skipped];
const endpoint = process.env[DDB_LOCAL_ENV.endpoint];

if (skipped) {
  // Only a missing java skips DynamoDB Local (globalSetup says so once); anything else fails.
  test.skip(`search routes over HTTP [ddblocal] skipped: ${skipped}`, () => {});
} else if (!endpoint) {
  test("search routes over HTTP [ddblocal]", () => {
    throw new Error(`DynamoDB Local did not start: ${process.env[DDB_LOCAL_ENV.error] ?? "no endpoint"}`);
  });
} else {
  searchRoutesSuite("ddblocal", async () => ({
    engine: attachEngine("ddblocal", endpoint),
    tableNames: { directory: `routes-directory-${suffix}`, keys: `routes-keys-${suffix}` },
  }));
}
