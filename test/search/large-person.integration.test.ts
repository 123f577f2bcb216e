/**
 * A person with 2,000 large employments in one company (about 4 MB of records, so every read of
 * them spans several 1 MB Query pages) comes back whole, in order, on both engines.
 */
import type { ApiEmployeesSearchResponse } from "../../lib/directory/api-schema.js";
import { instantKey } from "../../lib/directory/instant-key.js";
import {
  employeesSearchRequestSchema,
  personsSearchRequestSchema,
} from "../../lib/search/request-schemas.js";
import { searchEmployees } from "../../lib/search/search-employees.js";
import { searchPersons } from "../../lib/search/search-persons.js";
import type { DirectoryReader } from "../../lib/store/port.js";
import { loadedDirectory } from "../support/directory-store.js";
import { describeEachEngine } from "../support/engines.js";
import { dataFileOf, employeeInput, personInput, testUuid } from "../support/records.js";
import { AS_OF, principalOf } from "./search-context.js";

const COUNT = 2_000;
const BIG = testUuid(0xb16, 0, 1);
const SMALL = testUuid(0x5a11, 0, 2);
const NEEDLE = 1_234;
/** Ids scrambled against creation order; 500 distinct instants, so ties are decided by id. */
const recordId = (i: number) => testUuid((i * 7_919) % 65_521, 1, i);
const createdAt = (i: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, i % 500)).toISOString();

const DATA = dataFileOf(
  [personInput(BIG, "2024-01-01T00:00:00Z"), personInput(SMALL, "2023-01-01T00:00:00Z")],
  [
    ...Array.from({ length: COUNT }, (_, i) =>
      employeeInput({
        id: recordId(i),
        companyId: "bulk",
        personId: BIG,
        createdAt: createdAt(i),
        firstName: i === NEEDLE ? "Needle" : "Hay",
        phone: "(555) 777-0000",
        line1: `${i} `.padEnd(1_800, "x"),
      }),
    ),
    employeeInput({
      id: testUuid(0x5a11, 1, 1),
      companyId: "bulk",
      personId: SMALL,
      createdAt: "2023-01-01T00:00:00Z",
    }),
  ],
);

/** The big person's record ids in the order of both searches. */
const EXPECTED = Array.from({ length: COUNT }, (_, i) => ({ id: recordId(i), key: instantKey(createdAt(i)) }))
  .sort((a, b) => (a.key !== b.key ? (a.key < b.key ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  .map(({ id }) => id);

const principal = principalOf(new Set(["bulk"]));

describeEachEngine("a person with 2,000 employments", (getEngine) => {
  let repository: DirectoryReader | undefined;
  const directory = () => {
    if (!repository) throw new Error("not loaded");
    return repository;
  };
  beforeAll(async () => {
    repository = await loadedDirectory(getEngine(), DATA);
  });

  it("persons search returns the person whole, employments in order", async () => {
    const request = personsSearchRequestSchema.parse({ personId: BIG });
    const response = await searchPersons(request, principal, directory(), AS_OF);
    expect(response.pagination.total).toBe(1);
    expect(response.persons[0]?.employments.map((employment) => employment.id)).toEqual(EXPECTED);
  });

  it("a name held by one employment selects the person, never trims the others", async () => {
    const request = personsSearchRequestSchema.parse({ firstName: "needle" });
    const response = await searchPersons(request, principal, directory(), AS_OF);
    expect(response.persons.map((person) => person.id)).toEqual([BIG]);
    expect(response.persons[0]?.employments).toHaveLength(COUNT);
  });

  it("persons search pages persons, not employments", async () => {
    const request = personsSearchRequestSchema.parse({ limit: 1, offset: 1 });
    const response = await searchPersons(request, principal, directory(), AS_OF);
    expect(response.pagination).toEqual({ limit: 1, offset: 1, total: 2 });
    expect(response.persons.map((person) => person.id)).toEqual([BIG]);
    expect(response.persons[0]?.employments).toHaveLength(COUNT);
  });

  it.each([
    ["the company", {}],
    ["the person", { personId: BIG }],
    ["the phone", { phone: "5557770000" }],
    ["a name", { firstName: "hay" }],
  ])("employees search by %s gives the right records at the start, middle and end", async (_, filter) => {
    const expected = "firstName" in filter ? EXPECTED.filter((id) => id !== recordId(NEEDLE)) : EXPECTED;
    // The small person's one record (the company's oldest, a "Zoë" with another phone) is found on
    // the company path only, where it comes first.
    const others = Object.keys(filter).length === 0 ? 1 : 0;
    for (const offset of [0, 950, expected.length - 50, expected.length + others]) {
      const request = employeesSearchRequestSchema.parse({
        companyId: "bulk",
        ...filter,
        limit: 100,
        offset,
      });
      const page: ApiEmployeesSearchResponse = await searchEmployees(request, principal, directory(), AS_OF);
      expect(page.pagination.total).toBe(expected.length + others);
      const big = page.employees
        .filter((employee) => employee.personId === BIG)
        .map((employee) => employee.id);
      expect(big).toEqual(expected.slice(Math.max(0, offset - others), offset + 100 - others));
    }
  });
});
