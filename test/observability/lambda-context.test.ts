/**
 * Every line a route logs carries Powertools' Lambda context: `cold_start` (true on the first
 * invocation of a fresh environment only) and `function_request_id` (the invocation's own).
 */
import type { HttpHandler } from "../../lib/http/pipeline.js";
import type { Logger } from "../../lib/observability/logger.js";
import { gatewayEvent, lambdaContext } from "../http/harness.js";
import { type CapturedOutput, captureOutput } from "../http/output-capture.js";

// Powertools reads the initialization type when the logger is made: a fresh on-demand environment.
process.env.AWS_LAMBDA_INITIALIZATION_TYPE = "on-demand";

let output: CapturedOutput;
let logger: Logger;
let handler: HttpHandler;
beforeAll(async () => {
  ({ logger } = await import("../../lib/observability/logger.js"));
  const { plainRoute } = await import("../http/echo-route.js");
  handler = plainRoute(async ({ log }) => {
    log.info("working");
    throw new Error("boom");
  });
  logger.setLogLevel("INFO");
  output = captureOutput();
});
afterAll(() => {
  output.restore();
  logger.setLogLevel("SILENT");
  delete process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
});

async function linesOf(awsRequestId: string) {
  output.clear();
  const response = await handler(gatewayEvent({ method: "GET", requestId: `gw-${awsRequestId}` }), {
    ...lambdaContext(),
    awsRequestId,
  });
  expect(response.statusCode).toBe(500);
  return output.entries();
}

describe("the Lambda context on route log lines", () => {
  it("is on every line: the handler's, the error mapping's and the access log's", async () => {
    const lines = await linesOf("invocation-1");
    expect(lines.map((line) => line.message)).toEqual(["working", "request failed", "request completed"]);
    for (const line of lines) {
      expect(line).toMatchObject({
        cold_start: true,
        function_request_id: "invocation-1",
        function_name: "harness",
        requestId: "gw-invocation-1",
      });
    }
  });

  it("says cold_start false, with the new request id, on the next invocation", async () => {
    const lines = await linesOf("invocation-2");
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).toMatchObject({ cold_start: false, function_request_id: "invocation-2" });
    }
  });
});
