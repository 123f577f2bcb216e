import { createHash } from "node:crypto";
import {
  bearerToken,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  keyChecksum,
} from "../../lib/keys/api-key.js";

// An independent implementation of the rule in docs/decisions.md, written from the text alone:
// CRC32 (IEEE, reflected, 0xEDB88320) of `pd_<env>_<body>`, in base62 `0-9A-Za-z`, padded to 6.
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function referenceCrc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "ascii")) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function referenceBase62(value: number): string {
  let digits = "";
  let rest = BigInt(value);
  do {
    digits = ALPHABET[Number(rest % 62n)] + digits;
    rest /= 62n;
  } while (rest > 0n);
  return digits;
}
function referenceKey(env: "live" | "test", body: string): string {
  const prefix = `pd_${env}_${body}`;
  return prefix + referenceBase62(referenceCrc32(prefix)).padStart(6, "0");
}
function referenceIsValid(key: string): boolean {
  const match = /^pd_(live|test)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/.exec(key);
  return match !== null && referenceKey(match[1] as "live" | "test", match[2] ?? "") === key;
}
const randomBody = (seed: number) =>
  Array.from({ length: 32 }, (_, i) => ALPHABET[(seed * 7919 + i * 104729 + i * i * 13) % 62]).join("");

describe("partner key format", () => {
  it("accepts keys made by an independent implementation of the rule", () => {
    for (let seed = 0; seed < 200; seed++) {
      for (const env of ["live", "test"] as const)
        expect(isWellFormedApiKey(referenceKey(env, randomBody(seed)))).toBe(true);
    }
  });

  it("generates keys the independent implementation accepts", () => {
    for (let i = 0; i < 200; i++) {
      const key = generateApiKey(i % 2 ? "live" : "test");
      expect(key).toMatch(/^pd_(live|test)_[0-9A-Za-z]{38}$/);
      expect(referenceIsValid(key)).toBe(true);
    }
  });

  it("pads the check to six characters with 0", () => {
    // Small CRC values must still give six characters; find one by brute force over bodies.
    const checks = Array.from({ length: 3000 }, (_, seed) => keyChecksum(`pd_test_${randomBody(seed)}`));
    expect(checks.every((check) => check.length === 6)).toBe(true);
    expect(checks.some((check) => check.startsWith("0"))).toBe(true);
  });

  it("refuses a key with any single character changed", () => {
    const key = generateApiKey("live");
    for (let position = 0; position < key.length; position++) {
      const original = key.charAt(position);
      const replacement = original === "A" ? "B" : "A";
      expect(isWellFormedApiKey(key.slice(0, position) + replacement + key.slice(position + 1))).toBe(false);
    }
  });

  it.each([
    ["empty", ""],
    ["unknown environment", referenceKey("live", randomBody(1)).replace("pd_live_", "pd_prod_")],
    ["one character short", referenceKey("test", randomBody(2)).slice(0, -1)],
    ["one character long", `${referenceKey("test", randomBody(3))}0`],
    ["character outside base62", referenceKey("test", `${randomBody(4).slice(0, 31)}-`)],
    ["upper-case prefix", referenceKey("test", randomBody(5)).toUpperCase()],
    ["surrounding space", ` ${referenceKey("test", randomBody(6))}`],
  ])("refuses a malformed key: %s", (_, key) => {
    expect(isWellFormedApiKey(key)).toBe(false);
  });

  it("uses the whole alphabet for bodies", () => {
    const seen = new Set(Array.from({ length: 100 }, () => generateApiKey("test").slice(8, 40)).join(""));
    expect(seen.size).toBe(62);
  });

  it("stores SHA-256 hex of the whole key", () => {
    const key = generateApiKey("test");
    expect(hashApiKey(key)).toBe(createHash("sha256").update(key).digest("hex"));
    expect(hashApiKey(key)).not.toContain(key.slice(8, 40));
  });

  it.each([
    ["Bearer abc", "abc"],
    ["bearer abc", "abc"],
    ["BEARER   abc  ", "abc"],
    ["Bearer", undefined],
    ["Bearer ", undefined],
    ["Basic abc", undefined],
    ["Bearer abc def", undefined],
    ["abc", undefined],
  ])("reads the key from %j", (header, expected) => {
    expect(bearerToken(header)).toBe(expected);
  });
});
