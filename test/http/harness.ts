/**
 * Hand-built API Gateway REST (v1) proxy events, with the authorizer context exactly as the
 * authorizer builds it (toAuthorizerContext), and a Lambda context, to invoke pipeline handlers
 * directly.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import type { Operation } from "../../lib/auth/operations.js";
import { toAuthorizerContext } from "../../lib/auth/principal.js";
import type { HttpHandler } from "../../lib/http/pipeline.js";

export const KEY_ID = "key_HarnessHarness01";
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ALL_OPERATIONS: Operation[] = ["persons.search", "employees.search", "companies.hello"];

export interface EventOptions {
  method?: string;
  path?: string;
  body?: string | null;
  isBase64Encoded?: boolean;
  headers?: Record<string, string>;
  /** API Gateway's request id; "" or undefined leaves it out. */
  requestId?: string;
  pathParameters?: Record<string, string> | null;
  operations?: Operation[];
  companies?: string[];
  /** Replaces the authorizer context; null leaves it out altogether. */
  authorizer?: Record<string, unknown> | null;
}

export function authorizerContext(operations: Operation[] = ALL_OPERATIONS, companies = ["acme"]) {
  const context = toAuthorizerContext({
    keyId: KEY_ID,
    partner: "Harness Ltd",
    operations,
    companies,
    tier: "standard",
    throttle: { rateLimit: 10, burstLimit: 20 },
  });
  // API Gateway adds the principal id and its own latency to what the authorizer returned.
  return { ...context, principalId: KEY_ID, integrationLatency: 12 };
}

export function gatewayEvent(options: EventOptions = {}): APIGatewayProxyEvent {
  const path = options.path ?? "/v1/persons/search";
  const method = options.method ?? "POST";
  const headers = options.headers ?? { "Content-Type": "application/json" };
  const authorizer =
    options.authorizer === null
      ? undefined
      : (options.authorizer ?? authorizerContext(options.operations, options.companies));
  const requestContext = {
    accountId: "123456789012",
    apiId: "abc123",
    httpMethod: method,
    path: `/test${path}`,
    stage: "test",
    protocol: "HTTP/1.1",
    requestTimeEpoch: 1_767_225_600_000,
    resourceId: "res",
    resourcePath: path,
    identity: { sourceIp: "203.0.113.7" },
    ...(options.requestId ? { requestId: options.requestId } : {}),
    ...(authorizer ? { authorizer } : {}),
  } as unknown as APIGatewayProxyEvent["requestContext"];
  return {
    resource: path,
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    body: options.body === undefined ? "{}" : options.body,
    isBase64Encoded: options.isBase64Encoded ?? false,
    requestContext,
  };
}

export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: "harness",
    functionVersion: "$LATEST",
    invokedFunctionArn: "arn:aws:lambda:eu-west-1:123456789012:function:harness",
    memoryLimitInMB: "1024",
    awsRequestId: "00000000-0000-4000-8000-000000000000",
    logGroupName: "/aws/lambda/harness",
    logStreamName: "stream",
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export function invoke(handler: HttpHandler, options: EventOptions = {}): Promise<APIGatewayProxyResult> {
  return handler(gatewayEvent(options), lambdaContext());
}

export function jsonOf(response: APIGatewayProxyResult): Record<string, unknown> {
  return JSON.parse(response.body) as Record<string, unknown>;
}

export function header(response: APIGatewayProxyResult, name: string): string | undefined {
  const value = response.headers?.[name];
  return value === undefined ? undefined : String(value);
}
