/**
 * The middlewares share nothing but the request's context, so the order they are used in changes
 * none of these: x-request-id on every answer, the response-size guard's exact count, the access
 * log's one line with the final status, duration and request id. Every order is tried.
 */
import middy from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import { ForbiddenError } from "../../lib/http/errors.js";
import { accessLog } from "../../lib/http/middleware/access-log.js";
import { errorResponse } from "../../lib/http/middleware/error-response.js";
import { responseSizeGuard, serializedResponseBytes } from "../../lib/http/middleware/response-size.js";
import { requestContext } from "../../lib/http/request-context.js";
import { jsonResponse } from "../../lib/http/response.js";
import { logger } from "../../lib/observability/logger.js";
import { gatewayEvent, header, lambdaContext } from "./harness.js";
import { captureLogsPerTest } from "./output-capture.js";

const REQUEST_ID = "gw-order-request-id";
/** The success answer's exact size, x-request-id included, as Lambda would serialize it. */
const EXACT = serializedResponseBytes(jsonResponse(200, "x".repeat(2_000), { "x-request-id": REQUEST_ID }));

type Answer = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;
const ANSWERS: Record<string, Answer> = {
  ok: async (event) =>
    jsonResponse(200, "x".repeat(2_000), { "x-request-id": requestContext(event).requestId }),
  // The same answer, without the header: the guard counts it all the same.
  "ok without x-request-id": async () => jsonResponse(200, "x".repeat(2_000)),
  forbidden: async () => {
    throw new ForbiddenError("not this one");
  },
  failure: async () => {
    throw new Error("boom");
  },
};

const MIDDLEWARES = {
  errors: () => errorResponse({ route: "order-test" }),
  size: (limitBytes: number) => responseSizeGuard({ limitBytes, route: "order-test" }),
};
const ORDERS = [
  ["errors", "size"],
  ["size", "errors"],
] as const;

function handlerIn(order: (typeof ORDERS)[number], answer: Answer, limitBytes: number) {
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>({
    ...accessLog({ resourcePath: "/order", route: "order-test" }),
  });
  for (const name of order)
    handler.use(name === "errors" ? MIDDLEWARES.errors() : MIDDLEWARES.size(limitBytes));
  const run = handler.handler(answer);
  return (options: { requestId?: string } = {}) =>
    run(gatewayEvent({ method: "GET", body: null, ...options }), lambdaContext() as Context);
}

const output = captureLogsPerTest(logger);
const completions = () => output.entries().filter((entry) => entry.message === "request completed");

describe.each(ORDERS.map((order) => [order.join(" then "), order] as const))(
  "in the order %s",
  (_, order) => {
    it.each([
      ["ok", 200, EXACT],
      ["ok without x-request-id", 200, EXACT],
      ["ok", 500, EXACT - 1],
      ["ok without x-request-id", 500, EXACT - 1],
      ["forbidden", 403, EXACT],
      ["failure", 500, EXACT],
    ] as const)("%s under a %i-byte limit answers %i", async (answer, status, limit) => {
      const response = await handlerIn(order, ANSWERS[answer] as Answer, limit)({ requestId: REQUEST_ID });
      expect(response.statusCode).toBe(status);
      // Error answers are made by the error mapping, with the id; a 200 is the handler's own.
      const bare = answer === "ok without x-request-id" && status === 200;
      expect(header(response, "x-request-id")).toBe(bare ? undefined : REQUEST_ID);
      const lines = completions();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ requestId: REQUEST_ID, route: "order-test", status });
      expect(Number(lines[0]?.durationMs)).toBeGreaterThanOrEqual(0);
    });

    it("gives the answer and the log line one generated id when API Gateway gave none", async () => {
      const response = await handlerIn(order, ANSWERS.failure as Answer, EXACT)();
      expect(completions()[0]?.requestId).toBe(header(response, "x-request-id"));
    });
  },
);
