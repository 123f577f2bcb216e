/**
 * Search employees, the use case, on the in-memory store (no DynamoDB): what the use case owns is
 * the company checked against the key before anything is read, the question it puts to the store
 * (that one company, the filters normalized, the created range, the page), and the answer's shape:
 * records converted against `asOf`, pagination with the store's total.
 */
import { ForbiddenError } from "../../lib/http/errors.js";
import { createdRange, employeesSearchRequestSchema } from "../../lib/search/request-schemas.js";
import { searchEmployees } from "../../lib/search/search-employees.js";
import type { DirectoryReader } from "../../lib/store/port.js";
import { memoryWith, recording } from "./memory-store.js";
import { ACME_ORDER, COMPANY, PERSON, RECORD, SAMPLE, SCOPE } from "./sample-directory.js";
import { AS_OF, principalOf } from "./search-context.js";

const store = memoryWith(SAMPLE);

function search(body: Record<string, unknown>, reader: DirectoryReader = store, asOf = AS_OF) {
  const request = employeesSearchRequestSchema.parse({ companyId: COMPANY.acme, ...body });
  return searchEmployees(request, principalOf(SCOPE), reader, asOf);
}

const idsOf = (response: { employees: readonly { id: string }[] }) => response.employees.map((e) => e.id);

describe("search employees (use case, in-memory store)", () => {
  it.each([COMPANY.gamma, "unknown-company"])(
    "refuses company %s, which the key may not read, before reading",
    async (companyId) => {
      const reader = recording(store);
      await expect(search({ companyId }, reader)).rejects.toThrow(ForbiddenError);
      expect(reader.employeesQueries).toEqual([]);
      expect(reader.personsQueries).toEqual([]);
    },
  );

  it("asks the store about the requested company only, with the filters normalized and the page", async () => {
    const reader = recording(store);
    const body = {
      firstName: "ＡＬＩＣＥ",
      lastName: "NG",
      phone: "(555) 200-0001",
      personId: PERSON.alice.toUpperCase(),
      createdFrom: "2024-01-01T00:00:00+01:00",
      createdBefore: "2024-03-01T00:00:00Z",
      offset: 1,
      limit: 2,
    };
    await search(body, reader);
    expect(reader.employeesQueries).toEqual([
      {
        filter: {
          companies: new Set([COMPANY.acme]),
          firstName: "alice",
          lastName: "ng",
          phone: "5552000001",
        },
        personId: PERSON.alice,
        created: createdRange(body),
        offset: 1,
        limit: 2,
      },
    ]);
  });

  it("lists the company's records by instant then id, paged, each page with the whole total", async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < ACME_ORDER.length; offset += 5) {
      const page = await search({ offset, limit: 5 });
      expect(page.pagination).toEqual({ offset, limit: 5, total: ACME_ORDER.length });
      seen.push(...idsOf(page));
    }
    expect(seen).toEqual(ACME_ORDER);
    const past = await search({ offset: ACME_ORDER.length, limit: 5 });
    expect(past).toMatchObject({ employees: [], pagination: { total: ACME_ORDER.length } });
  });

  it("applies every filter on the record: names, phone, person and created range together", async () => {
    // acme's "Alice" records: unlinkedAlice (Jan 15), aliceAcme (Feb 1), unlinkedBadPhone (Apr 1, a
    // phone that does not normalize).
    expect(idsOf(await search({ firstName: "alice" }))).toEqual([
      RECORD.unlinkedAlice,
      RECORD.aliceAcme,
      RECORD.unlinkedBadPhone,
    ]);
    expect(idsOf(await search({ firstName: "alice", phone: "555 200 0001" }))).toEqual([
      RECORD.unlinkedAlice,
      RECORD.aliceAcme,
    ]);
    expect(idsOf(await search({ firstName: "alice", createdFrom: "2024-02-01T00:00:00Z" }))).toEqual([
      RECORD.aliceAcme,
      RECORD.unlinkedBadPhone,
    ]);
    expect(idsOf(await search({ personId: PERSON.bob }))).toEqual([RECORD.bobAcme, RECORD.bobAcmeDuplicate]);
    expect(idsOf(await search({ firstName: "alice", lastName: "smith" }))).toEqual([]);
  });

  it("never returns a record of another company, not even one whose id has this one as a prefix", async () => {
    const west = await search({ companyId: COMPANY.acmeWest, limit: 100 });
    expect(idsOf(west)).toEqual([RECORD.eveAcmeWest]);
    const acme = await search({ limit: 100 });
    expect(acme.employees.every((employee) => employee.companyId === COMPANY.acme)).toBe(true);
  });

  it("states asOf and derives membership against it; keeps only the requested external id systems", async () => {
    // Sample records not terminated hold an invitation that expires 2025-01-10T00:00:00Z.
    const before = await search({ personId: PERSON.alice });
    expect(before.asOf).toBe(AS_OF.toISOString());
    expect(before.employees[0]?.membership.status).toBe("invited_pending");
    const expiry = new Date("2025-01-10T00:00:00Z");
    const after = await search({ personId: PERSON.alice }, store, expiry);
    expect(after.asOf).toBe(expiry.toISOString());
    expect(after.employees[0]?.membership.status).toBe("invited_expired");

    const [alice] = (await search({ personId: PERSON.alice, externalIdSystems: ["hhaexchange"] })).employees;
    expect(alice?.externalIds).toEqual([{ system: "hhaexchange", system_id: "HHX-1" }]);
  });
});
