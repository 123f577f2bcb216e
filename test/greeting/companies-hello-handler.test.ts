/** The greeting Lambda handler invoked directly with API Gateway REST events. */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { handler } from "../../functions/companies-hello.js";
import type { Operation } from "../../lib/auth/operations.js";
import { toAuthorizerContext } from "../../lib/auth/principal.js";
import { GREETING_MESSAGE } from "../../lib/greeting/greet-company.js";

const context = {
  functionName: "companies-hello",
  awsRequestId: "req",
  getRemainingTimeInMillis: () => 3_000,
} as unknown as Context;

function call(companyId: string | null, operations: Operation[] = ["companies.hello"]) {
  const authorizer = toAuthorizerContext({
    keyId: "key_HelloHelloHello1",
    partner: "P",
    operations,
    companies: ["acme"],
    throttle: { rateLimit: 10, burstLimit: 20 },
  });
  const path = `/v1/companies/${companyId ?? ""}/hello`;
  const event = {
    resource: "/v1/companies/{companyId}/hello",
    path,
    httpMethod: "GET",
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: companyId === null ? null : { companyId },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      requestId: "gw-hello",
      authorizer: { ...authorizer, principalId: "key_HelloHelloHello1" },
    },
  } as unknown as APIGatewayProxyEvent;
  return handler(event, context);
}

describe("GET /v1/companies/{companyId}/hello handler", () => {
  it("answers 200 with the greeting as JSON and x-request-id", async () => {
    const response = await call("acme");
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ message: GREETING_MESSAGE });
    expect(response.headers?.["content-type"]).toMatch(/^application\/json/);
    expect(response.headers?.["x-request-id"]).toBe("gw-hello");
  });

  it.each([[""], ["a".repeat(129)], ["a b"], [null]])("answers 400 invalid_company_id for %j", async (id) => {
    const response = await call(id);
    expect(response.statusCode).toBe(400);
    expect(response.body).toBe('{"error":"invalid_company_id"}');
  });

  it("answers 403 for a company not granted, and for a key without companies.hello", async () => {
    expect(await call("beta")).toMatchObject({ statusCode: 403, body: '{"error":"forbidden"}' });
    expect(await call("acme", ["persons.search"])).toMatchObject({
      statusCode: 403,
      body: '{"error":"forbidden"}',
    });
  });
});
