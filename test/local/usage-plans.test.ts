import type { KeyRecord } from "../../lib/keys/key-record.js";
import { keysTableUsagePlans } from "../../lib/local/usage-plans.js";
import { THROTTLE_TIERS } from "../../lib/stages.js";

function record(usageKey: string, overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    keyId: `key_${usageKey.padEnd(16, "0").slice(0, 16)}`,
    keyHash: "0".repeat(64),
    partner: "P",
    operations: ["companies.hello"],
    companies: ["acme"],
    throttle: THROTTLE_TIERS.standard,
    tier: "standard",
    usageKey,
    status: "active",
    createdAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

/** A keys table of `records` (changed in place by tests) that counts its reads. */
function table(records: KeyRecord[]) {
  const state = { reads: 0 };
  return {
    state,
    async list() {
      state.reads += 1;
      return [...records];
    },
  };
}

describe("local usage plans, read from the keys table", () => {
  it("give an active key its throttle, and nothing to a revoked or unknown usage key", async () => {
    const keys = table([record("a"), record("b", { status: "revoked" })]);
    const throttleFor = keysTableUsagePlans(keys, { clock: () => 0 });
    expect(await throttleFor("a")).toEqual(THROTTLE_TIERS.standard);
    expect(await throttleFor("b")).toBeUndefined();
    expect(await throttleFor("nobody")).toBeUndefined();
  });

  it("find a key created after the last read at its first request", async () => {
    const records = [record("a")];
    const keys = table(records);
    const throttleFor = keysTableUsagePlans(keys, { clock: () => 0 });
    await throttleFor("a");
    records.push(record("new", { throttle: THROTTLE_TIERS.trial, tier: "trial" }));
    expect(await throttleFor("new")).toEqual(THROTTLE_TIERS.trial);
  });

  it("answer known keys from one read for maxAgeMs, then read again (a revoke counts then)", async () => {
    let now = 0;
    const records = [record("a")];
    const keys = table(records);
    const throttleFor = keysTableUsagePlans(keys, { maxAgeMs: 1_000, clock: () => now });
    await throttleFor("a");
    now = 999;
    expect(await throttleFor("a")).toEqual(THROTTLE_TIERS.standard);
    expect(keys.state.reads).toBe(1);

    records[0] = record("a", { status: "revoked" });
    now = 1_000;
    expect(await throttleFor("a")).toBeUndefined();
    expect(keys.state.reads).toBe(2);
  });

  it("share one read among concurrent lookups", async () => {
    const keys = table([record("a"), record("b")]);
    const throttleFor = keysTableUsagePlans(keys, { clock: () => 0 });
    const answers = await Promise.all(["a", "b", "a", "b"].map((usageKey) => throttleFor(usageKey)));
    expect(answers.every((throttle) => throttle === THROTTLE_TIERS.standard)).toBe(true);
    expect(keys.state.reads).toBe(1);
  });

  it("let a failed read fail the lookup, and read again at the next one", async () => {
    let failing = true;
    const throttleFor = keysTableUsagePlans(
      {
        async list() {
          if (failing) throw new Error("engine down");
          return [record("a")];
        },
      },
      { clock: () => 0 },
    );
    await expect(throttleFor("a")).rejects.toThrow("engine down");
    failing = false;
    expect(await throttleFor("a")).toEqual(THROTTLE_TIERS.standard);
  });
});
