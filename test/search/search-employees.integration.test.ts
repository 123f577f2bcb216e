/**
 * Search employees on both engines over the handmade sample directory (sample-directory.ts):
 * answers worked out by hand, not by the reference model.
 */
import type { ApiEmployeesSearchResponse } from "../../lib/directory/api-schema.js";
import { ForbiddenError } from "../../lib/http/errors.js";
import { employeesSearchRequestSchema } from "../../lib/search/request-schemas.js";
import { searchEmployees } from "../../lib/search/search-employees.js";
import type { DirectoryReader } from "../../lib/store/port.js";
import { loadedDirectory } from "../support/directory-store.js";
import { describeEachEngine } from "../support/engines.js";
import { ACME_ORDER, COMPANY, FEB_1, PERSON, RECORD, SAMPLE, SCOPE } from "./sample-directory.js";
import { AS_OF, principalOf } from "./search-context.js";

const ids = (response: ApiEmployeesSearchResponse) => response.employees.map((employee) => employee.id);

describeEachEngine("search employees: filters, scope and paging", (getEngine) => {
  let repository: DirectoryReader | undefined;
  beforeAll(async () => {
    repository = await loadedDirectory(getEngine(), SAMPLE);
  });
  const search = (body: Record<string, unknown>): Promise<ApiEmployeesSearchResponse> => {
    if (!repository) throw new Error("not loaded");
    const request = employeesSearchRequestSchema.parse({ companyId: COMPANY.acme, ...body });
    return searchEmployees(request, principalOf(SCOPE), repository, AS_OF);
  };

  it("lists a company's records by instant then id: unlinked, duplicate and terminated ones included", async () => {
    const response = await search({ limit: 100 });
    expect(ids(response)).toEqual(ACME_ORDER);
    expect(response.pagination).toEqual({ limit: 100, offset: 0, total: ACME_ORDER.length });
    const byId = new Map(response.employees.map((employee) => [employee.id, employee]));
    expect(byId.get(RECORD.unlinkedNoName)?.personId).toBeNull();
    expect(byId.get(RECORD.bobAcmeDuplicate)?.membership.status).toBe("revoked_access");
    expect(byId.get(RECORD.bobAcmeDuplicate)?.coverage?.status).toBe("terminated");
    expect(response.employees.every((employee) => employee.companyId === COMPANY.acme)).toBe(true);
  });

  it("does not mix in a company whose id has this one as a prefix", async () => {
    const west = await search({ companyId: COMPANY.acmeWest });
    expect(ids(west)).toEqual([RECORD.eveAcmeWest]);
  });

  it.each([50, 1, 4, 7, 18])(
    "pages of %i cover the company once, in order, and sum to total",
    async (limit) => {
      const seen: string[] = [];
      for (let offset = 0; ; offset += limit) {
        const page = await search({ limit, offset });
        expect(page.pagination).toEqual({ limit, offset, total: ACME_ORDER.length });
        if (page.employees.length === 0) break;
        expect(page.employees.length).toBe(Math.min(limit, ACME_ORDER.length - offset));
        seen.push(...ids(page));
      }
      expect(seen).toEqual(ACME_ORDER);
    },
  );

  it("uses limit 50 and offset 0 by default, and an offset past the end gives an empty page", async () => {
    expect((await search({})).pagination).toEqual({ limit: 50, offset: 0, total: ACME_ORDER.length });
    const past = await search({ offset: ACME_ORDER.length });
    expect(past.employees).toEqual([]);
    expect(past.pagination.total).toBe(ACME_ORDER.length);
  });

  it.each([
    ["a person, any case", { personId: PERSON.bob.toUpperCase() }, [RECORD.bobAcme, RECORD.bobAcmeDuplicate]],
    ["a person with no record in the company", { personId: PERSON.alice, companyId: COMPANY.acmeWest }, []],
    [
      "a person and a created range",
      { personId: PERSON.bob, createdBefore: "2024-02-02T00:00:00Z" },
      [RECORD.bobAcme],
    ],
    ["a phone in other punctuation", { phone: "1 (555) 200-0001" }, [RECORD.unlinkedAlice, RECORD.aliceAcme]],
    [
      "a phone and a name",
      { phone: "5552000001", firstName: "ALI" },
      [RECORD.unlinkedAlice, RECORD.aliceAcme],
    ],
    ["a phone and a person", { phone: "5552000001", personId: PERSON.alice }, [RECORD.aliceAcme]],
    ["a phone of another company's record", { phone: "555-200-0009" }, []],
    [
      "a first name, case-insensitively",
      { firstName: "ALI" },
      [RECORD.unlinkedAlice, RECORD.aliceAcme, RECORD.unlinkedBadPhone],
    ],
    [
      "a last name fragment",
      { lastName: "g" },
      [RECORD.bobAcme, RECORD.aliceAcme, RECORD.bobAcmeDuplicate, RECORD.unlinkedBadPhone],
    ],
    ["first and last name", { firstName: "b", lastName: "ng" }, [RECORD.bobAcme, RECORD.bobAcmeDuplicate]],
    ["a full-width query", { firstName: "ａｌｉｃｅ", lastName: "ＵＮＫ" }, [RECORD.unlinkedAlice]],
    ["a full-width stored name", { companyId: COMPANY.acmeWest, firstName: "eve" }, [RECORD.eveAcmeWest]],
    [
      "the created instant, inclusive, in another offset",
      { createdFrom: FEB_1.plusOne, createdBefore: "2024-02-02T00:00:00Z" },
      [RECORD.bobAcme, RECORD.aliceAcme, RECORD.unlinkedNoName],
    ],
    [
      "the created instant, exclusive, in another offset",
      { createdBefore: FEB_1.minusFive },
      [RECORD.unlinkedAlice],
    ],
    ["createdBefore equal to createdFrom", { createdFrom: FEB_1.utc, createdBefore: FEB_1.minusFive }, []],
    [
      "createdBefore before createdFrom",
      { createdFrom: "2024-03-01T00:00:00Z", createdBefore: FEB_1.utc },
      [],
    ],
    // Three acme records were created at FEB_1; bounds of 10 digits a tenth of a nanosecond off.
    [
      "a 10-digit createdFrom just before a creation",
      { createdFrom: "2024-01-31T23:59:59.9999999999Z", createdBefore: "2024-02-02T00:00:00Z" },
      [RECORD.bobAcme, RECORD.aliceAcme, RECORD.unlinkedNoName],
    ],
    [
      "a 10-digit createdFrom just after a creation",
      { createdFrom: "2024-02-01T00:00:00.0000000001Z", createdBefore: "2024-02-02T00:00:00Z" },
      [],
    ],
    [
      "a 10-digit createdBefore just after a creation",
      { createdBefore: "2024-02-01T00:00:00.0000000001Z" },
      [RECORD.unlinkedAlice, RECORD.bobAcme, RECORD.aliceAcme, RECORD.unlinkedNoName],
    ],
    [
      "a 10-digit createdBefore just before a creation",
      { createdBefore: "2024-01-31T23:59:59.9999999999Z" },
      [RECORD.unlinkedAlice],
    ],
    [
      "bounds before year 0000 and after year 9999 in UTC",
      { createdFrom: "0000-01-01T00:00:00+14:00", createdBefore: "9999-12-31T23:59:59-14:00" },
      ACME_ORDER,
    ],
    ["a createdFrom after year 9999 in UTC", { createdFrom: "9999-12-31T23:59:59.9999999991Z" }, []],
    ["a createdBefore before year 0000 in UTC", { createdBefore: "0000-01-01T00:00:00+14:00" }, []],
  ] as const)("filters by %s", async (_, body, expected) => {
    const response = await search({ ...body, limit: 100 });
    expect(ids(response)).toEqual([...expected]);
    expect(response.pagination.total).toBe(expected.length);
  });

  it("selects external ids by system without filtering records", async () => {
    const only = await search({ personId: PERSON.alice, externalIdSystems: ["hhaexchange"] });
    expect(only.employees.map((employee) => employee.externalIds)).toEqual([
      [{ system: "hhaexchange", system_id: "HHX-1" }],
    ]);
    const none = await search({ externalIdSystems: [], limit: 100 });
    expect(ids(none)).toEqual(ACME_ORDER);
    expect(none.employees.flatMap((employee) => employee.externalIds)).toEqual([]);
  });

  it("refuses a company the key may not read, existing or not", async () => {
    await expect(search({ companyId: COMPANY.gamma })).rejects.toThrow(ForbiddenError);
    await expect(search({ companyId: "nowhere" })).rejects.toThrow(ForbiddenError);
    await expect(search({ companyId: COMPANY.gamma, personId: PERSON.alice })).rejects.toThrow(
      ForbiddenError,
    );
  });
});
