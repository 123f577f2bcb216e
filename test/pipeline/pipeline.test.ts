import { z } from "zod";
import { InvalidInputError, RateLimitedError } from "../../lib/http/errors.js";
import { httpRoute } from "../../lib/http/pipeline.js";
import { type EventOptions, lambdaContext, proxyEvent } from "../support/events.js";

const schema = z.strictObject({
  name: z.string().min(1).optional(),
  kind: z.enum(["a", "b"]).optional(),
  limit: z.int().min(1).max(100).default(50),
});

let lastBody: unknown;
const echo = httpRoute("persons-search", { body: schema }, async ({ body }) => {
  lastBody = body;
  return { ok: true, body };
});
const call = (options: EventOptions = {}, handler = echo) => handler(proxyEvent(options), lambdaContext());
const bodyOf = (response: { body: string }) => JSON.parse(response.body) as Record<string, unknown>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("x-request-id", () => {
  it("is API Gateway's request id when there is one", async () => {
    const response = await call({ requestId: "gw-123" });
    expect(response.statusCode).toBe(200);
    expect(response.headers?.["x-request-id"]).toBe("gw-123");
  });

  it("is a fresh UUID otherwise, also on errors", async () => {
    const response = await call({ body: "{" });
    expect(response.statusCode).toBe(400);
    expect(response.headers?.["x-request-id"]).toMatch(UUID);
  });
});

describe("body size", () => {
  const sized = (bytes: number) => JSON.stringify({ name: "x".repeat(bytes - 11) });
  it("lets exactly 1 MiB through the limit", async () => {
    const body = sized(1_048_576);
    expect(Buffer.byteLength(body)).toBe(1_048_576);
    expect((await call({ body })).statusCode).toBe(200);
  });

  it("refuses 1 MiB + 1 byte with invalid_input before parsing", async () => {
    const response = await call({ body: `${sized(1_048_576)} ` });
    expect(response.statusCode).toBe(400);
    expect(bodyOf(response)).toEqual({
      error: "invalid_input",
      message: "request body is larger than 1048576 bytes",
    });
  });

  it("counts the decoded bytes of a base64 body", async () => {
    const body = Buffer.from(`${sized(1_048_576)} `).toString("base64");
    expect((await call({ body, isBase64Encoded: true })).statusCode).toBe(400);
  });
});

describe("JSON body", () => {
  it.each([
    ["invalid JSON", "{", "request body is not valid JSON"],
    ["an array", "[]", "request body must be a JSON object"],
    ["null", "null", "request body must be a JSON object"],
    ["a number", "5", "request body must be a JSON object"],
    ["a string", '"x"', "request body must be a JSON object"],
    ["a __proto__ key", '{"__proto__":{"x":1}}', 'request body contains the forbidden key "__proto__"'],
  ])("refuses %s", async (_, body, message) => {
    const response = await call({ body });
    expect(response.statusCode).toBe(400);
    expect(bodyOf(response)).toEqual({ error: "invalid_input", message });
  });

  it.each([
    ["missing", {}],
    ["text/plain", { "content-type": "text/plain" }],
    ["form", { "Content-Type": "application/x-www-form-urlencoded" }],
  ])("refuses a body whose content type is %s", async (_, headers) => {
    const response = await call({ body: "{}", headers });
    expect(bodyOf(response)).toEqual({
      error: "invalid_input",
      message: "content-type must be application/json",
    });
  });

  it("accepts a JSON content type with parameters, in any header case", async () => {
    expect((await call({ headers: { "CONTENT-TYPE": "application/json; charset=utf-8" } })).statusCode).toBe(
      200,
    );
  });

  it.each([
    ["absent", null],
    ["empty", ""],
  ])("treats an %s body as {} (defaults apply)", async (_, body) => {
    const response = await call({ body, headers: {} });
    expect(response.statusCode).toBe(200);
    expect(lastBody).toEqual({ limit: 50 });
  });
});

describe("validation", () => {
  it.each([
    [{ nmae: "x" }, 'unknown field "nmae"'],
    [{ name: "" }, "name: must be at least 1 character"],
    [{ name: 5 }, "name: expected string, received number"],
    [{ limit: "5" }, "limit: expected number, received string"],
    [{ limit: 1.5 }, "limit: expected integer, received number"],
    [{ limit: 101 }, "limit: must be at most 100"],
    [{ kind: "zzz" }, 'kind: unsupported value "zzz" (allowed: a, b)'],
  ])("refuses %j naming the field and the rule", async (body, message) => {
    const response = await call({ body: JSON.stringify(body) });
    expect(response.statusCode).toBe(400);
    expect(bodyOf(response)).toEqual({ error: "invalid_input", message });
  });

  it("names every problem at once", async () => {
    const response = await call({ body: JSON.stringify({ name: "", extra: 1 }) });
    expect(bodyOf(response).message).toBe('name: must be at least 1 character; unknown field "extra"');
  });
});

describe("errors", () => {
  const failing = (error: unknown) =>
    httpRoute("persons-search", {}, async () => {
      throw error;
    });

  it("answers an unexpected error with internal_error and nothing else", async () => {
    const error = new Error("ResourceNotFoundException: table pds-prod-directory not found");
    const response = await call({}, failing(error));
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
    expect(response.headers?.["x-request-id"]).toMatch(UUID);
  });

  it("gives invalid_input its message and no other error a message", async () => {
    expect(bodyOf(await call({}, failing(new InvalidInputError("phone: bad"))))).toEqual({
      error: "invalid_input",
      message: "phone: bad",
    });
    const limited = await call({}, failing(new RateLimitedError(7)));
    expect(limited.statusCode).toBe(429);
    expect(bodyOf(limited)).toEqual({ error: "rate_limited" });
    expect(limited.headers?.["retry-after"]).toBe("7");
  });

  it("refuses a key without the route's operation before looking at the body", async () => {
    const response = await call({ operations: ["companies.hello"], body: "{" });
    expect(response.statusCode).toBe(403);
    expect(response.body).toBe('{"error":"forbidden"}');
  });

  it("treats a request without authorizer context as a server fault, never as anonymous", async () => {
    const response = await call({ authorized: false });
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
  });
});

describe("response size", () => {
  const sized = (characters: number) =>
    httpRoute("persons-search", {}, async () => ({ data: "x".repeat(characters) }));

  it("answers 500 rather than a response Lambda would refuse", async () => {
    const response = await call({}, sized(6_291_456));
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
  });

  it("returns a large response under the limit whole", async () => {
    const response = await call({}, sized(6_200_000));
    expect(response.statusCode).toBe(200);
    expect(response.body.length).toBeGreaterThan(6_200_000);
  });
});
