import { generateApiKey } from "../../lib/keys/api-key.js";
import { callerText, MAX_CALLER_TEXT_CHARS } from "../../lib/observability/caller-text.js";

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
    const text = "y".repeat(MAX_CALLER_TEXT_CHARS + 1);
    expect(callerText(text)).toBe(
      `${"y".repeat(MAX_CALLER_TEXT_CHARS)}…[cut: ${text.length} characters in all]`,
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

  it("never ends on half a surrogate pair", () => {
    const text = `${"a".repeat(MAX_CALLER_TEXT_CHARS - 1)}😀${"a".repeat(10)}`;
    const shown = callerText(text);
    expect(shown.startsWith(`${"a".repeat(MAX_CALLER_TEXT_CHARS - 1)}…`)).toBe(true);
    expect(shown.isWellFormed()).toBe(true);
  });
});
