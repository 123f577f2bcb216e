import { DEFAULT_RETRY, isRetryable, retryDelayMs, retryPolicy } from "../../lib/client/retry-policy.js";

const policy = retryPolicy({ maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 350, maxRetryAfterSeconds: 5 });
const top = () => 0.999_999;
const bottom = () => 0;

describe("retry policy", () => {
  it("retries 429, every 5xx and network failures; nothing else", () => {
    expect(isRetryable({ kind: "status", status: 429 })).toBe(true);
    expect(isRetryable({ kind: "status", status: 500 })).toBe(true);
    expect(isRetryable({ kind: "status", status: 503 })).toBe(true);
    expect(isRetryable({ kind: "network" })).toBe(true);
    for (const status of [400, 401, 403, 404, 405, 499])
      expect(isRetryable({ kind: "status", status })).toBe(false);
  });

  it("gives up on a status that is not retryable", () => {
    expect(retryDelayMs(policy, 1, { kind: "status", status: 400 }, top)).toBeUndefined();
  });

  it("is bounded: no wait after the last attempt", () => {
    expect(retryDelayMs(policy, 3, { kind: "network" }, top)).toBeDefined();
    expect(retryDelayMs(policy, 4, { kind: "network" }, top)).toBeUndefined();
    expect(retryDelayMs(retryPolicy({ maxAttempts: 1 }), 1, { kind: "network" }, top)).toBeUndefined();
  });

  it("backs off exponentially with full jitter, capped at maxDelayMs", () => {
    const ceilings = [1, 2, 3].map((attempt) => retryDelayMs(policy, attempt, { kind: "network" }, top));
    expect(ceilings).toEqual([99, 199, 349]);
    expect(retryDelayMs(policy, 3, { kind: "status", status: 500 }, bottom)).toBe(0);
    expect(retryDelayMs(policy, 2, { kind: "status", status: 502 }, () => 0.5)).toBe(100);
  });

  it("honours Retry-After as a floor, adding at most one base step of jitter", () => {
    const failure = { kind: "status", status: 429, retryAfterSeconds: 2 } as const;
    expect(retryDelayMs(policy, 1, failure, bottom)).toBe(2000);
    expect(retryDelayMs(policy, 1, failure, top)).toBe(2099);
    // Retry-After wins over a backoff cap smaller than it.
    expect(retryDelayMs(policy, 3, failure, bottom)).toBe(2000);
  });

  it("fails at once when Retry-After asks for more than maxRetryAfterSeconds", () => {
    expect(retryDelayMs(policy, 1, { kind: "status", status: 429, retryAfterSeconds: 5 }, bottom)).toBe(5000);
    expect(
      retryDelayMs(policy, 1, { kind: "status", status: 429, retryAfterSeconds: 6 }, bottom),
    ).toBeUndefined();
  });

  it("backs off a 429 without Retry-After like any other failure", () => {
    expect(retryDelayMs(policy, 2, { kind: "status", status: 429 }, top)).toBe(199);
  });

  it("has defaults and refuses nonsense", () => {
    expect(retryPolicy()).toEqual(DEFAULT_RETRY);
    expect(retryPolicy({ maxAttempts: 2 }).baseDelayMs).toBe(DEFAULT_RETRY.baseDelayMs);
    expect(() => retryPolicy({ maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => retryPolicy({ maxAttempts: 1.5 })).toThrow(/maxAttempts/);
    expect(() => retryPolicy({ baseDelayMs: -1 })).toThrow(/baseDelayMs/);
    expect(() => retryPolicy({ maxDelayMs: Number.NaN })).toThrow(/maxDelayMs/);
    expect(() => retryPolicy({ maxRetryAfterSeconds: Number.POSITIVE_INFINITY })).toThrow(
      /maxRetryAfterSeconds/,
    );
  });
});
