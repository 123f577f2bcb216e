/**
 * The authorizer's key lookups, shared and kept briefly per key hash: concurrent lookups of one
 * hash make one read (all of a process's invocations share it locally), a found record is kept for
 * `foundTtlMs` and a hash no record holds for `unknownTtlMs`. So a burst, or a forged key with a
 * valid checksum sent again and again, costs one read a TTL per hash, not one a request. A failed
 * read is not kept. Bounded: past `maxEntries` the oldest hash goes first.
 */
import type { KeyRecord } from "../keys/key-record.js";

type FindByHash = (keyHash: string) => Promise<KeyRecord | undefined>;

interface Entry {
  readonly found: Promise<KeyRecord | undefined>;
  /** Monotonic milliseconds after which the hash is read again; Infinity while the read runs. */
  expiresAt: number;
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
  const entries = new Map<string, Entry>();
  return (keyHash) => {
    const cached = entries.get(keyHash);
    if (cached && clock() < cached.expiresAt) return cached.found;
    if (cached) entries.delete(keyHash);
    const entry: Entry = { found: findByHash(keyHash), expiresAt: Number.POSITIVE_INFINITY };
    entries.set(keyHash, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    entry.found.then(
      (record) => {
        entry.expiresAt = clock() + (record ? foundTtlMs : unknownTtlMs);
      },
      () => {
        if (entries.get(keyHash) === entry) entries.delete(keyHash);
      },
    );
    return entry.found;
  };
}
