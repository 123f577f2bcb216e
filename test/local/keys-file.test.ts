import { createHash } from "node:crypto";
import { generateApiKey } from "../../lib/keys/api-key.js";
import { keyRecordSchema } from "../../lib/keys/key-record.js";
import { KeysFileError, parseKeysFile } from "../../lib/local/keys-file.js";

const KEYS = [generateApiKey("test"), generateApiKey("live"), generateApiKey("test")] as const;
const entry = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  partner: "Acme Payroll",
  operations: ["companies.hello", "persons.search"],
  companies: ["acme", "beta"],
  ...extra,
});
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const CREATED = new Date("2026-05-01T08:00:00.000Z");
/** Pieces of a key a message must not contain: the whole key, its body, and the body's halves. */
const fragments = (key: string) => [key, key.slice(8, 40), key.slice(8, 24), key.slice(24, 40)];

function failure(file: unknown, source = "keys.json"): string {
  try {
    parseKeysFile(typeof file === "string" ? file : JSON.stringify(file), source, CREATED);
  } catch (error) {
    expect(error).toBeInstanceOf(KeysFileError);
    return (error as Error).message;
  }
  throw new Error("the keys file was accepted");
}

describe("parseKeysFile with a valid file", () => {
  const file = {
    keys: [
      entry(KEYS[0]),
      entry(KEYS[1], { throttle: { rateLimit: 1, burstLimit: 1 }, partner: "Slow" }),
      entry(KEYS[2], { status: "revoked", throttle: { rateLimit: 2, burstLimit: 5, dailyQuota: 100 } }),
    ],
  };
  const { records } = parseKeysFile(JSON.stringify(file), "keys.json", CREATED);

  it("gives one valid key record per entry, hashed with SHA-256", () => {
    expect(records).toHaveLength(3);
    records.forEach((record, index) => {
      expect(keyRecordSchema.safeParse(record).success).toBe(true);
      expect(record.keyHash).toBe(sha256(KEYS[index] ?? ""));
      expect(record.keyId).toMatch(/^key_[0-9A-Za-z]{16}$/);
      expect(record.usageKey).toBe(record.keyId);
      expect(record.createdAt).toBe("2026-05-01T08:00:00.000Z");
    });
    expect(new Set(records.map((record) => record.keyId)).size).toBe(3);
  });

  it("keeps no plain key anywhere in the records", () => {
    const text = JSON.stringify(records);
    for (const key of KEYS) for (const piece of fragments(key)) expect(text).not.toContain(piece);
  });

  it("copies partner, operations, companies, status and throttle; defaults to the standard tier", () => {
    expect(records[0]).toMatchObject({
      partner: "Acme Payroll",
      operations: ["companies.hello", "persons.search"],
      companies: ["acme", "beta"],
      status: "active",
      throttle: { rateLimit: 10, burstLimit: 20 },
      tier: "standard",
    });
    expect(records[1]).toMatchObject({ partner: "Slow", throttle: { rateLimit: 1, burstLimit: 1 } });
    expect(records[1]?.tier).toBeUndefined();
    expect(records[2]).toMatchObject({
      status: "revoked",
      throttle: { rateLimit: 2, burstLimit: 5, dailyQuota: 100 },
    });
  });

  it("takes the creation time and the tier an entry states", () => {
    const { records: stated } = parseKeysFile(
      JSON.stringify({ keys: [entry(KEYS[0], { tier: "trial", createdAt: "2025-12-24T10:30:00.000Z" })] }),
      "keys.json",
      CREATED,
    );
    expect(stated[0]).toMatchObject({
      tier: "trial",
      throttle: { rateLimit: 2, burstLimit: 5, dailyQuota: 10_000 },
      createdAt: "2025-12-24T10:30:00.000Z",
    });
  });

  it("derives the same key id from the same key on every load", () => {
    const again = parseKeysFile(JSON.stringify({ keys: [entry(KEYS[1])] }), "other.json");
    expect(again.records[0]?.keyId).toBe(records[1]?.keyId);
  });

  it("accepts an empty list", () => {
    expect(parseKeysFile('{"keys":[]}', "empty.json").records).toEqual([]);
  });
});

describe("parseKeysFile refuses a bad file, naming the entry and field", () => {
  const [key, second] = KEYS;
  const badChecksum = `${key.slice(0, -1)}${key.endsWith("0") ? "1" : "0"}`;

  it("never prints a key with a bad checksum", () => {
    const message = failure({ keys: [entry(second), entry(badChecksum)] });
    expect(message).toContain("keys[1].key");
    expect(message).toContain("keys.json");
    for (const piece of [...fragments(badChecksum), ...fragments(second)])
      expect(message).not.toContain(piece);
  });

  it.each([
    [
      "a key with a typo in its body",
      () => ({ keys: [entry(`${key.slice(0, 20)}${key[20] === "a" ? "b" : "a"}${key.slice(21)}`)] }),
      "keys[0].key",
    ],
    ["a truncated key", () => ({ keys: [entry(key.slice(0, -1))] }), "keys[0].key"],
    [
      "a key of another environment",
      () => ({ keys: [entry(key.replace("pd_test_", "pd_prod_"))] }),
      "keys[0].key",
    ],
    ["no key", () => ({ keys: [entry(key), { ...entry(second), key: undefined }] }), "keys[1].key"],
    ["an empty partner", () => ({ keys: [entry(key, { partner: "" })] }), "keys[0].partner"],
    [
      "an unknown operation",
      () => ({ keys: [entry(key, { operations: ["companies.hello", "delete"] })] }),
      "keys[0].operations[1]",
    ],
    ["an empty company id", () => ({ keys: [entry(key, { companies: [""] })] }), "keys[0].companies[0]"],
    ["no companies", () => ({ keys: [entry(key, { companies: undefined })] }), "keys[0].companies"],
    [
      "a zero rate",
      () => ({ keys: [entry(key, { throttle: { rateLimit: 0, burstLimit: 1 } })] }),
      "keys[0].throttle.rateLimit",
    ],
    [
      "a fractional burst",
      () => ({ keys: [entry(key, { throttle: { rateLimit: 1, burstLimit: 1.5 } })] }),
      "keys[0].throttle.burstLimit",
    ],
    ["an unknown status", () => ({ keys: [entry(key, { status: "paused" })] }), "keys[0].status"],
    ["an unknown tier", () => ({ keys: [entry(key, { tier: "gold" })] }), "keys[0].tier"],
    [
      "a tier and a throttle",
      () => ({ keys: [entry(key, { tier: "trial", throttle: { rateLimit: 1, burstLimit: 1 } })] }),
      "keys[0].tier: give tier or throttle, not both",
    ],
    [
      "a creation time that is no time",
      () => ({ keys: [entry(key, { createdAt: "yesterday" })] }),
      "keys[0].createdAt",
    ],
    [
      "an unknown field",
      () => ({ keys: [entry(key, { expires: "never" })] }),
      'unknown field "keys[0].expires"',
    ],
  ])("%s", (_, file, named) => {
    const message = failure(file());
    expect(message).toContain(named);
    for (const piece of fragments(key)) expect(message).not.toContain(piece);
  });

  it("refuses the same key twice, naming the second", () => {
    const message = failure({ keys: [entry(key), entry(second), entry(key, { partner: "Copy" })] });
    expect(message).toBe("keys file keys.json: keys[2].key: the same key appears twice");
  });

  it("refuses text that is not JSON without echoing it", () => {
    const message = failure(`{"keys":[{"key":"${key}"`);
    expect(message).toBe("keys file keys.json: not valid JSON");
  });

  it("refuses a file without a keys list", () => {
    expect(failure({})).toContain("keys");
    expect(failure({ keys: "none" })).toContain("keys");
  });
});
