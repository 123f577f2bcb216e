/**
 * Name postings, the pure part: the grams (1 to 3 code points) a name is posted under (of the
 * normalized name), the grams a filter may be answered from, the posting keys, and the census that
 * picks the rarest.
 */
import { normalizeName, trigramsOf } from "../../../../lib/directory/name.js";
import { employmentFilter, namesMatch } from "../../../../lib/search/matching.js";
import { orderKey } from "../../../../lib/store/binary-keys.js";
import { compareBytes } from "../../../../lib/store/bytes.js";
import { decompressParts, encodeNamePairs } from "../../../../lib/store/dynamo/model/codec.js";
import {
  companyPartition,
  genOf,
  isPostingSort,
  postingOfSort,
  postingRange,
  postingSort,
} from "../../../../lib/store/dynamo/model/layout.js";
import {
  filterGrams,
  type Gram,
  GramCensus,
  gramsOfPair,
  gramsOfPairs,
  postingItems,
  postingKey,
} from "../../../../lib/store/dynamo/structures/name-grams.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";

const ORDER = orderKey("2024-02-29T12:34:56.123456789Z", "f0e1d2c3-b4a5-4968-8776-655443322110");
const LATER = orderKey("2024-03-01T00:00:00.000000000Z", "00e1d2c3-b4a5-4968-8776-655443322110");
const first = (text: string): Gram => ({ field: "firstName", text });
const last = (text: string): Gram => ({ field: "lastName", text });
const pair = (firstName: string | null, lastName: string | null) => ({
  firstName: firstName === null ? null : normalizeName(firstName),
  lastName: lastName === null ? null : normalizeName(lastName),
});

describe("the trigrams of a normalized name", () => {
  it("are its distinct runs of 3 code points, in order", () => {
    expect(trigramsOf("garcía")).toEqual(["gar", "arc", "rcí", "cía"]);
    expect(trigramsOf("aaaa")).toEqual(["aaa"]);
    expect(trigramsOf("ab")).toEqual([]);
    // A character beyond the BMP is one code point (two UTF-16 units).
    expect(trigramsOf("😀ab😀")).toEqual(["😀ab", "ab😀"]);
  });

  it("are taken after NFKC and lower-casing, so every spelling of a name is posted alike", () => {
    const zoe = [first("zoë"), first("zo"), first("oë"), first("z"), first("o"), first("ë")];
    for (const spelling of ["ZOË", "Zoe\u0308", "ｚｏë", "zoë"])
      expect(gramsOfPair(pair(spelling, null))).toEqual(zoe);
    // The ligature is two letters once normalized.
    expect(gramsOfPair(pair("ﬁ", null))).toEqual([first("fi"), first("f"), first("i")]);
  });

  it("are its trigrams, then its bigrams, then its code points, per name, each once", () => {
    expect(gramsOfPairs([pair("Zoë", "Li")])).toEqual([
      first("zoë"),
      first("zo"),
      first("oë"),
      first("z"),
      first("o"),
      first("ë"),
      last("li"),
      last("l"),
      last("i"),
    ]);
    expect(gramsOfPair(pair("Anna", null)).map((gram) => gram.text)).toEqual([
      "ann",
      "nna",
      "an",
      "nn",
      "na",
      "a",
      "n",
    ]);
    expect(gramsOfPair(pair(null, "😀"))).toEqual([last("😀")]);
    expect(gramsOfPair(pair(null, null))).toEqual([]);
  });
});

describe("the grams a filter may be answered from", () => {
  const grams = (filters: { firstName?: string; lastName?: string }) =>
    filterGrams(employmentFilter(["acme"], filters));

  it("are every text of each fragment of 3 code points or more, first name first", () => {
    expect(grams({ firstName: "ZOË" })).toEqual([first("zoë")]);
    expect(grams({ lastName: "Garc", firstName: "anne" })).toEqual([
      first("ann"),
      first("nne"),
      last("gar"),
      last("arc"),
    ]);
  });

  it("are a fragment of 1 or 2 characters itself; none for one with a lone surrogate", () => {
    expect(grams({ firstName: "ZO" })).toEqual([first("zo")]);
    expect(grams({ firstName: "zo", lastName: "ía" })).toEqual([first("zo"), last("ía")]);
    expect(grams({ firstName: "Q" })).toEqual([first("q")]);
    expect(grams({ firstName: "😀" })).toEqual([first("😀")]);
    // The ligature is two letters once normalized.
    expect(grams({ firstName: "ﬁ" })).toEqual([first("fi")]);
    expect(grams({ firstName: "z", lastName: "garc" })).toEqual([first("z"), last("gar"), last("arc")]);
    expect(grams({ firstName: "\ud83dab" })).toEqual([]);
    expect(grams({ firstName: "\ud83d", lastName: "a" })).toEqual([last("a")]);
  });

  it("are held by every name the filter matches", () => {
    const names = [
      "García",
      "GARCIA",
      "ＧＡＲＣÍＡ",
      "Anne-Marie",
      "Zoë",
      "Zoey",
      "ﬁona",
      "😀ab😀",
      "Li",
    ].map((name) => pair(name, name));
    const fragments = [
      "garc",
      "ＲＣÍ",
      "anne-",
      "zoë",
      "ZOE\u0308",
      "ﬁon",
      "ab😀",
      "rcia",
      "li",
      "ga",
      "😀a",
      "a",
      "😀",
      "ﬁ",
      "Í",
    ];
    for (const fragment of fragments) {
      const filter = employmentFilter(["acme"], { firstName: fragment, lastName: fragment });
      const wanted = filterGrams(filter).map((gram) => `${gram.field}/${gram.text}`);
      expect(wanted.length).toBeGreaterThan(0);
      for (const stored of names.filter((named) => namesMatch(named, filter))) {
        const held = new Set(gramsOfPairs([stored]).map((gram) => `${gram.field}/${gram.text}`));
        for (const gram of wanted) expect(held).toContain(gram);
      }
    }
  });
});

describe("a posting", () => {
  const p = companyPartition("acme");

  it("is keyed by field, text, the record's order key and its names entry's generation", () => {
    const sort = postingSort("lastName", "cía", ORDER, 7);
    expect(isPostingSort(sort)).toBe(true);
    expect(postingOfSort(sort)).toEqual({ field: "lastName", text: "cía", order: ORDER });
    expect(genOf(sort)).toBe(7);
  });

  it("of one text sorts with the others of it, in order, within the text's range", () => {
    const { low, high } = postingRange("firstName", "zoë", undefined, undefined);
    const inside = [postingSort("firstName", "zoë", ORDER, 1), postingSort("firstName", "zoë", LATER, 0)];
    const outside = [
      postingSort("firstName", "zo", LATER, 1),
      postingSort("firstName", "zoëy", ORDER, 1),
      postingSort("lastName", "zoë", ORDER, 1),
    ];
    for (const sort of inside) expect([compareBytes(low, sort), compareBytes(sort, high)]).toEqual([-1, -1]);
    for (const sort of outside)
      expect(compareBytes(low, sort) < 0 && compareBytes(sort, high) < 0).toBe(false);
    expect(compareBytes(inside[0] as Uint8Array, inside[1] as Uint8Array)).toBe(-1);
    const range = postingRange("firstName", "zoë", LATER, undefined);
    expect(compareBytes(range.low, inside[0] as Uint8Array)).toBe(1);
    expect(compareBytes(range.low, inside[1] as Uint8Array)).toBe(-1);
  });

  it("carries its names entry's value, one per text", () => {
    const names = pair("Zoë", "García");
    const data = encodeNamePairs([names]);
    const items = postingItems(p, gramsOfPair(names), ORDER, 3, data);
    expect(items.map((item) => item[A.sort])).toEqual(
      gramsOfPair(names).map((gram) => postingKey(p, gram, ORDER, 3).s),
    );
    for (const item of items) expect(item).toMatchObject({ [A.partition]: p, [A.data]: data });
  });
});

describe("a person's names in a scope", () => {
  it("are posted under each text any of them holds, once", () => {
    const grams = gramsOfPairs([pair("Anna", "Ngo"), pair("Annie", "Ngo")]);
    expect(grams.filter((gram) => [...gram.text].length === 3)).toEqual([
      first("ann"),
      first("nna"),
      first("nni"),
      first("nie"),
      last("ngo"),
    ]);
    expect(grams.filter((gram) => gram.field === "firstName" && gram.text.length === 1)).toEqual([
      first("a"),
      first("n"),
      first("i"),
      first("e"),
    ]);
    expect(gramsOfPairs([pair("Anna", "Ngo")])).toEqual(gramsOfPair(pair("Anna", "Ngo")));
    expect(gramsOfPairs([])).toEqual([]);
  });
});

describe("the census", () => {
  const census = GramCensus.of(
    [pair("Zoë", "García"), pair("Zoey", "Garcia"), pair("Anne", "Garcia")].map(gramsOfPair),
  );

  it("counts the records whose name holds each text, per field", () => {
    expect(census.count(first("zoe"))).toBe(1);
    expect(census.count(first("zoë"))).toBe(1);
    expect(census.count(last("gar"))).toBe(3);
    expect(census.count(last("cia"))).toBe(2);
    expect(census.count(first("gar"))).toBe(0);
  });

  it("picks the text held by the fewest records, the first on a tie", () => {
    expect(census.rarest([last("gar"), last("arc"), last("rcí"), last("cía")])).toEqual(last("rcí"));
    expect(census.rarest([last("gar"), last("arc")])).toEqual(last("gar"));
    expect(census.rarest([last("gar"), first("xyz")])).toEqual(first("xyz"));
    expect(census.rarest([])).toBeUndefined();
  });

  it("counts records out again, and says which count differs", () => {
    const changed = census.copy();
    changed.add(gramsOfPair(pair("Zoey", "Garcia")), -1);
    expect(changed.equals(census)).toBe(false);
    expect(changed.difference(census)).toEqual({ ...first("e"), counted: 1, held: 2 });
    changed.add(gramsOfPair(pair("Zoey", "Garcia")), 1);
    expect(changed.equals(census)).toBe(true);
    expect(() => changed.add(gramsOfPair(pair("Bob", null)), -1)).toThrow(/fewer than no records/);
  });

  it("counts a holder of several pairs once under a text they share", () => {
    const persons = GramCensus.of([
      gramsOfPairs([pair("Anna", "Ngo"), pair("Annie", "Ngo")]),
      gramsOfPair(pair("Ann", null)),
    ]);
    expect(persons.count(first("ann"))).toBe(2);
    expect(persons.count(first("nni"))).toBe(1);
    expect(persons.count(last("ngo"))).toBe(1);
  });

  it("is stored as, per field, [text, records] sorted by text, compressed", () => {
    const stored = GramCensus.of(
      [pair("Anna", "Ng"), pair("Ann", "Ngo"), pair(null, "Ngo")].map(gramsOfPair),
    ).encode();
    expect(decompressParts(stored)).toEqual({
      f: [
        ["a", 2],
        ["an", 2],
        ["ann", 2],
        ["n", 2],
        ["na", 1],
        ["nn", 2],
        ["nna", 1],
      ],
      l: [
        ["g", 3],
        ["n", 3],
        ["ng", 3],
        ["ngo", 2],
        ["o", 2],
        ["go", 2],
      ].sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)),
    });
  });

  it("reads back what it writes, even when it takes several items", () => {
    expect(GramCensus.decode(census.encode()).equals(census)).toBe(true);
    const parts = census.encode(16);
    expect(parts.length).toBeGreaterThan(1);
    expect(GramCensus.decode(parts).equals(census)).toBe(true);
    expect(GramCensus.decode(new GramCensus().encode()).equals(new GramCensus())).toBe(true);
  });
});
