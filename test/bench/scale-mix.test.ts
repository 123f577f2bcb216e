import { assertSkewed, buildDataset, recordsPerCompany, SCALE_DATASET } from "../../lib/bench/dataset.js";
import { companiesBySize, scaleKeys, spreadRanks } from "../../lib/bench/scale-keys.js";
import {
  lastPageOffset,
  middleSlice,
  personsInScope,
  type ScaleQuery,
  scaleMix,
} from "../../lib/bench/scale-mix.js";
import { hasShortFragment } from "../../lib/bench/short-fragments.js";
import { instantKey } from "../../lib/directory/instant-key.js";
import { normalizeName } from "../../lib/directory/name.js";
import { parsedValidEmployee } from "../directory/fixtures.js";
import { uuidOf } from "../support/records.js";

const uuid = (n: number) => uuidOf("e", n);
/** The short-fragment queries' names, after their route's prefix. */
const SHORT = [
  "first name, 1 common letter",
  "first name, 1 common letter, offset 1,000",
  "last name, 2 common letters",
  "last name, 1 rare letter",
  "first name, 2 rare letters",
  "1 common letter + 3 of a last name",
  "1 common letter + 3 of a last name, offset 1,000",
  "1 common letter + 2 common of a last name",
  "1 common letter + 2 common of a last name, offset 1,000",
  "1 common letter + 2 common of a last name, created range",
  "first name, 1 common letter, created range",
  "first name, 1 common letter, created range, offset 1,000",
  "last name, 2 common letters, created range",
];
const ofCompany = (companyId: string, count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => parsedValidEmployee({ id: uuid(from + i), companyId }));

describe("scale keys", () => {
  it("ranks companies by record count, largest first, ties by id, empty companies last", () => {
    const records = [...ofCompany("b", 3), ...ofCompany("c", 5, 10), ...ofCompany("a", 3, 20)];
    expect(companiesBySize(["a", "b", "c", "d"], recordsPerCompany(records))).toEqual(["c", "a", "b", "d"]);
  });

  it("spreads a key's ranks evenly from the largest to the smallest", () => {
    const ranked = Array.from({ length: 1_000 }, (_, i) => i);
    const fifty = spreadRanks(ranked, 50);
    expect(fifty).toHaveLength(50);
    expect(new Set(fifty).size).toBe(50);
    expect(fifty.slice(0, 3)).toEqual([0, 20, 41]);
    expect(fifty.at(-1)).toBe(999);
    expect(spreadRanks(ranked, 1)).toEqual([0]);
    expect(spreadRanks([0, 1, 2], 50)).toEqual([0, 1, 2]);
  });

  it("are 1, 50 and every company, each holding the largest; a size the directory cannot fill is dropped", () => {
    const ranked = Array.from({ length: 1_000 }, (_, i) => `c${i}`);
    const keys = scaleKeys(ranked);
    expect(keys.map((key) => key.length)).toEqual([1, 50, 1_000]);
    for (const key of keys) expect(key[0]).toBe("c0");
    expect(scaleKeys(ranked.slice(0, 30)).map((key) => key.length)).toEqual([1, 30]);
  });
});

describe("scale mix", () => {
  const dataset = buildDataset({ records: 3_000, companies: 100, seed: 1, companySizes: { zipf: 1 } });
  const ranked = companiesBySize(dataset.summary.companyIds, recordsPerCompany(dataset.data.employees));
  const keys = scaleKeys(ranked);
  const queries = scaleMix(dataset, keys);
  const largest = ranked[0] ?? "";
  const ofLargest = dataset.data.employees.filter((record) => record.companyId === largest);
  const find = (name: string, keySize: number): ScaleQuery => {
    const query = queries.find((q) => q.name === name && q.key.length === keySize);
    if (!query) throw new Error(`no ${name} for the key of ${keySize}`);
    return query;
  };

  it("picks the largest company by its records", () => {
    expect(ofLargest).toHaveLength(dataset.summary.largestCompany);
  });

  it("runs the employees of the largest company under the one-company key: first page, deep page, name, range, phone, short names", () => {
    const employees = queries.filter((q) => q.route === "/v1/employees/search");
    expect(employees.map((q) => [q.kind, q.key])).toEqual(
      ["unfiltered", "page", "name", "range", "exact", ...SHORT.map(() => "name")].map((kind) => [
        kind,
        [largest],
      ]),
    );
    for (const query of employees) expect(query.body.companyId).toBe(largest);
    expect(find("employees: largest company, deep page", 1).body.offset).toBe(ofLargest.length - 50);
    const lastName = String(find("employees: largest company + last name", 1).body.lastName);
    expect([...lastName]).toHaveLength(3);
    expect(ofLargest.some((r) => normalizeName(r.demographics.lastName ?? "").includes(lastName))).toBe(true);
  });

  it("asks persons with no filter for the first and the last full page of every key, names only for wide keys", () => {
    const persons = queries.filter((q) => q.route === "/v1/persons/search");
    expect(persons.map((q) => `${q.key.length} ${q.kind}`)).toEqual([
      "1 unfiltered",
      "1 page",
      "50 unfiltered",
      "50 page",
      "50 name",
      "50 name",
      ...SHORT.map(() => "50 name"),
      "100 unfiltered",
      "100 page",
      "100 name",
      "100 name",
      ...SHORT.map(() => "100 name"),
    ]);
    const total = personsInScope(dataset.data.employees, new Set(ranked));
    expect(total).toBe(dataset.summary.persons);
    expect(find("persons: deep page", 100).body).toEqual({ offset: total - 50 });
    expect([...String(find("persons: last name, 3 letters", 100).body.lastName)]).toHaveLength(3);
    expect([...String(find("persons: first name, 2 letters", 50).body.firstName)]).toHaveLength(2);
  });

  it("asks short fragments: the commonest letter and pair, the rarest, deep, and beside another name", () => {
    const short = SHORT.map((name) => find(`persons: ${name}`, 50).body);
    const { firstName: letter } = short[0] ?? {};
    expect(short[1]).toEqual({ firstName: letter, offset: 1_000 });
    const holders = (field: "firstName" | "lastName", fragment: unknown) =>
      dataset.data.employees.filter((r) =>
        normalizeName(r.demographics[field] ?? "").includes(String(fragment)),
      ).length;
    expect([...String(letter)]).toHaveLength(1);
    expect(holders("firstName", letter)).toBeGreaterThan(dataset.data.employees.length / 4);
    const rare = short[3]?.lastName;
    expect([...String(rare)]).toHaveLength(1);
    expect(holders("lastName", rare)).toBeGreaterThan(0);
    expect(holders("lastName", rare)).toBeLessThan(holders("lastName", short[2]?.lastName));
    expect([...String(short[4]?.firstName)]).toHaveLength(2);
    expect([...String(short[5]?.lastName)]).toHaveLength(3);
    expect(find(`employees: largest company, ${SHORT[0]}`, 1).body).toEqual({
      companyId: largest,
      firstName: letter,
    });
    // The common ones in the middle half of the records, first and deep.
    const by = (name: string) => short[SHORT.indexOf(name)];
    const { createdFrom, createdBefore } = by("first name, 1 common letter, created range") ?? {};
    expect(String(createdFrom) < String(createdBefore)).toBe(true);
    expect(by("first name, 1 common letter, created range, offset 1,000")).toEqual({
      firstName: letter,
      createdFrom,
      createdBefore,
      offset: 1_000,
    });
    const pair = short[2]?.lastName;
    expect(by("last name, 2 common letters, created range")).toEqual({
      lastName: pair,
      createdFrom,
      createdBefore,
    });
    // Two names: deep, and in the range.
    const three = short[5]?.lastName;
    expect(by("1 common letter + 3 of a last name, offset 1,000")).toEqual({
      firstName: letter,
      lastName: three,
      offset: 1_000,
    });
    expect(by("1 common letter + 2 common of a last name, offset 1,000")).toEqual({
      firstName: letter,
      lastName: pair,
      offset: 1_000,
    });
    expect(by("1 common letter + 2 common of a last name, created range")).toEqual({
      firstName: letter,
      lastName: pair,
      createdFrom,
      createdBefore,
    });
    for (const body of short) expect(hasShortFragment(body)).toBe(true);
    expect(hasShortFragment({ firstName: "ann", lastName: "smit" })).toBe(false);
  });

  it("gives the same queries for the same dataset", () => {
    expect(scaleMix(dataset, keys)).toEqual(queries);
  });
});

describe("scale mix rules", () => {
  it("counts each person once, in scope only", () => {
    const records = [
      parsedValidEmployee({ id: uuid(1), companyId: "a", personId: "11111111-1111-4111-8111-111111111111" }),
      parsedValidEmployee({ id: uuid(2), companyId: "b", personId: "11111111-1111-4111-8111-111111111111" }),
      parsedValidEmployee({ id: uuid(3), companyId: "c", personId: "22222222-2222-4222-8222-222222222222" }),
      parsedValidEmployee({ id: uuid(4), companyId: "a", personId: null }),
    ];
    expect(personsInScope(records, new Set(["a", "b"]))).toBe(1);
    expect(personsInScope(records, new Set(["a", "c"]))).toBe(2);
  });

  it("goes as deep as a full page goes", () => {
    expect(lastPageOffset(1_000)).toBe(950);
    expect(lastPageOffset(20)).toBe(0);
  });

  it("slices the middle fifth in created order", () => {
    const records = Array.from({ length: 10 }, (_, i) =>
      parsedValidEmployee({ id: uuid(i), createdAt: `2024-01-${String(10 - i).padStart(2, "0")}T00:00:00Z` }),
    );
    const slice = middleSlice(records);
    expect(slice).toEqual({ createdFrom: "2024-01-05T00:00:00Z", createdBefore: "2024-01-07T00:00:00Z" });
    const inside = records.filter((r) => {
      const key = instantKey(r.createdAt);
      return key >= instantKey(slice.createdFrom) && key < instantKey(slice.createdBefore);
    });
    expect(inside).toHaveLength(2);
  });
});

describe("the scale dataset", () => {
  it("is a million records over 1,000 Zipf-sized companies by default", () => {
    expect(SCALE_DATASET).toEqual({
      records: 1_000_000,
      companies: 1_000,
      seed: 1,
      companySizes: { zipf: 1 },
    });
  });

  it("passes with its largest company over 5% of the records, and fails loudly on an even spread", () => {
    const skewed = buildDataset({ ...SCALE_DATASET, records: 3_000 });
    expect(skewed.summary.largestCompany / 3_000).toBeGreaterThan(0.05);
    expect(() => assertSkewed(skewed.summary)).not.toThrow();
    const even = buildDataset({ records: 3_000, companies: 100, seed: 1 });
    expect(() => assertSkewed(even.summary)).toThrow(/the scale profile needs at least 5%/);
  });
});
