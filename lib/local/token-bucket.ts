/**
 * Per-key throttling as API Gateway usage plans define it: a token bucket (steady rate per second,
 * burst capacity) and an optional quota per UTC day. Time is injected so tests need no sleeping.
 */
import type { Throttle } from "../stages.js";

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface BucketState {
  tokens: number;
  updatedAtMs: number;
  day: string;
  usedToday: number;
}

const DAY_MS = 86_400_000;

export class UsagePlanThrottler {
  private readonly now: () => number;
  private readonly buckets = new Map<string, BucketState>();

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Takes one request from `usageKey`'s allowance, or says how long to wait. */
  take(usageKey: string, throttle: Throttle): ThrottleDecision {
    const nowMs = this.now();
    const day = new Date(nowMs).toISOString().slice(0, 10);
    const state = this.buckets.get(usageKey) ?? {
      tokens: throttle.burstLimit,
      updatedAtMs: nowMs,
      day,
      usedToday: 0,
    };
    this.buckets.set(usageKey, state);

    const elapsedSeconds = Math.max(0, nowMs - state.updatedAtMs) / 1000;
    state.tokens = Math.min(throttle.burstLimit, state.tokens + elapsedSeconds * throttle.rateLimit);
    state.updatedAtMs = nowMs;
    if (state.day !== day) {
      state.day = day;
      state.usedToday = 0;
    }

    if (throttle.dailyQuota !== undefined && state.usedToday >= throttle.dailyQuota) {
      const nextDayMs = (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((nextDayMs - nowMs) / 1000)) };
    }
    if (state.tokens < 1) {
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - state.tokens) / throttle.rateLimit)),
      };
    }
    state.tokens -= 1;
    state.usedToday += 1;
    return { allowed: true };
  }
}
