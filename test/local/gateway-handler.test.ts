import type { APIGatewayProxyResult } from "aws-lambda";
import type { HttpHandler } from "../../lib/http/pipeline.js";
import type { GatewayOptions, GatewayRequest } from "../../lib/local/gateway.js";
import { allowing, KEY_ID, request, setup, statement, TOKEN, UUID } from "./gateway-fixture.js";

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
      // The bytes as received: the route's body middleware decodes them strictly.
      body: Buffer.from('{"lastName":"Ng"}').toString("base64"),
      isBase64Encoded: true,
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
      if (name !== "success") {
        // The gateway's own answers; a handler's answer passes through with the handler's headers.
        expect(response.headers["cache-control"]).toBe("no-store");
        expect(response.headers["x-content-type-options"]).toBe("nosniff");
      }
      expect(log).toEqual([
        {
          requestId: id,
          httpMethod: overrides.method ?? "GET",
          // The route's template, never the path as sent; nothing for a path that matches no route.
          ...(name === "not found" ? {} : { resourcePath: "/v1/companies/{companyId}/hello" }),
          status,
          latencyMs: expect.any(Number),
          ...(["policy denies", "throttled", "malformed result", "success"].includes(name)
            ? { keyId: KEY_ID }
            : {}),
          // Every 500 the gateway answers itself says why.
          ...(name === "authorizer failure" ? { cause: "Error: boom" } : {}),
          ...(name === "malformed result" ? { cause: "Error: malformed Lambda proxy response" } : {}),
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
