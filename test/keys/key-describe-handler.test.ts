/** The `GET /v1/key` Lambda handler invoked directly with API Gateway REST events. */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { handler } from "../../functions/key-describe.js";
import { toAuthorizerContext } from "../../lib/auth/principal.js";

const context = {
  functionName: "key-describe",
  awsRequestId: "req",
  getRemainingTimeInMillis: () => 3_000,
} as unknown as Context;

const KEY_ID = "key_HandlerHandler01";
const AUTHORIZER = toAuthorizerContext({
  keyId: KEY_ID,
  partner: "Handler Ltd",
  operations: [],
  companies: ["beta", "acme"],
  tier: "trial",
  throttle: { rateLimit: 2, burstLimit: 5, dailyQuota: 10_000 },
});

function call(authorizer: Record<string, unknown> | undefined) {
  const event = {
    resource: "/v1/key",
    path: "/v1/key",
    httpMethod: "GET",
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      requestId: "gw-key",
      ...(authorizer ? { authorizer: { ...authorizer, principalId: KEY_ID } } : {}),
    },
  } as unknown as APIGatewayProxyEvent;
  return handler(event, context);
}

describe("GET /v1/key handler", () => {
  it("answers 200 to a key holding no operation at all, with x-request-id", async () => {
    const response = await call(AUTHORIZER);
    expect(response.statusCode).toBe(200);
    expect(response.headers?.["x-request-id"]).toBe("gw-key");
    expect(JSON.parse(response.body)).toEqual({
      keyId: KEY_ID,
      partner: "Handler Ltd",
      operations: [],
      companies: ["acme", "beta"],
      tier: "trial",
      throttle: { rate: 2, burst: 5, quota: { limit: 10_000, period: "day" } },
    });
  });

  it.each([
    ["no authorizer context", undefined],
    ["a context cached from before it carried the throttle", { ...AUTHORIZER, throttle: undefined }],
    ["a garbled throttle", { ...AUTHORIZER, throttle: "[]" }],
  ])("answers 500 internal_error, never an anonymous answer, for %s", async (_, authorizer) => {
    const response = await call(authorizer);
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
  });
});
