import type { APIGatewayAuthorizerResult } from "aws-lambda";
import { allowing, bodyOf, request, setup, statement, TOKEN } from "./gateway-fixture.js";

describe("createGateway: the gateway's own answers", () => {
  it("answers 401 without an Authorization header, without calling the authorizer", async () => {
    const { gateway, authorizerCalls, events } = setup();
    const response = await gateway(request({ headers: {} }));
    expect(response.status).toBe(401);
    expect(bodyOf(response)).toEqual({ error: "invalid_api_key" });
    expect(authorizerCalls).toHaveLength(0);
    expect(events).toHaveLength(0);
  });

  it.each([
    ["junk first", ["Bearer junk", TOKEN]],
    ["the key first", [TOKEN, "Bearer junk"]],
    ["the same key twice", [TOKEN, TOKEN]],
  ])(
    "answers 401 to more than one Authorization header (%s), without calling the authorizer",
    async (_, values) => {
      const { gateway, authorizerCalls, events } = setup();
      const response = await gateway(request({ headers: { authorization: values } }));
      expect(response.status).toBe(401);
      expect(bodyOf(response)).toEqual({ error: "invalid_api_key" });
      expect(authorizerCalls).toHaveLength(0);
      expect(events).toHaveLength(0);
    },
  );

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

  it("waits for a usage plan read, and answers 500 internal_error when it fails", async () => {
    const read = setup({ throttleFor: async () => ({ rateLimit: 10, burstLimit: 10 }) });
    expect((await read.gateway(request())).status).toBe(200);

    const { gateway, events } = setup({
      throttleFor: async () => {
        throw new Error("keys table unreachable");
      },
    });
    const response = await gateway(request());
    expect(response.status).toBe(500);
    expect(bodyOf(response)).toEqual({ error: "internal_error" });
    expect(response.headers["x-request-id"]).toBeDefined();
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
