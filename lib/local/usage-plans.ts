/**
 * The local usage plans: which usage key gets which throttle. On AWS, `npm run keys` puts a new
 * key's usage key in its tier's plan at once and disables it on revoke. Locally the plans are read
 * from the keys table itself, so a key created or revoked while the server runs (`npm run keys --
 * … --endpoint URL`) counts within `maxAgeMs`, and a new key at its first request.
 */
import type { KeyRecord } from "../keys/key-record.js";
import type { Throttle } from "../stages.js";

const USAGE_PLANS_MAX_AGE_MS = 1_000;

export interface UsagePlansOptions {
  /** How long a read of the keys table answers for keys it holds (default USAGE_PLANS_MAX_AGE_MS). */
  readonly maxAgeMs?: number;
  /** Milliseconds, monotonic. */
  readonly clock?: () => number;
}

type Plans = ReadonlyMap<string, Throttle>;

/**
 * `throttleFor(usageKey)`: the throttle of the active key holding that usage key, or undefined.
 * A usage key the last read did not hold causes a new read: only the authorizer's Allow leads
 * here, so that is a key created since, and misses stay as rare as new keys. Concurrent lookups
 * share one read.
 */
export function keysTableUsagePlans(
  keys: { list(): Promise<KeyRecord[]> },
  { maxAgeMs = USAGE_PLANS_MAX_AGE_MS, clock = () => performance.now() }: UsagePlansOptions = {},
): (usageKey: string) => Promise<Throttle | undefined> {
  let current: { plans: Plans; readAt: number } | undefined;
  let reading: Promise<Plans> | undefined;

  const read = (): Promise<Plans> => {
    reading ??= (async () => {
      const readAt = clock();
      try {
        const records = await keys.list();
        const plans = new Map(
          records.filter((record) => record.status === "active").map((r) => [r.usageKey, r.throttle]),
        );
        current = { plans, readAt };
        return plans;
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  };

  return async (usageKey) => {
    const fresh = current && clock() - current.readAt < maxAgeMs ? current.plans : undefined;
    return fresh?.get(usageKey) ?? (await read()).get(usageKey);
  };
}
