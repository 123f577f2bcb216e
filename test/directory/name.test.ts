import fc from "fast-check";
import { normalizeName } from "../../lib/directory/name.js";
import { employmentFilter, namesMatch } from "../../lib/search/matching.js";

/**
 * The stores' matcher on one name: the stored name normalized as stores keep it (`namesOf`), the
 * query as a search's filter (`employmentFilter`).
 */
function nameMatches(stored: string | null, query: string): boolean {
  const names = { firstName: stored === null ? null : normalizeName(stored), lastName: null };
  return namesMatch(names, employmentFilter([], { firstName: query }));
}

describe("normalizeName", () => {
  it.each([
    ["Zoë", "zoë"],
    ["ZOË", "zoë"],
    ["Zoe\u0308", "zoë"], // combining diaeresis composes
    ["Soﬁa", "sofia"], // ﬁ ligature
    ["Griﬃn", "griffin"], // ﬃ ligature
    ["Ｓａｒａ", "sara"], // full-width letters
    ["Weiß", "weiß"], // ß is already lower case; not folded to ss
    ["ᴬnn", "ann"], // NFKC makes a capital, lower-casing comes after
    ["Ⅻ", "xii"], // roman numeral compatibility character
  ])("%j → %j", (input, expected) => {
    expect(normalizeName(input)).toBe(expected);
  });
});

describe("name matching (namesMatch)", () => {
  it.each([
    ["Zoë", "zo", true],
    ["Zoë", "ZOË", true],
    ["Zoë", "oë", true],
    ["Zoë", "zoe", false], // accents are not stripped
    ["Soﬁa", "sofi", true],
    ["Sofia", "soﬁ", true], // the query is normalized too
    ["Ｓａｒａ", "sar", true],
    ["Sara", "ＳＡＲ", true],
    ["Weiß", "weiß", true],
    ["Weiß", "weiss", false],
    ["Mary Ann", "y a", true], // inner space matched as typed
    ["Mary Ann", "y  a", false],
    ["Mary Ann", " Mary", false], // no trimming
    ["Smith", "smith ", false],
    ["Smith", "Smyth", false],
    ["O'Brien", "o'b", true],
  ])("stored %j, query %j → %s", (stored, query, expected) => {
    expect(nameMatches(stored, query)).toBe(expected);
  });

  it("never matches a null name", () => {
    expect(nameMatches(null, "a")).toBe(false);
    expect(nameMatches(null, "")).toBe(false);
  });

  // Units whose NFKC form never merges with a neighbour, so a piece of the name is a piece of
  // its normalized form (a lone "e" must not match "é": accents are not stripped).
  const unit = fc.constantFrom("a", "Z", "é", "Ø", "ﬁ", "ﬀ", "Ｓ", "ｚ", "Ⅻ", " ", "'", "-");

  it("finds any piece of the name, typed in any case", () => {
    fc.assert(
      fc.property(fc.string({ unit }), fc.string({ unit }), fc.string({ unit }), (before, piece, after) => {
        expect(nameMatches(before + piece + after, piece)).toBe(true);
        expect(nameMatches(before + piece.toLowerCase() + after, piece.toUpperCase())).toBe(true);
        expect(nameMatches(before + piece.toUpperCase() + after, piece.toLowerCase())).toBe(true);
      }),
    );
  });

  it("normalizes idempotently", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (name) => {
        expect(normalizeName(normalizeName(name))).toBe(normalizeName(name));
      }),
      { numRuns: 2000 },
    );
  });
});
