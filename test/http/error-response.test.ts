import {
  type ApiError,
  ERROR_STATUS,
  errorResponseParts,
  ForbiddenError,
  InternalError,
  InvalidApiKeyError,
  InvalidCompanyIdError,
  InvalidInputError,
  MethodNotAllowedError,
  NotFoundError,
  RateLimitedError,
} from "../../lib/http/errors.js";
import { generateApiKey } from "../../lib/keys/api-key.js";
import { plainRoute } from "./echo-route.js";
import { header, invoke } from "./harness.js";

const throwing = (error: unknown) =>
  plainRoute(async () => {
    throw error;
  });

const CONTRACT_ERRORS: [ApiError, number][] = [
  [new InvalidCompanyIdError(), 400],
  [new InvalidApiKeyError(), 401],
  [new ForbiddenError("key key_x may not read company secret-co"), 403],
  [new NotFoundError(), 404],
  [new MethodNotAllowedError(["GET"]), 405],
];

describe("error mapping", () => {
  it.each(CONTRACT_ERRORS)("answers %p with its status and {error} only", async (error, status) => {
    const response = await invoke(throwing(error));
    expect(response.statusCode).toBe(status);
    expect(response.body).toBe(JSON.stringify({ error: error.code }));
    expect(header(response, "content-type")).toMatch(/^application\/json/);
    expect(header(response, "cache-control")).toBe("no-store");
    expect(header(response, "x-content-type-options")).toBe("nosniff");
    expect(header(response, "retry-after")).toBeUndefined();
  });

  it("gives invalid_input, and only invalid_input, its message", async () => {
    const response = await invoke(throwing(new InvalidInputError("phone: must be 10 digits")));
    expect(response.statusCode).toBe(400);
    expect(response.body).toBe('{"error":"invalid_input","message":"phone: must be 10 digits"}');
  });

  it("answers rate_limited 429 with retry-after", async () => {
    const response = await invoke(throwing(new RateLimitedError(7)));
    expect(response.statusCode).toBe(429);
    expect(response.body).toBe('{"error":"rate_limited"}');
    expect(header(response, "retry-after")).toBe("7");
  });

  it('answers an unexpected error with exactly {"error":"internal_error"}', async () => {
    const error = new Error(
      "ResourceNotFoundException: Requested resource not found (table pds-prod-directory-7f3a)",
    );
    error.stack = `${error.message}\n    at Object.send (/var/task/node_modules/@aws-sdk/client.js:1:1)`;
    const response = await invoke(throwing(error));
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
    expect(Object.keys(response.headers ?? {}).sort()).toEqual([
      "cache-control",
      "content-type",
      "x-content-type-options",
      "x-request-id",
    ]);
  });

  it.each([
    ["an InternalError with details", new InternalError("response of 7340032 bytes")],
    ["a TypeError", new TypeError("Cannot read properties of undefined (reading 'Items')")],
    ["a thrown string", "pds-prod-keys unavailable"],
    ["a thrown null", null],
    ["an http-errors look-alike", Object.assign(new Error("Bad"), { statusCode: 400, expose: true })],
    ["a plain object with a status", { statusCode: 404, message: "nope" }],
  ])("answers %s with a bare 500", async (_, error) => {
    const response = await invoke(throwing(error));
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
  });
});

describe("errorResponseParts", () => {
  it("has a status for every contract error code", () => {
    expect(ERROR_STATUS).toEqual({
      invalid_input: 400,
      invalid_company_id: 400,
      invalid_api_key: 401,
      forbidden: 403,
      not_found: 404,
      method_not_allowed: 405,
      rate_limited: 429,
      internal_error: 500,
    });
  });

  it("never puts a forbidden reason in the body", () => {
    const parts = errorResponseParts(new ForbiddenError("key key_abc may not read company hidden-co"));
    expect(parts).toEqual({ status: 403, body: { error: "forbidden" }, headers: {} });
  });

  it("maps anything unknown to internal_error", () => {
    for (const value of [undefined, 0, "x", new Error("x"), new InternalError("x")]) {
      expect(errorResponseParts(value)).toEqual({
        status: 500,
        body: { error: "internal_error" },
        headers: {},
      });
    }
  });

  it("carries retry-after only for rate_limited", () => {
    expect(errorResponseParts(new RateLimitedError(3)).headers).toEqual({ "retry-after": "3" });
    expect(errorResponseParts(new InvalidInputError("x")).headers).toEqual({});
  });

  it("names the Bearer scheme on 401 and the served methods on 405, and only there", () => {
    expect(errorResponseParts(new InvalidApiKeyError()).headers).toEqual({ "www-authenticate": "Bearer" });
    expect(errorResponseParts(new MethodNotAllowedError(["GET", "HEAD"])).headers).toEqual({
      allow: "GET, HEAD",
    });
    for (const error of [new ForbiddenError("x"), new NotFoundError(), new InvalidCompanyIdError()]) {
      expect(errorResponseParts(error).headers).toEqual({});
    }
  });

  it("keeps a forbidden reason loggable: keys redacted, caller text cut", () => {
    const key = generateApiKey("live");
    const error = new ForbiddenError(`key key_abc may not read company ${key}${"x".repeat(1_000_000)}`);
    expect(error.reason).not.toContain(key.slice(8));
    expect(error.message).toBe(error.reason);
    expect(error.reason.length).toBeLessThan(300);
  });
});
