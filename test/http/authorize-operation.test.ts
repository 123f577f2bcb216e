import * as z from "zod/mini";
import { routeHandler } from "../../lib/http/pipeline.js";
import { routeById } from "../../lib/routes.js";
import { echoRoute, plainRoute } from "./echo-route.js";
import { authorizerContext, gatewayEvent, invoke, jsonOf, KEY_ID, lambdaContext } from "./harness.js";

const FORBIDDEN = '{"error":"forbidden"}';
const INTERNAL = '{"error":"internal_error"}';

describe("the route's operation", () => {
  it("lets a key with the operation through, handing the handler its principal", async () => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, { operations: ["persons.search"], companies: ["a", "b"] });
    expect(response.statusCode).toBe(200);
    const principal = calls[0]?.principal;
    expect(principal?.keyId).toBe(KEY_ID);
    expect(principal?.partner).toBe("Harness Ltd");
    expect([...(principal?.operations ?? [])]).toEqual(["persons.search"]);
    expect([...(principal?.companies ?? [])]).toEqual(["a", "b"]);
  });

  it.each([
    ["invalid JSON", { body: "{" }],
    ["a schema violation", { body: '{"unknown":1}' }],
    ["a wrong content type", { body: "{}", headers: { "content-type": "text/plain" } }],
    ["an oversized body", { body: JSON.stringify({ note: "x".repeat(1_048_576) }) }],
  ])("answers 403 forbidden before looking at the body (%s)", async (_, options) => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, {
      ...options,
      operations: ["employees.search", "companies.hello"],
    });
    expect(response.statusCode).toBe(403);
    expect(response.body).toBe(FORBIDDEN);
    expect(calls).toHaveLength(0);
  });

  it("ignores operation names it does not know", async () => {
    const { handler } = echoRoute();
    const authorizer = { ...authorizerContext(), operations: '["persons.*","admin"]' };
    expect((await invoke(handler, { authorizer })).body).toBe(FORBIDDEN);
  });

  it("checks the operation on routes without a body too", async () => {
    let ran = false;
    const handler = plainRoute(async () => {
      ran = true;
      return {};
    });
    const response = await invoke(handler, { method: "GET", body: null, operations: ["persons.search"] });
    expect(response.statusCode).toBe(403);
    expect(ran).toBe(false);
  });
});

describe("a route without an operation", () => {
  const route = { ...routeById("key-describe"), response: z.unknown() };
  const seen: unknown[] = [];
  const handler = routeHandler(route, async ({ principal }) => {
    seen.push(principal.keyId);
    return {};
  });

  it("takes any valid key, one holding no operation at all included", async () => {
    for (const operations of [[], ["persons.search"]] as const) {
      const response = await invoke(handler, { method: "GET", body: null, operations: [...operations] });
      expect(response.statusCode).toBe(200);
    }
    expect(seen).toEqual([KEY_ID, KEY_ID]);
  });

  it("still answers 500 to a missing authorizer context", async () => {
    const response = await invoke(handler, { method: "GET", body: null, authorizer: null });
    expect([response.statusCode, response.body]).toEqual([500, INTERNAL]);
  });
});

describe("a missing or garbled authorizer context is a server fault, never an anonymous caller", () => {
  const valid = authorizerContext();
  it.each([
    ["no context", null],
    ["an empty context", {}],
    ["no keyId", { ...valid, keyId: undefined }],
    ["an empty keyId", { ...valid, keyId: "" }],
    ["operations not JSON", { ...valid, operations: "persons.search" }],
    ["operations a JSON object", { ...valid, operations: '{"persons.search":true}' }],
    ["companies of numbers", { ...valid, companies: "[1,2]" }],
    ["companies missing", { ...valid, companies: undefined }],
  ])("%s → 500 internal_error", async (_, authorizer) => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, { authorizer });
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe(INTERNAL);
    expect(jsonOf(response)).toEqual({ error: "internal_error" });
    expect(calls).toHaveLength(0);
  });
});

describe("one Authorization header", () => {
  const withAuthorization = (multiValueHeaders: Record<string, string[]>) => {
    const event = gatewayEvent();
    return { ...event, multiValueHeaders: { ...event.multiValueHeaders, ...multiValueHeaders } };
  };

  it.each([
    ["two values", { Authorization: ["Bearer junk", "Bearer pd_test_x"] }],
    ["two spellings of the name", { Authorization: ["Bearer a"], authorization: ["Bearer b"] }],
  ])("answers 401 invalid_api_key to more than one (%s), before anything else", async (_, headers) => {
    const { handler, calls } = echoRoute();
    const response = await handler(withAuthorization(headers), lambdaContext());
    expect(response.statusCode).toBe(401);
    expect(response.body).toBe('{"error":"invalid_api_key"}');
    expect(response.headers?.["www-authenticate"]).toBe("Bearer");
    expect(calls).toHaveLength(0);
  });

  it("lets one through", async () => {
    const { handler } = echoRoute();
    const response = await handler(withAuthorization({ Authorization: ["Bearer a"] }), lambdaContext());
    expect(response.statusCode).toBe(200);
  });
});
