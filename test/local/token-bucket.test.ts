import fc from "fast-check";
import { UsagePlanThrottler } from "../../lib/local/token-bucket.js";
import type { Throttle } from "../../lib/stages.js";

const START = Date.parse("2026-03-10T12:00:00.000Z");

function clock(start = START) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
    set: (iso: string) => {
      now = Date.parse(iso);
    },
  };
}

function takeMany(throttler: UsagePlanThrottler, key: string, throttle: Throttle, count: number) {
  return Array.from({ length: count }, () => throttler.take(key, throttle).allowed);
}

describe("UsagePlanThrottler: the token bucket", () => {
  it("lets a full burst through at once, then refuses", () => {
    const time = clock();
    const throttler = new UsagePlanThrottler(time.now);
    const throttle = { rateLimit: 5, burstLimit: 10 };
    expect(takeMany(throttler, "k", throttle, 10)).toEqual(Array(10).fill(true));
    expect(throttler.take("k", throttle)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it("refills at the rate, never beyond the burst", () => {
    const time = clock();
    const throttler = new UsagePlanThrottler(time.now);
    const throttle = { rateLimit: 5, burstLimit: 10 };
    takeMany(throttler, "k", throttle, 10);
    time.advance(199);
    expect(throttler.take("k", throttle).allowed).toBe(false);
    time.advance(1); // 200 ms at 5/s: one token
    expect(takeMany(throttler, "k", throttle, 2)).toEqual([true, false]);
    time.advance(600); // three more
    expect(takeMany(throttler, "k", throttle, 4)).toEqual([true, true, true, false]);
    time.advance(60_000); // a minute idle: the bucket holds the burst, not 300 tokens
    expect(takeMany(throttler, "k", throttle, 11)).toEqual([...Array(10).fill(true), false]);
  });

  it("does not charge refused requests", () => {
    const time = clock();
    const throttler = new UsagePlanThrottler(time.now);
    const throttle = { rateLimit: 1, burstLimit: 1 };
    expect(throttler.take("k", throttle).allowed).toBe(true);
    for (let i = 0; i < 50; i++) expect(throttler.take("k", throttle).allowed).toBe(false);
    time.advance(1_000);
    expect(throttler.take("k", throttle).allowed).toBe(true);
  });

  it("keeps one bucket per usage key", () => {
    const throttler = new UsagePlanThrottler(clock().now);
    const throttle = { rateLimit: 1, burstLimit: 2 };
    expect(takeMany(throttler, "a", throttle, 3)).toEqual([true, true, false]);
    expect(takeMany(throttler, "b", throttle, 3)).toEqual([true, true, false]);
  });

  it.each([
    [2, 0, 1],
    [1, 0, 1],
    [0.5, 0, 2],
    [0.25, 0, 4],
    [0.1, 0, 10],
    [0.5, 1_000, 1],
    [0.25, 1_000, 3],
    [0.1, 3_500, 7],
  ])("at %d/s, %i ms after the bucket emptied, says Retry-After %i", (rateLimit, waitedMs, retryAfter) => {
    const time = clock();
    const throttler = new UsagePlanThrottler(time.now);
    const throttle = { rateLimit, burstLimit: 1 };
    expect(throttler.take("k", throttle).allowed).toBe(true);
    time.advance(waitedMs);
    expect(throttler.take("k", throttle)).toEqual({ allowed: false, retryAfterSeconds: retryAfter });
  });

  it("gives a Retry-After that is always enough and never a whole second too long", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000 }).map((tenths) => tenths / 10),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 30_000 }),
        (rateLimit, burstLimit, waitedMs) => {
          const time = clock();
          const throttler = new UsagePlanThrottler(time.now);
          const throttle = { rateLimit, burstLimit };
          takeMany(throttler, "k", throttle, burstLimit);
          time.advance(waitedMs);
          let decision = throttler.take("k", throttle);
          while (decision.allowed) decision = throttler.take("k", throttle);
          const wait = decision.retryAfterSeconds;
          expect(wait).toBeGreaterThanOrEqual(1);
          if (wait > 1) {
            time.advance((wait - 1) * 1_000);
            expect(throttler.take("k", throttle).allowed).toBe(false);
            time.advance(1_000);
          } else {
            time.advance(wait * 1_000);
          }
          expect(throttler.take("k", throttle).allowed).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("UsagePlanThrottler: the daily quota (UTC days)", () => {
  const throttle = { rateLimit: 1_000, burstLimit: 1_000, dailyQuota: 3 };

  it("refuses once the day's quota is used, until UTC midnight", () => {
    const time = clock();
    time.set("2026-03-10T00:00:05.000Z");
    const throttler = new UsagePlanThrottler(time.now);
    expect(takeMany(throttler, "k", throttle, 3)).toEqual([true, true, true]);
    time.set("2026-03-10T23:59:30.000Z");
    expect(throttler.take("k", throttle)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    time.set("2026-03-10T23:59:59.600Z");
    expect(throttler.take("k", throttle)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    time.set("2026-03-11T00:00:00.000Z");
    expect(takeMany(throttler, "k", throttle, 4)).toEqual([true, true, true, false]);
    expect(throttler.take("k", throttle)).toEqual({ allowed: false, retryAfterSeconds: 86_400 });
  });

  it("counts only allowed requests against the quota", () => {
    const time = clock();
    const throttler = new UsagePlanThrottler(time.now);
    const tight = { rateLimit: 1, burstLimit: 1, dailyQuota: 2 };
    expect(takeMany(throttler, "k", tight, 5)).toEqual([true, false, false, false, false]);
    time.advance(1_000);
    expect(throttler.take("k", tight).allowed).toBe(true);
    time.advance(1_000);
    expect(throttler.take("k", tight)).toEqual({ allowed: false, retryAfterSeconds: 12 * 3_600 - 2 });
  });

  it("has no quota when the throttle names none", () => {
    const time = clock();
    const throttler = new UsagePlanThrottler(time.now);
    const noQuota = { rateLimit: 1_000, burstLimit: 1_000 };
    for (let second = 0; second < 20; second++) {
      expect(takeMany(throttler, "k", noQuota, 1_000).every(Boolean)).toBe(true);
      time.advance(1_000);
    }
  });
});
