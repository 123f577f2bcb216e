/** A local gateway over fake handlers and a fake authorizer, recording what reaches them. */
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayTokenAuthorizerEvent,
} from "aws-lambda";
import { allowPolicy } from "../../lib/auth/policy.js";
import { toAuthorizerContext } from "../../lib/auth/principal.js";
import type { HttpHandler } from "../../lib/http/pipeline.js";
import {
  createGateway,
  type GatewayAccessLogEntry,
  type GatewayOptions,
  type GatewayRequest,
} from "../../lib/local/gateway.js";
import { routesForStage } from "../../lib/routes.js";
import type { Throttle } from "../../lib/stages.js";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const KEY_ID = "key_GatewayGateway1";
export const TOKEN = "Bearer pd_test_whatever-the-fake-authorizer-accepts";

type Authorizer = (event: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export const allowing: Authorizer = async (event) =>
  allowPolicy(
    event.methodArn,
    toAuthorizerContext({
      keyId: KEY_ID,
      partner: "P",
      operations: ["companies.hello"],
      companies: ["acme"],
      throttle: { rateLimit: 10, burstLimit: 20 },
    }),
    "usage-1",
  );

export function setup(overrides: Partial<GatewayOptions> & { handler?: HttpHandler } = {}) {
  const authorizerCalls: APIGatewayTokenAuthorizerEvent[] = [];
  const events: APIGatewayProxyEvent[] = [];
  const log: GatewayAccessLogEntry[] = [];
  const handler: HttpHandler =
    overrides.handler ??
    (async () => ({
      statusCode: 200,
      headers: { "Content-Type": "application/json" },
      body: '{"ok":true}',
    }));
  const authorizer = overrides.authorizer ?? allowing;
  const gateway = createGateway({
    stage: "test",
    routes: routesForStage("local"),
    handlers: new Map<string, HttpHandler>(
      routesForStage("local").map(({ id }) => [
        id,
        async (event, context) => {
          events.push(event);
          return handler(event, context);
        },
      ]),
    ),
    throttleFor: (usageKey): Throttle | undefined =>
      usageKey === "usage-1" ? { rateLimit: 1_000, burstLimit: 1_000 } : undefined,
    accessLog: (entry) => log.push(entry),
    ...overrides,
    authorizer: async (event) => {
      authorizerCalls.push(event);
      return authorizer(event);
    },
  });
  return { gateway, authorizerCalls, events, log };
}

export function request(overrides: Partial<GatewayRequest> = {}): GatewayRequest {
  return {
    method: "GET",
    path: "/v1/companies/acme/hello",
    query: "",
    headers: { authorization: [TOKEN], "user-agent": ["test-client"] },
    body: Buffer.alloc(0),
    sourceIp: "127.0.0.1",
    ...overrides,
  };
}

export const bodyOf = (response: { body: string }) => JSON.parse(response.body) as unknown;

export function statement(effect: "Allow" | "Deny", resource: string) {
  return {
    Version: "2012-10-17",
    Statement: [{ Action: "execute-api:Invoke", Effect: effect, Resource: resource }],
  };
}
