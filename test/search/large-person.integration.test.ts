/**
 * A person with 300 large employments in one company comes back whole, in order, on both engines.
 * Each carries 14,000 characters that do not compress (records are stored brotli-compressed), so
 * the person's bundle is about 2.6 MB in several parts, and reading it spans several 1 MB Query
 * pages. The writer cuts orders into blocks a tenth of its default (256 entries) and name postings
 * into blocks a sixteenth of theirs (1,024), so these 300 cross as many blocks as thousands of
 * employments would, at a fraction of the records (a load's cost grows with its records).
 */
import type { ApiEmployeesSearchResponse } from "../../lib/directory/api-schema.js";
import { DemoRandom } from "../../lib/directory/demo-random.js";
import { instantKey } from "../../lib/directory/instant-key.js";
import {
  employeesSearchRequestSchema,
  personsSearchRequestSchema,
} from "../../lib/search/request-schemas.js";
import { searchEmployees } from "../../lib/search/search-employees.js";
import { searchPersons } from "../../lib/search/search-persons.js";
import { queryPages } from "../../lib/store/dynamo/model/batch.js";
import { personPartition } from "../../lib/store/dynamo/model/layout.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import type { DirectoryReader } from "../../lib/store/port.js";
import { DIRECTORY_ATTR as A } from "../../lib/store/tables.js";
import { loadedDirectory, TENTH_ORDER_BLOCKS } from "../support/directory-store.js";
import { describeEachEngine } from "../support/engines.js";
import { dataFileOf, employeeInput, personInput, testUuid } from "../support/records.js";
import { AS_OF, principalOf } from "./search-context.js";

const COUNT = 300;
const BIG = testUuid(0xb16, 0, 1);
const SMALL = testUuid(0x5a11, 0, 2);
const NEEDLE = 123;
/** Order blocks a tenth of the writer's default, gram blocks a sixteenth (1,024, 2,048, 256). */
const WRITER = { orderBlocks: TENTH_ORDER_BLOCKS, gramBlocks: { target: 64, max: 128, min: 16 } };
/**
 * Random letters, which brotli cannot shrink much (about 4.7 bits a character): stored bytes, not
 * records. No digits: a run of nine would be refused as a Social Security number.
 */
const random = new DemoRandom(0x1a2e);
const noise = (length: number) =>
  Array.from({ length }, () => String.fromCharCode(97 + random.int(0, 25))).join("");
/** Ids scrambled against creation order; 75 distinct instants, so ties are decided by id. */
const recordId = (i: number) => testUuid((i * 7_919) % 65_521, 1, i);
const createdAt = (i: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, i % 75)).toISOString();

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
        line1: `${i} ${noise(14_000)}`,
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

describeEachEngine("a person with 300 employments", (getEngine) => {
  let repository: DirectoryReader | undefined;
  const directory = () => {
    if (!repository) throw new Error("not loaded");
    return repository;
  };
  beforeAll(async () => {
    repository = await loadedDirectory(getEngine(), DATA, WRITER);
  });

  it("stores the person's bundle in several parts, over 2 MB: more than one Query page", async () => {
    const pages = [];
    for await (const page of queryPages(documentClientFor(getEngine().client), {
      TableName: getEngine().tables.directory,
      KeyConditionExpression: "#p = :p",
      ExpressionAttributeNames: { "#p": A.partition },
      ExpressionAttributeValues: { ":p": personPartition(BIG) },
    }))
      pages.push(page);
    const parts = pages.flat();
    const bytes = parts.reduce((sum, item) => sum + (item[A.data] as Uint8Array).length, 0);
    expect({ pages: pages.length > 1, parts: parts.length > 3, bytes: bytes > 2_000_000 }).toEqual({
      pages: true,
      parts: true,
      bytes: true,
    });
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
    for (const offset of [0, 140, expected.length - 50, expected.length + others]) {
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
