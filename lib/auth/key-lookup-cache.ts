/**
 * The authorizer's key lookups, shared and kept briefly per key hash (lru-cache's `fetch`):
 * concurrent lookups of one hash make one read (all of a process's invocations share it locally),
 * a found record is kept for `foundTtlMs` and a hash no record holds for `unknownTtlMs`. So a
 * burst, or a forged key with a valid checksum sent again and again, costs one read a TTL per hash,
 * not one a request. A failed read is not kept. Bounded: past `maxEntries` the least recently used
 * hash goes first.
 */
import { LRUCache } from "lru-cache";
import type { KeyRecord } from "../keys/key-record.js";

type FindByHash = (keyHash: string) => Promise<KeyRecord | undefined>;

/** lru-cache keeps no `undefined`: an unknown hash is kept as `{}`. */
interface Lookup {
  readonly record?: KeyRecord;
}

export interface KeyLookupCacheOptions {
  readonly foundTtlMs: number;
  readonly unknownTtlMs: number;
  readonly maxEntries: number;
  /** Milliseconds, monotonic. */
  readonly clock?: () => number;
}

export function cachedKeyLookup(
  findByHash: FindByHash,
  { foundTtlMs, unknownTtlMs, maxEntries, clock = () => performance.now() }: KeyLookupCacheOptions,
): FindByHash {
  const cache = new LRUCache<string, Lookup>({
    max: maxEntries,
    ttl: foundTtlMs,
    ttlResolution: 0,
    perf: { now: clock },
    fetchMethod: async (keyHash, _stale, { options }) => {
      const record = await findByHash(keyHash);
      options.ttl = record ? foundTtlMs : unknownTtlMs;
      return record ? { record } : {};
    },
  });
  return async (keyHash) => (await cache.fetch(keyHash))?.record;
}
