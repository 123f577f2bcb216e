import { generateApiKey } from "../../lib/keys/api-key.js";
import { issueKey, type KeyTarget } from "../../lib/keys/key-admin.js";
import {
  MAX_PARTNER_NAME_CHARS,
  PartnerNameError,
  partnerNameProblem,
  requirePartnerName,
} from "../../lib/keys/partner-name.js";
import { THROTTLE_TIERS } from "../../lib/stages.js";

describe("partnerNameProblem", () => {
  it("accepts 1 to 100 printable characters, of any script, counted in code points", () => {
    for (const name of ["A", "Acme Health", "Zoë & Co. (prod)", "李小龍 Ltd", "a\u00a0b", "😀".repeat(100)])
      expect(partnerNameProblem(name)).toBeUndefined();
    expect(partnerNameProblem("a".repeat(MAX_PARTNER_NAME_CHARS))).toBeUndefined();
  });

  it("refuses an empty or too long name, saying how long it is", () => {
    expect(partnerNameProblem("")).toBe("is empty");
    expect(partnerNameProblem("a".repeat(101))).toBe("is 101 characters long");
    expect(partnerNameProblem("a".repeat(20_000))).toBe("is 20000 characters long");
  });

  it("refuses controls, bidirectional and other format characters, separators and lone surrogates, naming the code point", () => {
    const refused: [string, string][] = [
      ["Acme\x1bX", "U+001B"],
      ["Acme\rX", "U+000D"],
      ["Acme\x07X", "U+0007"],
      ["Acme\nX", "U+000A"],
      ["Acme\tX", "U+0009"],
      ["Acme\x7fX", "U+007F"],
      ["Acme\x85X", "U+0085"],
      ["Acme\u202eX", "U+202E"],
      ["Acme\u2066X", "U+2066"],
      ["Acme\u200fX", "U+200F"],
      ["Acme\u200bX", "U+200B"],
      ["Acme\u2028X", "U+2028"],
      ["Acme\u2029X", "U+2029"],
      ["Acme\ud800X", "U+D800"],
      ["Acme\u{e0041}X", "U+E0041"],
    ];
    for (const [name, code] of refused)
      expect(partnerNameProblem(name)).toBe(`holds ${code}, which is not printable, at character 5`);
  });

  it("refuses leading or trailing white space", () => {
    for (const name of [" Acme", "Acme ", "Acme\u00a0", "\u3000Acme"])
      expect(partnerNameProblem(name)).toBe("starts or ends with white space");
  });

  it("refuses key text: a key's prefix, or a key in any disguise", () => {
    const key = generateApiKey("test");
    expect(partnerNameProblem("Acme prod key pd_test_…")).toBe("holds text shaped like an API key");
    expect(partnerNameProblem(`Acme ${key}`)).toBe("holds text shaped like an API key");
    expect(partnerNameProblem(`Acme ${key.slice("pd_test_".length)}`)).toBe(
      "holds text shaped like an API key",
    );
    expect(partnerNameProblem("Acme pd-prod team")).toBeUndefined();
  });
});

describe("requirePartnerName and issueKey", () => {
  const target: KeyTarget = {
    create: async () => {
      throw new Error("nothing may be created");
    },
    list: async () => [],
    revoke: async () => undefined,
    setTier: async () => undefined,
    setCompanies: async () => undefined,
  };

  it("refuse with the problem and the rule, never quoting the name", async () => {
    const hostile = "Acme\u202eevil\x1b[31m";
    expect(() => requirePartnerName(hostile)).toThrow(PartnerNameError);
    expect(() => requirePartnerName(hostile)).toThrow(
      /^the partner name holds U\+202E, which is not printable, at character 5: a partner name is 1 to 100 printable characters/,
    );
    const request = {
      partner: hostile,
      operations: ["companies.hello" as const],
      companies: ["acme"],
      throttle: THROTTLE_TIERS.standard,
      environment: "test" as const,
    };
    const refused = issueKey(request, target);
    await expect(refused).rejects.toThrow(PartnerNameError);
    await expect(refused).rejects.not.toThrow(/evil/);
  });
});
