/**
 * How long a Lambda's DynamoDB client may keep trying one call, and the worst case that allows.
 * Pure numbers (no SDK import), so the CDK stacks can check a function's timeout against them.
 */

export interface RetryLimits {
  readonly maxAttempts: number;
  /** The whole attempt, connection included; the client aborts it then (lib/store/dynamo-client.ts). */
  readonly attemptTimeoutMs: number;
}

/**
 * The longest the SDK's standard mode waits between two attempts: a random share of
 * `base × 2^retry`, where `base` is 1 s after a throttling error (@smithy/core `Retry.throttlingDelay`,
 * the larger of its two bases). DynamoDB sends no Retry-After hint that could stretch it.
 */
export const MAX_RETRY_BASE_DELAY_MS = 1_000;

/** The worst case of one call: every attempt cut off, every backoff at its maximum. */
export function retryBudgetMs({ maxAttempts, attemptTimeoutMs }: RetryLimits): number {
  let backoff = 0;
  for (let retry = 0; retry < maxAttempts - 1; retry++) backoff += MAX_RETRY_BASE_DELAY_MS * 2 ** retry;
  return maxAttempts * attemptTimeoutMs + backoff;
}

/**
 * Route functions: at most 3 attempts of 3 s each. Within a 10 s function the request deadline
 * (lib/http/pipeline.ts) has the last word: it answers 500 before the function times out.
 */
export const LAMBDA_RETRY_LIMITS: RetryLimits = { maxAttempts: 3, attemptTimeoutMs: 3_000 };

/**
 * The authorizer: one point read of a key record, normally a few milliseconds. Two attempts of
 * 1.5 s end (4 s at worst) before its 5 s timeout, so a DynamoDB outage gives API Gateway an
 * authorizer error it answers with 500 (AUTHORIZER_FAILURE) rather than a Lambda timeout.
 * infra checks the budget against the function's timeout at synth.
 */
export const AUTHORIZER_RETRY_LIMITS: RetryLimits = { maxAttempts: 2, attemptTimeoutMs: 1_500 };

/**
 * The ingest: a load's calls, throttling included, get 6 attempts of 5 s (61 s at worst), which
 * end within the 2 minutes a step keeps in reserve before its 15-minute timeout
 * (functions/ingest-step.ts), so a hung connection costs a retry, not the step.
 */
export const INGEST_RETRY_LIMITS: RetryLimits = { maxAttempts: 6, attemptTimeoutMs: 5_000 };
