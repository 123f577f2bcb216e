import { authorizeHeader } from "../../lib/auth/authorize.js";
import { generateApiKey, hashApiKey } from "../../lib/keys/api-key.js";
import type { KeyRecord } from "../../lib/keys/key-record.js";

const KEY = generateApiKey("live");
const RECORD: KeyRecord = {
  keyId: "key_AuthAuthAuthAuth",
  keyHash: hashApiKey(KEY),
  partner: "Acme Payroll",
  operations: ["companies.hello", "persons.search"],
  companies: ["acme"],
  throttle: { rateLimit: 10, burstLimit: 20 },
  usageKey: "usage-acme",
  status: "active",
  createdAt: "2026-01-01T00:00:00.000Z",
};

/** A keys table that counts its lookups; `answer` decides what a lookup returns. */
function fakeTable(
  answer: (hash: string) => KeyRecord | undefined = (hash) => (hash === RECORD.keyHash ? RECORD : undefined),
) {
  const lookups: string[] = [];
  return {
    lookups,
    findByHash: async (hash: string) => {
      lookups.push(hash);
      return answer(hash);
    },
  };
}

function changedAt(key: string, position: number): string {
  const char = key.charAt(position);
  return key.slice(0, position) + (char === "A" ? "B" : "A") + key.slice(position + 1);
}

describe("authorizeHeader refuses without any lookup", () => {
  it.each([
    ["no header", undefined, "missing"],
    ["an empty header", "", "missing"],
    ["Basic", `Basic ${KEY}`, "malformed"],
    ["the key without a scheme", KEY, "malformed"],
    ["Bearer alone", "Bearer", "malformed"],
    ["Bearer and spaces", "Bearer   ", "malformed"],
    ["two tokens", `Bearer ${KEY} extra`, "malformed"],
    ["a made-up token", "Bearer abc123", "malformed"],
    ["a key of another format", "Bearer sk_live_0123456789abcdefghijklmnopqrstuvwxyzABCD", "malformed"],
    ["a bad checksum", `Bearer ${changedAt(KEY, KEY.length - 1)}`, "malformed"],
    ["a body typo", `Bearer ${changedAt(KEY, 20)}`, "malformed"],
    ["a truncated key", `Bearer ${KEY.slice(0, -1)}`, "malformed"],
  ])("%s", async (_, header, reason) => {
    const table = fakeTable();
    expect(await authorizeHeader(header, table, "prod")).toEqual({ allowed: false, reason });
    expect(table.lookups).toHaveLength(0);
  });

  it("for a test key on prod, and only on prod", async () => {
    const testKey = generateApiKey("test");
    const table = fakeTable((hash) =>
      hash === hashApiKey(testKey) ? { ...RECORD, keyHash: hash } : undefined,
    );
    expect(await authorizeHeader(`Bearer ${testKey}`, table, "prod")).toEqual({
      allowed: false,
      reason: "test_key_on_prod",
    });
    expect(table.lookups).toHaveLength(0);
    for (const stage of ["local", "dev", "sandbox", undefined]) {
      expect((await authorizeHeader(`Bearer ${testKey}`, table, stage)).allowed).toBe(true);
    }
  });

  it("for every single-character typo of a valid key", async () => {
    const table = fakeTable();
    for (let position = 0; position < KEY.length; position++) {
      const outcome = await authorizeHeader(`Bearer ${changedAt(KEY, position)}`, table, "prod");
      expect(outcome.allowed).toBe(false);
    }
    expect(table.lookups).toHaveLength(0);
  });
});

describe("authorizeHeader with a well-formed key", () => {
  it.each([["Bearer"], ["bearer"], ["BEARER"]])(
    "allows an active key (scheme %s) with one lookup by its hash, returning the record",
    async (scheme) => {
      const table = fakeTable();
      expect(await authorizeHeader(`${scheme} ${KEY}`, table, "prod")).toEqual({
        allowed: true,
        record: RECORD,
      });
      expect(table.lookups).toEqual([hashApiKey(KEY)]);
    },
  );

  it("refuses an unknown key after exactly one lookup", async () => {
    const table = fakeTable();
    const unknown = generateApiKey("live");
    expect(await authorizeHeader(`Bearer ${unknown}`, table, "prod")).toEqual({
      allowed: false,
      reason: "unknown",
    });
    expect(table.lookups).toEqual([hashApiKey(unknown)]);
  });

  it("refuses a revoked key, naming it by id and never by the key", async () => {
    const table = fakeTable(() => ({ ...RECORD, status: "revoked", revokedAt: "2026-02-01T00:00:00.000Z" }));
    const outcome = await authorizeHeader(`Bearer ${KEY}`, table, "prod");
    expect(outcome).toEqual({ allowed: false, reason: "revoked", keyId: RECORD.keyId });
    expect(JSON.stringify(outcome)).not.toContain(KEY.slice(8, 40));
    expect(table.lookups).toHaveLength(1);
  });

  it("refuses a pending key (a deployed stage's create that has not finished)", async () => {
    const table = fakeTable(() => ({ ...RECORD, status: "pending" }));
    expect(await authorizeHeader(`Bearer ${KEY}`, table, "prod")).toEqual({
      allowed: false,
      reason: "revoked",
      keyId: RECORD.keyId,
    });
  });

  it("refuses a record whose stored hash is not the key's (a lookup that answered the wrong record)", async () => {
    const table = fakeTable(() => ({ ...RECORD, keyHash: hashApiKey(generateApiKey("live")) }));
    expect(await authorizeHeader(`Bearer ${KEY}`, table, "prod")).toEqual({
      allowed: false,
      reason: "unknown",
    });
  });

  it("lets a failing keys table fail the call, never allowing it", async () => {
    const failing = {
      findByHash: async () => {
        throw new Error("ProvisionedThroughputExceededException");
      },
    };
    await expect(authorizeHeader(`Bearer ${KEY}`, failing, "prod")).rejects.toThrow(
      "ProvisionedThroughputExceededException",
    );
  });
});
