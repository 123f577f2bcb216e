/** Hand-built API Gateway REST (v1) proxy events and Lambda contexts for handler tests. */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { toAuthorizerContext } from "../../lib/auth/principal.js";
import type { Operation } from "../../lib/routes.js";

export interface EventOptions {
  method?: string;
  path?: string;
  body?: string | null;
  headers?: Record<string, string>;
  isBase64Encoded?: boolean;
  requestId?: string;
  pathParameters?: Record<string, string> | null;
  operations?: Operation[];
  companies?: string[];
  /** false: no authorizer context at all. */
  authorized?: boolean;
}

export function proxyEvent(options: EventOptions = {}): APIGatewayProxyEvent {
  const context = toAuthorizerContext({
    keyId: "key_TestTestTestTest",
    partner: "Test Partner",
    operations: options.operations ?? ["persons.search", "employees.search", "companies.hello"],
    companies: options.companies ?? ["acme"],
  });
  return {
    resource: options.path ?? "/v1/persons/search",
    path: options.path ?? "/v1/persons/search",
    httpMethod: options.method ?? "POST",
    headers: options.headers ?? { "Content-Type": "application/json" },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    body: options.body === undefined ? "{}" : options.body,
    isBase64Encoded: options.isBase64Encoded ?? false,
    requestContext: {
      requestId: options.requestId ?? "",
      authorizer: options.authorized === false ? undefined : { ...context, principalId: context.keyId },
    } as unknown as APIGatewayProxyEvent["requestContext"],
  };
}

export function lambdaContext(): Context {
  return {
    functionName: "test",
    awsRequestId: "aws-request-id",
    getRemainingTimeInMillis: () => 10_000,
  } as unknown as Context;
}
