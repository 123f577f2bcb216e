import fc from "fast-check";
import { normalizePhone } from "../../lib/directory/phone.js";

describe("normalizePhone", () => {
  it.each([
    ["2125550142", "2125550142"],
    ["212-555-0142", "2125550142"],
    ["(212) 555-0142", "2125550142"],
    ["212.555.0142", "2125550142"],
    ["212 555 0142", "2125550142"],
    [" 212 555 0142 ", "2125550142"],
    ["+1 212 555 0142", "2125550142"],
    ["+1 (212) 555-0142", "2125550142"],
    ["1-212-555-0142", "2125550142"],
    ["12125550142", "2125550142"],
    ["+12125550142", "2125550142"],
    ["1 (212) 555.0142", "2125550142"],
    ["212+555+0142", "2125550142"], // punctuation position is not checked
    ["((212)) --555-- ..0142", "2125550142"],
    ["1555012345", "1555012345"], // 10 digits starting with 1: already 10, kept as is
    ["+1 155 501 2345", "1555012345"], // 11 digits: the leading 1 is the country code
  ])("accepts %j as %s", (input, digits) => {
    expect(normalizePhone(input)).toEqual({ ok: true, digits });
  });

  it.each([
    ["", "0 digits"],
    ["555-0142", "7 digits"],
    ["212-555-014", "9 digits"],
    ["22125550142", "11 digits not starting with 1"],
    ["112125550142", "12 digits"],
    ["+44 20 7946 0958", "12 digits"],
    ["+1", "1 digit"],
    ["()-. +", "punctuation only"],
  ])("refuses %j (%s) by digit count", (input) => {
    const result = normalizePhone(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/exactly 10 digits, or 11 starting with country code 1/);
  });

  it.each([
    ["212-555-0142 ext. 12", "letters"],
    ["212-555-O142", "a letter O for zero"],
    ["212/555/0142", "slash"],
    ["212\t555\t0142", "tab"],
    ["212_555_0142", "underscore"],
    ["２１２５５５０１４２", "full-width digits"],
    ["212\u00a0555\u00a00142", "no-break space"],
    ["212–555–0142", "en dash"],
  ])("refuses %j (%s) as a bad character", (input) => {
    const result = normalizePhone(input);
    expect(result).toEqual({ ok: false, reason: "may contain only digits, spaces and - . ( ) +" });
  });

  it("never echoes the input in its reason", () => {
    const result = normalizePhone("99999 secret");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).not.toContain("9999");
  });

  it("is idempotent on what it accepts, and always yields 10 digits", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."0123456789 -.()+1") }), (input) => {
        const result = normalizePhone(input);
        if (!result.ok) return;
        expect(result.digits).toMatch(/^\d{10}$/);
        expect(normalizePhone(result.digits)).toEqual(result);
      }),
    );
  });
});
