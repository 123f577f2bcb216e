import {
  employeesFloor,
  itemByItemUnits,
  personsFloor,
  readUnits,
  recordBytes,
} from "../../lib/bench/floor.js";
import { type SourceEmployee, type SourcePerson, SourcePersonSchema } from "../../lib/directory/source.js";
import {
  employeesSearchRequestSchema,
  personsSearchRequestSchema,
} from "../../lib/search/request-schemas.js";
import { parsedValidEmployee, validPerson } from "../directory/fixtures.js";

const uuid = (prefix: string, n: number) =>
  `${prefix}${String(n).padStart(7, "0")}-0000-4000-8000-000000000000`;

/** `count` records of `companyId` (2 bytes), one second apart, each with a person of its own. */
function records(
  companyId: string,
  count: number,
  overrides: Partial<SourceEmployee> = {},
): SourceEmployee[] {
  return Array.from({ length: count }, (_, i) =>
    parsedValidEmployee({
      id: uuid(companyId === "c1" ? "e" : "f", i),
      companyId,
      personId: uuid("a", i),
      createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(),
      ...overrides,
    }),
  );
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

describe("readUnits (eventually consistent)", () => {
  it("bills 0.5 RCU per 4 KB started, at least 0.5 per request", () => {
    expect(readUnits(0)).toBe(0.5);
    expect(readUnits(1)).toBe(0.5);
    expect(readUnits(4096)).toBe(0.5);
    expect(readUnits(4097)).toBe(1);
    expect(readUnits(8193)).toBe(1.5);
  });

  it("rounds each item of a batch on its own", () => {
    expect(itemByItemUnits([100, 5000])).toBe(1.5);
    expect(itemByItemUnits([])).toBe(0);
  });
});

describe("employeesFloor", () => {
  const c1 = records("c1", 200);
  const all = [...c1, ...records("c2", 10)];

  it("reads every record of the company at keys only (1+2 company, 1+24 instant+uuid) and the page as one Query", () => {
    const request = employeesSearchRequestSchema.parse({ companyId: "c1" });
    const page = c1.slice(0, 50);
    const floor = employeesFloor(request, all, page);
    expect(floor.index).toBe(readUnits(200 * (3 + 25))); // 5,600 bytes: 1 RCU
    expect(floor.index).toBe(1);
    expect(floor.page).toBe(readUnits(sum(page.map(recordBytes))));
    expect(floor.total).toBe(floor.index + floor.page);
  });

  it("adds the normalized name filtered on, leaves out records with no such name, and fetches a name page item by item", () => {
    const unnamed = parsedValidEmployee({
      id: uuid("d", 1),
      companyId: "c1",
      demographics: { firstName: "X", lastName: null, dateOfBirth: null, gender: null },
    });
    const request = employeesSearchRequestSchema.parse({ companyId: "c1", lastName: "WEI" });
    const page = c1.slice(0, 3);
    const floor = employeesFloor(request, [...all, unnamed], page);
    // "weiß" is 5 bytes of UTF-8, plus its one-letter name.
    expect(floor.index).toBe(readUnits(200 * (3 + 25 + 6)));
    expect(floor.page).toBe(1.5);
  });

  it("reads only the records carrying the phone (1+5 phone, 1+2+24 company+instant+uuid)", () => {
    const other = records("c1", 3, {
      contact: { ...c1[0]?.contact, phone: "212 555 0199" } as SourceEmployee["contact"],
    });
    const request = employeesSearchRequestSchema.parse({ companyId: "c1", phone: "(212) 555-0199" });
    const floor = employeesFloor(request, [...all, ...other], other);
    expect(floor.index).toBe(readUnits(3 * (6 + 27)));
    expect(floor.page).toBe(readUnits(sum(other.map(recordBytes))));
  });
});

describe("personsFloor", () => {
  const c1 = records("c1", 300);
  const c2 = records("c2", 100);
  const all = [...c1, ...c2];
  const persons = new Map<string, SourcePerson>();
  for (const record of all) {
    if (record.personId)
      persons.set(record.personId, SourcePersonSchema.parse(validPerson({ id: record.personId })));
  }
  const both = new Set(["c1", "c2"]);

  it("reads every linked employment with one Query per company in scope, and each page person by one Query", () => {
    const page = [uuid("a", 0), uuid("a", 1)];
    const floor = personsFloor({
      request: personsSearchRequestSchema.parse({}),
      authorized: both,
      records: all,
      persons,
      page,
    });
    // Per company: 1+2 company, 1+24 person createdAt + person id.
    expect(floor.index).toBe(readUnits(300 * 28) + readUnits(100 * 28));
    // Persons a…0 and a…1 hold one employment in c1 and one in c2 (ids repeat across companies).
    const personUnits = (id: string) =>
      readUnits(
        recordBytes(persons.get(id) as SourcePerson) +
          sum(all.filter((r) => r.personId === id).map(recordBytes)),
      );
    expect(floor.page).toBe(sum(page.map(personUnits)));
  });

  it("reads a person id as one Query of the partition, with employments of authorized companies only", () => {
    const id = uuid("a", 5);
    const floor = personsFloor({
      request: personsSearchRequestSchema.parse({ personId: id }),
      authorized: new Set(["c1"]),
      records: all,
      persons,
      page: [id],
    });
    const onlyC1 = all.filter((r) => r.personId === id && r.companyId === "c1");
    expect(onlyC1).toHaveLength(1);
    expect(floor.index).toBe(0);
    expect(floor.page).toBe(
      readUnits(recordBytes(persons.get(id) as SourcePerson) + sum(onlyC1.map(recordBytes))),
    );
  });

  it("bills an empty phone Query its minimum", () => {
    const floor = personsFloor({
      request: personsSearchRequestSchema.parse({ phone: "646-555-0000" }),
      authorized: both,
      records: all,
      persons,
      page: [],
    });
    expect(floor).toEqual({ index: 0.5, page: 0, total: 0.5 });
  });
});
