import { crc32 } from "node:zlib";
import fc from "fast-check";
import { generateApiKey } from "../../lib/keys/api-key.js";
import { callerText, loggedString, MAX_CALLER_TEXT_CHARS } from "../../lib/observability/caller-text.js";

const KEY = generateApiKey("live");

describe("callerText", () => {
  it("leaves short text without a key as it is", () => {
    expect(callerText("acme-home-care")).toBe("acme-home-care");
    expect(callerText("")).toBe("");
    const exact = "x".repeat(MAX_CALLER_TEXT_CHARS);
    expect(callerText(exact)).toBe(exact);
  });

  it("redacts every key, wherever it sits", () => {
    expect(callerText(KEY)).toBe("pd_…[redacted]");
    expect(callerText(`company ${KEY}/x${generateApiKey("test")}`)).toBe(
      "company pd_…[redacted]/xpd_…[redacted]",
    );
  });

  it("cuts long text to the bound and says how long it was", () => {
    const text = "-".repeat(MAX_CALLER_TEXT_CHARS + 1);
    expect(callerText(text)).toBe(
      `${"-".repeat(MAX_CALLER_TEXT_CHARS)}…[cut: ${text.length} characters in all]`,
    );
    // A cut inside a base62 run also drops the 37 characters a split key could have before it.
    expect(callerText("y".repeat(MAX_CALLER_TEXT_CHARS + 1))).toBe(
      `${"y".repeat(MAX_CALLER_TEXT_CHARS - 37)}…[cut: ${MAX_CALLER_TEXT_CHARS + 1} characters in all]`,
    );
  });

  it("keeps 1 MiB of caller text to a short line", () => {
    expect(callerText("z".repeat(1_048_576)).length).toBeLessThan(MAX_CALLER_TEXT_CHARS + 40);
  });

  it.each([
    ["the cut inside the key's body", MAX_CALLER_TEXT_CHARS - 20],
    ["the cut right after the prefix", MAX_CALLER_TEXT_CHARS - 8],
    ["the cut inside the prefix", MAX_CALLER_TEXT_CHARS - 4],
    ["the key just before the cut", MAX_CALLER_TEXT_CHARS - KEY.length],
  ])("never leaves part of a key body readable, with %s", (_, at) => {
    const text = `${"a".repeat(at)}${KEY}${"b".repeat(500)}`;
    const shown = callerText(text);
    for (let start = 8; start + 6 <= 40; start++) expect(shown).not.toContain(KEY.slice(start, start + 6));
    expect(shown).toContain("…[cut:");
  });

  it.each([
    ["a bidi override", "\u202e", "\\u202e"],
    ["bidi isolates", "\u2066\u2067\u2068\u2069", "\\u2066\\u2067\\u2068\\u2069"],
    [
      "bidi embeddings and marks",
      "\u202a\u202b\u202c\u202d\u200e\u200f\u061c",
      "\\u202a\\u202b\\u202c\\u202d\\u200e\\u200f\\u061c",
    ],
    ["C0 controls", "\u0000\t\n\r\u001b", "\\u0000\\u0009\\u000a\\u000d\\u001b"],
    ["DEL and C1 controls", "\u007f\u0085\u009b", "\\u007f\\u0085\\u009b"],
    ["line and paragraph separators", "\u2028\u2029", "\\u2028\\u2029"],
    ["zero-width characters", "\u200b\u200d\ufeff", "\\u200b\\u200d\\ufeff"],
    ["lone surrogates", "\ud800x\udc00", "\\ud800x\\udc00"],
  ])("escapes %s as \\uXXXX", (_, raw, shown) => {
    expect(callerText(`a${raw}b`)).toBe(`a${shown}b`);
  });

  it("leaves printable text of any script, emoji included, as it is", () => {
    const text = "Zoë Åström 山田 محمد 😀 — “quoted” \\u202e";
    expect(callerText(text)).toBe(text);
  });

  it("escapes after the cut, so the marker still gives the length as sent", () => {
    const text = "\u202e".repeat(MAX_CALLER_TEXT_CHARS + 1);
    expect(callerText(text)).toBe(
      `${"\\u202e".repeat(MAX_CALLER_TEXT_CHARS)}…[cut: ${text.length} characters in all]`,
    );
  });

  it("never ends on half a surrogate pair", () => {
    const text = `${"a".repeat(MAX_CALLER_TEXT_CHARS - 1)}😀${"a".repeat(10)}`;
    const shown = callerText(text);
    expect(shown.startsWith(`${"a".repeat(MAX_CALLER_TEXT_CHARS - 1)}…`)).toBe(true);
    expect(shown.isWellFormed()).toBe(true);
  });
});

describe("loggedString: every string of a log line", () => {
  it("escapes what JSON would write raw, without cutting", () => {
    const long = "s".repeat(10_000);
    expect(loggedString(`${long} \u202e\u2066\u2028\u0085\u200b`)).toBe(
      `${long} \\u202e\\u2066\\u2028\\u0085\\u200b`,
    );
  });

  it("leaves to JSON the controls it escapes itself, so a stack keeps its lines", () => {
    const stack = "Error: x\n    at f (file.ts:1:2)\t";
    expect(loggedString(stack)).toBe(stack);
    expect(JSON.stringify(loggedString(stack))).not.toMatch(/[\n\t]/);
  });

  it("is the same again on callerText's output", () => {
    const shown = callerText(`${KEY} \u202e\n${"x".repeat(300)}`);
    expect(loggedString(shown)).toBe(shown);
  });
});

/** A key's body and check, computed here from the format (docs/decisions.md), not by the module. */
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
function checkOf(prefix: string): string {
  let rest = crc32(Buffer.from(prefix, "ascii"));
  let out = "";
  do {
    out = BASE62.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(6, "0");
}
const base62 = fc.constantFrom(...BASE62);
/** The 38 characters after a key's prefix: its body and its valid check. */
const keyRest = fc
  .tuple(fc.constantFrom("live", "test"), fc.string({ unit: base62, minLength: 32, maxLength: 32 }))
  .map(([environment, body]) => `${body}${checkOf(`pd_${environment}_${body}`)}`);
/** What may stand before the key's body: the prefix as issued, altered, or none. */
const disguise = fc.constantFrom(
  "pd_live_",
  "pd_test_",
  "PD_TEST_",
  "pd-test-",
  "PD-LIVE-",
  "Pd_LiVe_",
  "",
  "pd_",
  "test_",
);
/** Any text around it, base62 runs included (a key glued to other characters). */
const around = fc.oneof(fc.string({ unit: base62, maxLength: 260 }), fc.string({ maxLength: 260 }));

describe("callerText: key text in any disguise", () => {
  it("leaves no 8 characters of a key's body and check readable, whatever surrounds it or where it is cut", () => {
    fc.assert(
      fc.property(around, disguise, keyRest, around, (before, prefix, rest, after) => {
        const text = `${before}${prefix}${rest}${after}`;
        const shown = callerText(text);
        for (let start = 0; start + 8 <= rest.length; start++) {
          const piece = rest.slice(start, start + 8);
          if (!before.includes(piece) && !after.includes(piece)) expect(shown).not.toContain(piece);
        }
      }),
    );
  });

  it("redacts the bare 38 characters and altered prefixes, and keeps text around them", () => {
    fc.assert(
      fc.property(keyRest, (rest) => {
        expect(callerText(`company ${rest} x`)).toBe("company …[redacted] x");
        expect(callerText(`PD_TEST_${rest}`)).toBe("PD_TEST_…[redacted]");
        expect(callerText(`pd-live-${rest}`)).toBe("pd-live-…[redacted]");
      }),
    );
  });

  it("keeps a base62 run whose last characters are not a valid check", () => {
    const run = `${"a".repeat(32)}000000`;
    expect(callerText(run)).toBe(run);
  });
});
