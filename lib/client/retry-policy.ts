/**
 * When to retry a failed attempt and how long to wait: pure, so every rule is unit-tested.
 * Searches only read, so every route is safe to repeat.
 */

export interface RetryOptions {
  /** Attempts in all, the first included (1 turns retries off). Default 4. */
  maxAttempts?: number;
  /** The backoff's first step; it doubles per attempt. Default 250 ms. */
  baseDelayMs?: number;
  /** The largest backoff step. Default 8 s. */
  maxDelayMs?: number;
  /** A 429 asking for a longer wait than this fails at once instead (a spent daily quota). Default 60 s. */
  maxRetryAfterSeconds?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterSeconds: 60,
};

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...options };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1)
    throw new RangeError("retry.maxAttempts must be an integer of at least 1");
  for (const name of ["baseDelayMs", "maxDelayMs", "maxRetryAfterSeconds"] as const) {
    if (!Number.isFinite(policy[name]) || policy[name] < 0)
      throw new RangeError(`retry.${name} must be a finite number of at least 0`);
  }
  return policy;
}

/** What went wrong with one attempt, as far as retrying is concerned. */
export type AttemptFailure =
  | { kind: "status"; status: number; retryAfterSeconds?: number | undefined }
  /** No answer at all: the connection failed or the attempt timed out. */
  | { kind: "network" };

export function isRetryable(failure: AttemptFailure): boolean {
  return failure.kind === "network" || failure.status === 429 || failure.status >= 500;
}

/**
 * The wait before attempt `attempt + 1` (attempts count from 1), or undefined to give up now.
 * Backoff is "full jitter": a random wait up to min(max, base × 2^(attempt-1)), so many clients
 * throttled together do not come back together. A 429's `Retry-After` is honoured as a floor,
 * plus up to one base step of jitter.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  failure: AttemptFailure,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.maxAttempts || !isRetryable(failure)) return undefined;
  const retryAfter = failure.kind === "status" ? failure.retryAfterSeconds : undefined;
  if (retryAfter !== undefined) {
    if (retryAfter > policy.maxRetryAfterSeconds) return undefined;
    return retryAfter * 1000 + Math.floor(random() * policy.baseDelayMs);
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}
