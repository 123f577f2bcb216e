import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
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
import { type RouteId, routesForStage } from "../../lib/routes.js";
import type { Throttle } from "../../lib/stages.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY_ID = "key_GatewayGateway1";
const TOKEN = "Bearer pd_test_whatever-the-fake-authorizer-accepts";

type Authorizer = (event: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

const allowing: Authorizer = async (event) =>
  allowPolicy(
    event.methodArn,
    toAuthorizerContext({
      keyId: KEY_ID,
      partner: "P",
      operations: ["companies.hello"],
      companies: ["acme"],
    }),
    "usage-1",
  );

function setup(overrides: Partial<GatewayOptions> & { handler?: HttpHandler } = {}) {
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
    handlers: new Map<RouteId, HttpHandler>(
      (["companies-hello", "persons-search", "employees-search"] as const).map((id) => [
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

function request(overrides: Partial<GatewayRequest> = {}): GatewayRequest {
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

const bodyOf = (response: { body: string }) => JSON.parse(response.body) as unknown;

describe("createGateway: the gateway's own answers", () => {
  it("answers 401 without an Authorization header, without calling the authorizer", async () => {
    const { gateway, authorizerCalls, events } = setup();
    const response = await gateway(request({ headers: {} }));
    expect(response.status).toBe(401);
    expect(bodyOf(response)).toEqual({ error: "invalid_api_key" });
    expect(authorizerCalls).toHaveLength(0);
    expect(events).toHaveLength(0);
  });

  it("answers 401 when the authorizer throws Unauthorized", async () => {
    const { gateway, events } = setup({
      authorizer: async () => {
        throw new Error("Unauthorized");
      },
    });
    const response = await gateway(request());
    expect(response.status).toBe(401);
    expect(bodyOf(response)).toEqual({ error: "invalid_api_key" });
    expect(events).toHaveLength(0);
  });

  it.each([
    ["an error naming a table", new Error("ResourceNotFoundException: pds-prod-keys")],
    ["a TypeError", new TypeError("x is undefined")],
    ["a thrown string", "Unauthorized"],
    ["an error with another message", new Error("unauthorized")],
  ])("answers 500 internal_error, and nothing more, when the authorizer throws %s", async (_, thrown) => {
    const { gateway, events } = setup({
      authorizer: async () => {
        throw thrown;
      },
    });
    const response = await gateway(request());
    expect(response.status).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
    expect(events).toHaveLength(0);
  });

  it.each<[string, (arn: string) => APIGatewayAuthorizerResult["policyDocument"]]>([
    ["another stage", (arn) => statement("Allow", arn.replace("/test/", "/prod/"))],
    ["another API", (arn) => statement("Allow", arn.replace("local-greeting", "other-api"))],
    ["another route only", (arn) => statement("Allow", arn.replace("GET/v1/companies/acme/hello", "POST/*"))],
    [
      "an explicit Deny",
      (arn) => ({
        Version: "2012-10-17",
        Statement: [...statement("Allow", "*").Statement, ...statement("Deny", arn).Statement],
      }),
    ],
    ["no statement", () => ({ Version: "2012-10-17", Statement: [] })],
  ])("answers 403 forbidden when the policy does not cover the method ARN (%s)", async (_, policy) => {
    const { gateway, events } = setup({
      authorizer: async (event) => ({ ...(await allowing(event)), policyDocument: policy(event.methodArn) }),
    });
    const response = await gateway(request());
    expect(response.status).toBe(403);
    expect(bodyOf(response)).toEqual({ error: "forbidden" });
    expect(events).toHaveLength(0);
  });

  it("hands the authorizer the token and the method ARN of the route", async () => {
    const { gateway, authorizerCalls } = setup();
    await gateway(request({ path: "/v1/companies/acme/hello" }));
    expect(authorizerCalls).toEqual([
      {
        type: "TOKEN",
        authorizationToken: TOKEN,
        methodArn: "arn:aws:execute-api:local:000000000000:local-greeting/test/GET/v1/companies/acme/hello",
      },
    ]);
  });

  it("answers 401 for a usage key that no plan holds", async () => {
    const { gateway, events } = setup({
      authorizer: async (event) => ({ ...(await allowing(event)), usageIdentifierKey: "usage-unknown" }),
    });
    expect((await gateway(request())).status).toBe(401);
    expect(events).toHaveLength(0);
  });

  it("answers 429 rate_limited with Retry-After, without running the handler", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const { gateway, events } = setup({
      now: () => now,
      throttleFor: () => ({ rateLimit: 0.5, burstLimit: 2 }),
    });
    expect((await gateway(request())).status).toBe(200);
    expect((await gateway(request())).status).toBe(200);
    const limited = await gateway(request());
    expect(limited.status).toBe(429);
    expect(bodyOf(limited)).toEqual({ error: "rate_limited" });
    expect(limited.headers["retry-after"]).toBe("2");
    expect(events).toHaveLength(2);
    now += 2_000;
    expect((await gateway(request())).status).toBe(200);
  });

  it("answers 404 and 405 for unknown paths and methods", async () => {
    const { gateway, authorizerCalls } = setup();
    expect(bodyOf(await gateway(request({ path: "/v1/unknown" })))).toEqual({ error: "not_found" });
    const wrong = await gateway(request({ method: "DELETE" }));
    expect(wrong.status).toBe(405);
    expect(bodyOf(wrong)).toEqual({ error: "method_not_allowed" });
    expect(authorizerCalls).toHaveLength(0);
  });
});

function statement(effect: "Allow" | "Deny", resource: string) {
  return {
    Version: "2012-10-17",
    Statement: [{ Action: "execute-api:Invoke", Effect: effect, Resource: resource }],
  };
}

describe("createGateway: running the handler", () => {
  it("builds a REST v1 event with the authorizer context, path parameters and body", async () => {
    const { gateway, events } = setup();
    const response = await gateway(
      request({
        method: "POST",
        path: "/v1/persons/search",
        query: "a=1&a=2",
        headers: { authorization: [TOKEN], "content-type": ["application/json"] },
        body: Buffer.from('{"lastName":"Ng"}'),
      }),
    );
    expect(response.status).toBe(200);
    const [event] = events;
    expect(event).toMatchObject({
      httpMethod: "POST",
      path: "/v1/persons/search",
      resource: "/v1/persons/search",
      body: '{"lastName":"Ng"}',
      isBase64Encoded: false,
      pathParameters: null,
      queryStringParameters: { a: "2" },
      multiValueQueryStringParameters: { a: ["1", "2"] },
      headers: { "content-type": "application/json" },
      requestContext: {
        stage: "test",
        requestId: response.headers["x-request-id"],
        authorizer: { keyId: KEY_ID, principalId: KEY_ID, operations: '["companies.hello"]' },
      },
    });
    await gateway(request({ path: "/v1/companies/a%20b/hello" }));
    expect(events[1]?.pathParameters).toEqual({ companyId: "a b" });
    expect(events[1]?.body).toBeNull();
  });

  it("passes the handler's answer through, header names lower-cased, with x-request-id", async () => {
    const { gateway } = setup({
      handler: async () => ({ statusCode: 201, headers: { "X-Custom": "yes" }, body: "created" }),
    });
    const response = await gateway(request());
    expect(response).toEqual({
      status: 201,
      headers: { "x-custom": "yes", "x-request-id": expect.stringMatching(UUID) },
      body: "created",
    });
  });

  it("answers 500 internal_error when the handler outlives the function timeout", async () => {
    const { gateway } = setup({
      functionTimeoutMs: 50,
      handler: () => new Promise<APIGatewayProxyResult>(() => undefined),
    });
    const response = await gateway(request());
    expect(response.status).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
  });

  it.each<[string, unknown]>([
    ["undefined", undefined],
    ["null", null],
    ["an empty object", {}],
    ["a string status", { statusCode: "200", body: "{}" }],
    ["no body", { statusCode: 200 }],
    ["an object body", { statusCode: 200, body: { ok: true } }],
  ])("answers 500 internal_error for a malformed proxy result (%s)", async (_, result) => {
    const { gateway } = setup({ handler: async () => result as APIGatewayProxyResult });
    const response = await gateway(request());
    expect(response.status).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
  });

  it("answers 500 internal_error when the handler throws", async () => {
    const { gateway } = setup({
      handler: async () => {
        throw new Error("Lambda runtime error: table pds-prod-directory");
      },
    });
    const response = await gateway(request());
    expect(response.status).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
  });
});

describe("createGateway: request ids and access log", () => {
  const scenarios: [
    string,
    number,
    Partial<GatewayOptions> & { handler?: HttpHandler },
    Partial<GatewayRequest>,
  ][] = [
    ["not found", 404, {}, { path: "/nothing" }],
    ["method not allowed", 405, {}, { method: "PUT" }],
    ["no Authorization", 401, {}, { headers: {} }],
    ["Unauthorized", 401, { authorizer: async () => Promise.reject(new Error("Unauthorized")) }, {}],
    ["authorizer failure", 500, { authorizer: async () => Promise.reject(new Error("boom")) }, {}],
    [
      "policy denies",
      403,
      { authorizer: async (e) => ({ ...(await allowing(e)), policyDocument: statement("Deny", "*") }) },
      {},
    ],
    ["throttled", 429, { throttleFor: () => ({ rateLimit: 1, burstLimit: 1 }), now: () => 0 }, {}],
    ["malformed result", 500, { handler: async () => ({}) as APIGatewayProxyResult }, {}],
    ["success", 200, {}, {}],
  ];

  it.each(scenarios)(
    "puts x-request-id on %s (%i) and logs it once",
    async (name, status, options, overrides) => {
      const { gateway, log } = setup(options);
      if (name === "throttled") await gateway(request(overrides));
      log.length = 0;
      const response = await gateway(request(overrides));
      expect(response.status).toBe(status);
      const id = response.headers["x-request-id"];
      expect(id).toMatch(UUID);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(log).toEqual([
        {
          requestId: id,
          httpMethod: overrides.method ?? "GET",
          path: overrides.path ?? "/v1/companies/acme/hello",
          status,
          latencyMs: expect.any(Number),
          ...(["policy denies", "throttled", "malformed result", "success"].includes(name)
            ? { keyId: KEY_ID }
            : {}),
        },
      ]);
    },
  );

  it("gives every request its own id", async () => {
    const { gateway } = setup();
    const ids = new Set<string | undefined>();
    for (let i = 0; i < 20; i++) ids.add((await gateway(request({ path: "/x" }))).headers["x-request-id"]);
    expect(ids.size).toBe(20);
  });
});
