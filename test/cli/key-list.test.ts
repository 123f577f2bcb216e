import { keyTable, writeKeyList } from "../../lib/cli/key-list.js";
import type { ListedKey } from "../../lib/keys/key-admin.js";
import { THROTTLE_TIERS } from "../../lib/stages.js";

const KEYS: ListedKey[] = [
  {
    keyId: "key_AAAAAAAAAAAAAAAA",
    keyHash: "a".repeat(64),
    partner: "Acme Health",
    operations: ["companies.hello", "persons.search"],
    companies: ["acme", "beta", "gamma", "delta", "eps"],
    throttle: THROTTLE_TIERS.standard,
    tier: "standard",
    usageKey: "key_AAAAAAAAAAAAAAAA",
    status: "active",
    createdAt: "2026-03-04T05:06:07.089Z",
  },
  {
    keyId: "key_BBBBBBBBBBBBBBBB",
    keyHash: "b".repeat(64),
    partner: "Ev\x1b[31mil\u202e",
    operations: ["companies.hello"],
    companies: ["acme"],
    throttle: { rateLimit: 1, burstLimit: 2, dailyQuota: 300 },
    usageKey: "key_BBBBBBBBBBBBBBBB",
    status: "revoked",
  },
];

function output(isTTY: boolean) {
  const written: string[] = [];
  return { stream: { isTTY, write: (text: string) => written.push(text) }, text: () => written.join("") };
}

describe("keyTable", () => {
  it("has a header and a row a key, in aligned columns, with names escaped", () => {
    expect(keyTable(KEYS)).toEqual([
      "KEY ID                PARTNER               STATUS   TIER                        CREATED                   OPERATIONS                      COMPANIES",
      "key_AAAAAAAAAAAAAAAA  Acme Health           active   standard                    2026-03-04T05:06:07.089Z  companies.hello,persons.search  acme,beta,gamma +2 more",
      "key_BBBBBBBBBBBBBBBB  Ev\\u001b[31mil\\u202e  revoked  custom 1/s burst 2 300/day  -                         companies.hello                 acme",
    ]);
  });

  it("shows the first 100 characters of a longer name, stored before names were bounded", () => {
    const [, row] = keyTable([{ ...(KEYS[0] as ListedKey), partner: "a".repeat(20_000) }]);
    expect(row).toContain(` ${"a".repeat(100)}…  active`);
  });
});

describe("writeKeyList", () => {
  it("prints the table on a terminal", () => {
    const { stream, text } = output(true);
    writeKeyList(KEYS, stream);
    expect(text()).toBe(`${keyTable(KEYS).join("\n")}\n`);
  });

  it("prints JSON lines when piped, or given json on a terminal: every field but the hash and usage key", () => {
    for (const [isTTY, json] of [
      [false, false],
      [true, true],
    ] as const) {
      const { stream, text } = output(isTTY);
      writeKeyList(KEYS, stream, { json });
      const lines = text().trimEnd().split("\n");
      expect(lines.map((line) => JSON.parse(line))).toEqual(
        KEYS.map(({ keyHash: _hash, usageKey: _usageKey, ...visible }) => visible),
      );
      expect(lines[1]).toContain("Ev\\u001b[31mil\\u202e");
      expect(text().replaceAll("\n", "")).not.toMatch(/\p{Cc}|\u202e/u);
    }
  });

  it("says there are no keys on a terminal, and prints nothing when piped", () => {
    const tty = output(true);
    writeKeyList([], tty.stream);
    expect(tty.text()).toBe("no keys (keys create issues one)\n");
    const piped = output(false);
    writeKeyList([], piped.stream);
    expect(piped.text()).toBe("");
  });
});
