import { errorFromResponse, PartnerDirectoryError, parseRetryAfter } from "../../lib/client/errors.js";

const headers = (entries: Record<string, string>) => new Headers(entries);

describe("errorFromResponse", () => {
  it("carries status, error, message, request id and Retry-After", () => {
    const error = errorFromResponse(
      400,
      headers({ "x-request-id": "req-1" }),
      '{"error":"invalid_input","message":"limit: must be at most 100"}',
    );
    expect(error).toBeInstanceOf(PartnerDirectoryError);
    expect(error).toMatchObject({
      name: "PartnerDirectoryError",
      status: 400,
      error: "invalid_input",
      message: "limit: must be at most 100",
      requestId: "req-1",
      retryAfterSeconds: undefined,
    });
  });

  it("describes errors that carry no message by status and code", () => {
    const error = errorFromResponse(429, headers({ "retry-after": "3" }), '{"error":"rate_limited"}');
    expect(error).toMatchObject({
      error: "rate_limited",
      message: "HTTP 429 rate_limited",
      retryAfterSeconds: 3,
    });
    expect(error.requestId).toBeUndefined();
  });

  it("marks a body that is not a contract error as unexpected_response", () => {
    for (const body of ["<html>Bad gateway</html>", '{"error":"teapot"}', "[]", "null", ""]) {
      const error = errorFromResponse(502, headers({}), body);
      expect(error.error).toBe("unexpected_response");
      expect(error.message).toBe("HTTP 502");
    }
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-23T10:00:00Z");
  it("reads delay-seconds", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter(" 12 ", now)).toBe(12);
  });
  it("reads an HTTP date, rounding up, never negative", () => {
    expect(parseRetryAfter("Mon, 23 Nov 2026 10:00:05 GMT", now)).toBe(5);
    expect(parseRetryAfter("Mon, 23 Nov 2026 09:00:00 GMT", now)).toBe(0);
  });
  it("ignores what is absent or malformed", () => {
    for (const value of [null, "", "soon", "-1", "1.5", "in 2 s"])
      expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
