import fc from "fast-check";
import {
  AUTHORIZATION_HEADER_PATTERN,
  bearerToken,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from "../../lib/keys/api-key.js";
import {
  ALPHABET,
  base62,
  checkOf,
  crc32,
  type Env,
  referenceAccepts,
  referenceKey,
} from "./reference-key.js";

const KEY_SHAPE = /^pd_(live|test)_[0-9A-Za-z]{38}$/;
const bodyArbitrary = fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 32, maxLength: 32 });
const envArbitrary = fc.constantFrom<Env>("live", "test");
const body = (char: string) => char.repeat(32);

/** Every text that differs from `key` in exactly one character, taken from `replacements`. */
function* singleCharacterChanges(key: string, replacements: readonly string[]) {
  for (let position = 0; position < key.length; position++) {
    for (const replacement of replacements) {
      if (replacement === key.charAt(position)) continue;
      yield { position, changed: key.slice(0, position) + replacement + key.slice(position + 1) };
    }
  }
}

describe("the independent reference implementation", () => {
  // Standard check values: if these hold, the reference is the CRC32 and base62 the rule names.
  it("computes the standard CRC32 check values", () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(crc32("")).toBe(0);
    expect(crc32("The quick brown fox jumps over the lazy dog")).toBe(0x414fa339);
  });

  it("writes base62 with 0-9A-Za-z", () => {
    expect(base62(0)).toBe("0");
    expect(base62(61)).toBe("z");
    expect(base62(62)).toBe("10");
    expect(base62(0xffffffff)).toBe("4gfFC3");
  });
});

describe("isWellFormedApiKey against the independent implementation", () => {
  it("accepts every key the reference builds", () => {
    fc.assert(
      fc.property(envArbitrary, bodyArbitrary, (env, text) => isWellFormedApiKey(referenceKey(env, text))),
      { numRuns: 2_000 },
    );
  });

  it("accepts keys whose check needs padding, and edge bodies", () => {
    let padded = 0;
    for (const char of ALPHABET) {
      for (const env of ["live", "test"] as const) {
        const key = referenceKey(env, body(char));
        expect(isWellFormedApiKey(key)).toBe(true);
        if (key.slice(-6).startsWith("0")) padded += 1;
      }
    }
    // CRC values below 62^5 need a leading 0 (about one in five): some of 124 keys must have one.
    expect(padded).toBeGreaterThan(0);
  });

  it("refuses a reference body with a check that is not its CRC32", () => {
    fc.assert(
      fc.property(
        envArbitrary,
        bodyArbitrary,
        fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 6, maxLength: 6 }),
        (env, text, check) => {
          fc.pre(check !== checkOf(env, text));
          return !isWellFormedApiKey(`pd_${env}_${text}${check}`);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe("generateApiKey", () => {
  it("makes keys of the documented shape that the reference accepts", () => {
    for (let index = 0; index < 500; index++) {
      const env: Env = index % 2 === 0 ? "live" : "test";
      const key = generateApiKey(env);
      expect(key).toMatch(KEY_SHAPE);
      expect(key.startsWith(`pd_${env}_`)).toBe(true);
      expect(referenceAccepts(key)).toBe(true);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it("refuses a generated key with any single character changed, at every position", () => {
    const replacements = [...ALPHABET, "_", "-", " "];
    for (let round = 0; round < 4; round++) {
      const key = generateApiKey(round % 2 === 0 ? "live" : "test");
      for (const { position, changed } of singleCharacterChanges(key, replacements)) {
        if (isWellFormedApiKey(changed)) throw new Error(`accepted ${key} changed at ${position}`);
      }
    }
  });

  it("uses the whole alphabet, evenly, over many bodies (a bound no fair generator misses)", () => {
    const keys = Array.from({ length: 5_000 }, (_, index) => generateApiKey(index % 2 ? "live" : "test"));
    expect(new Set(keys).size).toBe(keys.length);
    const counts = new Map<string, number>();
    for (const key of keys)
      for (const char of key.slice(8, 40)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect([...counts.keys()].sort().join("")).toBe([...ALPHABET].sort().join(""));
    // 160,000 characters: 2,580 expected per character, standard deviation about 50. ±15% is over
    // 7 standard deviations, yet catches the 21% excess a plain `byte % 62` gives the first 8.
    const expected = (keys.length * 32) / 62;
    for (const [char, count] of counts) {
      expect([char, count > expected * 0.85 && count < expected * 1.15]).toEqual([char, true]);
    }
  });
});

describe("malformed keys", () => {
  const good = referenceKey("test", "0123456789ABCDEFGHIJKLMNOPQRSTUV");
  const withBody = (env: string, text: string, check = "000000") => `pd_${env}_${text}${check}`;

  it.each([
    ["empty", ""],
    ["prefix only", "pd_test_"],
    ["env prod", good.replace("pd_test_", "pd_prod_")],
    ["env Test", good.replace("pd_test_", "pd_Test_")],
    ["prefix PD", good.replace("pd_", "PD_")],
    ["dashes instead of underscores", good.replace("pd_test_", "pd-test-")],
    ["no env", good.replace("pd_test_", "pd_")],
    ["one character short", good.slice(0, -1)],
    ["one character long", `${good}0`],
    ["31-character body, checked", referenceKey("test", "A".repeat(31))],
    ["33-character body, checked", referenceKey("test", "A".repeat(33))],
    ["5-character check", withBody("test", body("A"), checkOf("test", body("A")).slice(1))],
    ["7-character check", withBody("test", body("A"), `0${checkOf("test", body("A"))}`)],
    ["dash in the body", good.replace("0123", "01-3")],
    ["underscore in the body", good.replace("0123", "01_3")],
    ["plus in the body", good.replace("0123", "01+3")],
    ["accented letter in the body", good.replace("ABC", "AÉC")],
    ["fullwidth letter in the body", good.replace("ABC", "AＢC")],
    ["space in the body", good.replace("ABC", "A C")],
    ["leading space", ` ${good}`],
    ["trailing space", `${good} `],
    ["trailing newline", `${good}\n`],
    ["the key twice", `${good}${good}`],
  ])("refuses %s", (_, key) => {
    expect(isWellFormedApiKey(key)).toBe(false);
  });

  it("accepts the well-formed key those cases were built from", () => {
    expect(isWellFormedApiKey(good)).toBe(true);
    expect(isWellFormedApiKey(good.replace("pd_test_", "pd_live_"))).toBe(false);
    expect(isWellFormedApiKey(referenceKey("live", "0123456789ABCDEFGHIJKLMNOPQRSTUV"))).toBe(true);
  });
});

describe("hashApiKey", () => {
  it("is the SHA-256 of the text, in lower-case hex", () => {
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hashApiKey("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("is deterministic and tells keys apart", () => {
    const key = generateApiKey("live");
    const other = generateApiKey("live");
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toBe(hashApiKey(other));
    expect(hashApiKey(key)).not.toContain(key.slice(8, 40));
  });
});

describe("bearerToken", () => {
  const key = generateApiKey("test");

  it.each([
    ["Bearer KEY", key],
    ["bearer KEY", key],
    ["BEARER KEY", key],
    ["bEaReR KEY", key],
    ["Bearer    KEY", key],
    ["Bearer KEY   ", key],
  ])("reads the key from %j", (header, expected) => {
    expect(bearerToken(header.replace("KEY", key))).toBe(expected);
  });

  it.each([
    ["no header", undefined],
    ["empty", ""],
    ["the scheme alone", "Bearer"],
    ["the scheme and a space", "Bearer "],
    ["the scheme and spaces", "Bearer    "],
    ["no space after the scheme", `Bearer${key}`],
    ["the key alone", key],
    ["Basic", `Basic ${key}`],
    ["Token", `Token ${key}`],
    ["ApiKey", `ApiKey ${key}`],
    ["two tokens", `Bearer ${key} ${key}`],
    ["the scheme twice", `Bearer Bearer ${key}`],
  ])("finds no key in %s", (_, header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});

describe("AUTHORIZATION_HEADER_PATTERN (the authorizer's identityValidationExpression)", () => {
  const pattern = new RegExp(AUTHORIZATION_HEADER_PATTERN);
  /** What the authorizer can accept: a header holding a well-formed key. */
  const couldBeAccepted = (header: string) => {
    const token = bearerToken(header);
    return token !== undefined && isWellFormedApiKey(token);
  };
  const schemeArbitrary = fc
    .tuple(fc.constantFrom("Bearer", "bearer", "BEARER", "bEaReR"), fc.integer({ min: 1, max: 4 }))
    .map(([scheme, spaces]) => `${scheme}${" ".repeat(spaces)}`);

  it("matches every header carrying a key the generator or the reference builds", () => {
    fc.assert(
      fc.property(
        schemeArbitrary,
        envArbitrary,
        bodyArbitrary,
        fc.integer({ min: 0, max: 3 }),
        (scheme, env, keyBody, trailing) => {
          for (const key of [generateApiKey(env), referenceKey(env, keyBody)]) {
            const header = `${scheme}${key}${" ".repeat(trailing)}`;
            expect(couldBeAccepted(header)).toBe(true);
            expect(pattern.test(header)).toBe(true);
          }
        },
      ),
    );
  });

  it("never turns away a header the authorizer could accept, whatever the text", () => {
    const key = generateApiKey("live");
    // Texts near a valid header (edited at random) and arbitrary ones.
    const nearValid = fc
      .tuple(
        fc.nat({ max: 60 }),
        fc.nat({ max: 3 }),
        fc.string({ maxLength: 3, unit: fc.constantFrom(" ", "\t", "_", "-", "A", "z", "0", "é", "\n") }),
      )
      .map(([at, cut, insert]) => {
        const header = `Bearer ${key}`;
        return header.slice(0, at) + insert + header.slice(at + cut);
      });
    fc.assert(
      fc.property(fc.oneof(nearValid, fc.string({ maxLength: 60 })), (header) => {
        if (couldBeAccepted(header)) expect(pattern.test(header)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ["empty", ""],
    ["the key alone, no scheme", generateApiKey("live")],
    ["the scheme alone", "Bearer "],
    ["no space after the scheme", `Bearer${generateApiKey("live")}`],
    ["Basic", `Basic ${generateApiKey("live")}`],
    ["a JWT", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"],
    ["another environment", `Bearer ${generateApiKey("live").replace("pd_live_", "pd_prod_")}`],
    ["one character short", `Bearer ${generateApiKey("test").slice(0, -1)}`],
    ["one character long", `Bearer ${generateApiKey("test")}0`],
    ["a dash in the key", `Bearer ${generateApiKey("test").replace(/^(pd_test_..)./, "$1-")}`],
    ["two keys", `Bearer ${generateApiKey("test")} ${generateApiKey("test")}`],
    ["a newline after the key", `Bearer ${generateApiKey("test")}\n`],
    ["a leading space", ` Bearer ${generateApiKey("test")}`],
  ])("does not match %s", (_, header) => {
    expect(pattern.test(header)).toBe(false);
    expect(couldBeAccepted(header)).toBe(false);
  });

  it("uses only constructs Java's regex reads the same way (API Gateway evaluates it)", () => {
    // No flags, lookarounds, named groups, Unicode escapes or shorthand classes whose meaning differs.
    expect(AUTHORIZATION_HEADER_PATTERN).toMatch(/^\^.*\$$/);
    expect(AUTHORIZATION_HEADER_PATTERN).not.toMatch(/\(\?[^:]|\\[a-zA-Z]|\\u|\\p/);
  });
});
