/** Whether a load run held: pure checks over its tallies and memory samples, each one named. */

export interface KindTally {
  readonly name: string;
  readonly key: string;
  readonly expected: readonly number[];
  /** status → responses */
  readonly statuses: Readonly<Record<number, number>>;
}

export interface MemorySample {
  /** Seconds since the load started. */
  readonly atSeconds: number;
  /** Heap in use after a full GC, bytes; absent for a server the load test did not start. */
  readonly heapUsed?: number;
  readonly rss: number;
}

export interface ThrottleExpectation {
  readonly rateLimit: number;
  readonly burstLimit: number;
  readonly durationSeconds: number;
  /** The rate the throttled connection sent at (requests/s); above rateLimit. */
  readonly sentRate: number;
}

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  /** Not checked (the detail says why): neither a pass nor a failure of the run. */
  readonly skipped?: true;
}

/** Whether the check fails the run. */
export const failed = (check: Check): boolean => !check.ok && check.skipped !== true;

const total = (statuses: Readonly<Record<number, number>>) =>
  Object.values(statuses).reduce((sum, count) => sum + count, 0);

export function unexpectedStatuses(tallies: readonly KindTally[]): Check {
  const wrong = tallies.flatMap((tally) =>
    Object.entries(tally.statuses)
      .filter(([status, count]) => count > 0 && !tally.expected.includes(Number(status)))
      .map(([status, count]) => `${tally.name}: ${count}× ${status}`),
  );
  return {
    name: "no unexpected status",
    ok: wrong.length === 0,
    detail: wrong.length === 0 ? "every response had its kind's expected status" : wrong.join("; "),
  };
}

export function rateLimitedOnlyThrottledKey(tallies: readonly KindTally[], throttledKey: string): Check {
  const elsewhere = tallies
    .filter((tally) => tally.key !== throttledKey && (tally.statuses[429] ?? 0) > 0)
    .map((tally) => `${tally.name}: ${tally.statuses[429]}× 429`);
  return {
    name: "429 only on the throttled key",
    ok: elsewhere.length === 0,
    detail: elsewhere.length === 0 ? "no other key was rate limited" : elsewhere.join("; "),
  };
}

/**
 * The throttled key got what its token bucket allows: at most burst + rate × duration (plus one
 * second of rate for the edges), at least 80% of rate × duration, and some 429s since it sent faster.
 */
export function throttleHeld(
  tallies: readonly KindTally[],
  throttledKey: string,
  expect: ThrottleExpectation,
): Check {
  const ofKey = tallies.filter((tally) => tally.key === throttledKey);
  const accepted = ofKey.reduce((sum, tally) => sum + (tally.statuses[200] ?? 0), 0);
  const limited = ofKey.reduce((sum, tally) => sum + (tally.statuses[429] ?? 0), 0);
  const most = expect.burstLimit + expect.rateLimit * (expect.durationSeconds + 1);
  const least = Math.floor(0.8 * expect.rateLimit * expect.durationSeconds);
  const ok = accepted <= most && accepted >= least && (expect.sentRate <= expect.rateLimit || limited > 0);
  return {
    name: "throttle held",
    ok,
    detail: `${accepted} accepted (allowed ${least}–${most}), ${limited} rate limited`,
  };
}

export function noTransportErrors(errors: number, timeouts: number): Check {
  return {
    name: "no connection errors or timeouts",
    ok: errors === 0 && timeouts === 0,
    detail: `${errors} errors, ${timeouts} timeouts`,
  };
}

export function answeredEveryKind(tallies: readonly KindTally[]): Check {
  const silent = tallies.filter((tally) => total(tally.statuses) === 0).map((tally) => tally.name);
  return {
    name: "every kind of request was sent",
    ok: silent.length === 0,
    detail: silent.length === 0 ? `${tallies.length} kinds` : `never answered: ${silent.join(", ")}`,
  };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/**
 * Memory is flat when, from the second quarter of the run (the first is warm-up: JIT, caches,
 * pools) to the last, neither the post-GC heap (when sampled) nor the RSS grew by more than 10% or
 * 8 MB (whichever is larger). Medians of each quarter, so one sample taken mid-request does not decide.
 */
export function memoryFlat(samples: readonly MemorySample[]): Check {
  if (samples.length < 8)
    return { name: "memory flat", ok: false, detail: `only ${samples.length} samples; run longer` };
  const quarter = Math.floor(samples.length / 4);
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  const growth = (values: readonly number[], label: string) => {
    const settled = median(values.slice(quarter, 2 * quarter));
    const late = median(values.slice(values.length - quarter));
    const allowance = Math.max(8 * 2 ** 20, settled * 0.1);
    return {
      ok: late - settled <= allowance,
      detail: `${label} ${mb(settled)} → ${mb(late)} MB (allowed +${mb(allowance)})`,
    };
  };
  const heaps = samples.flatMap((sample) => (sample.heapUsed === undefined ? [] : [sample.heapUsed]));
  const rss = growth(
    samples.map((sample) => sample.rss),
    "RSS",
  );
  if (heaps.length < samples.length)
    return {
      name: "memory flat",
      ok: rss.ok,
      detail: `${rss.detail} (its heap is not visible from outside)`,
    };
  const heap = growth(heaps, "heap after GC");
  return { name: "memory flat", ok: heap.ok && rss.ok, detail: `${heap.detail}; ${rss.detail}` };
}

/** The memory check when the server's memory cannot be read: skipped, and why. */
export function memorySkipped(why: string): Check {
  return { name: "memory flat", ok: false, skipped: true, detail: `skipped: ${why}` };
}
