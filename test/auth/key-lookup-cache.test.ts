/** The authorizer's key lookups: one read per hash at a time, kept briefly, failures never kept. */
import { cachedKeyLookup } from "../../lib/auth/key-lookup-cache.js";
import type { KeyRecord } from "../../lib/keys/key-record.js";

const RECORD = { keyId: "key_x", keyHash: "aa" } as unknown as KeyRecord;

function store(found: (hash: string) => Promise<KeyRecord | undefined>) {
  const reads: string[] = [];
  return {
    reads,
    findByHash: (hash: string) => {
      reads.push(hash);
      return found(hash);
    },
  };
}

describe("cachedKeyLookup", () => {
  const options = { foundTtlMs: 1_000, unknownTtlMs: 10_000, maxEntries: 100 };

  it("reads a hash once for a burst, keeps a found record for foundTtlMs and an unknown hash for unknownTtlMs", async () => {
    // lru-cache counts age from a start above 0, as performance.now() always is.
    let now = 5_000;
    const { reads, findByHash } = store(async (hash) => (hash === "aa" ? RECORD : undefined));
    const lookup = cachedKeyLookup(findByHash, { ...options, clock: () => now });
    const found = await Promise.all(Array.from({ length: 300 }, () => lookup("aa")));
    await Promise.all(Array.from({ length: 300 }, () => lookup("forged")));
    expect(found.every((record) => record === RECORD)).toBe(true);
    expect(reads).toEqual(["aa", "forged"]);
    now = 6_001;
    expect(await lookup("aa")).toBe(RECORD);
    expect(await lookup("forged")).toBeUndefined();
    expect(reads).toEqual(["aa", "forged", "aa"]);
    now = 15_001;
    await lookup("forged");
    expect(reads).toEqual(["aa", "forged", "aa", "forged"]);
  });

  it("never keeps a failed read: the next lookup reads again", async () => {
    let failing = true;
    const { reads, findByHash } = store(async () => {
      if (failing) throw new Error("TimeoutError");
      return RECORD;
    });
    const lookup = cachedKeyLookup(findByHash, { ...options, clock: () => 5_000 });
    await expect(lookup("aa")).rejects.toThrow("TimeoutError");
    failing = false;
    expect(await lookup("aa")).toBe(RECORD);
    expect(reads).toHaveLength(2);
  });

  it("keeps at most maxEntries hashes, dropping the oldest", async () => {
    const { reads, findByHash } = store(async () => undefined);
    const lookup = cachedKeyLookup(findByHash, { ...options, maxEntries: 2, clock: () => 5_000 });
    for (const hash of ["a", "b", "c", "a"]) await lookup(hash);
    expect(reads).toEqual(["a", "b", "c", "a"]);
  });
});
