/**
 * Search persons, the use case, on the in-memory store (no DynamoDB): the requested company checked
 * against the key before anything is read; the scope (that company, or every company the key may
 * read); filters that select persons but never trim their employments; employments from every
 * company the key may read and none other; sort, paging and total; `asOf`.
 */
import type { ApiPersonsSearchResponse } from "../../lib/directory/api-schema.js";
import { ForbiddenError } from "../../lib/http/errors.js";
import { createdRange, personsSearchRequestSchema } from "../../lib/search/request-schemas.js";
import { searchPersons } from "../../lib/search/search-persons.js";
import type { DirectoryReader } from "../../lib/store/port.js";
import { memoryWith, recording } from "./memory-store.js";
import { COMPANY, PERSON, RECORD, SAMPLE, SCOPE } from "./sample-directory.js";
import { AS_OF, principalOf } from "./search-context.js";

const store = memoryWith(SAMPLE);
const EVERY_COMPANY: ReadonlySet<string> = new Set(Object.values(COMPANY));

function search(
  body: Record<string, unknown> = {},
  options: { reader?: DirectoryReader; scope?: ReadonlySet<string>; asOf?: Date } = {},
): Promise<ApiPersonsSearchResponse> {
  const request = personsSearchRequestSchema.parse(body);
  return searchPersons(
    request,
    principalOf(options.scope ?? SCOPE),
    options.reader ?? store,
    options.asOf ?? AS_OF,
  );
}

const idsOf = (response: ApiPersonsSearchResponse) => response.persons.map((person) => person.id);
const employmentsOf = (response: ApiPersonsSearchResponse) =>
  Object.fromEntries(response.persons.map((person) => [person.id, person.employments.map((e) => e.id)]));

describe("search persons (use case, in-memory store)", () => {
  it.each([COMPANY.gamma, "unknown-company"])(
    "refuses company %s, which the key may not read, before reading",
    async (companyId) => {
      const reader = recording(store);
      await expect(search({ companyId }, { reader })).rejects.toThrow(ForbiddenError);
      expect(reader.personsQueries).toEqual([]);
      expect(reader.employeesQueries).toEqual([]);
    },
  );

  it("scopes a search to every company the key may read, or to the one requested; reads all of them", async () => {
    const reader = recording(store);
    const body = {
      firstName: "Ｂｏｂ",
      phone: "555.200.0002",
      personId: PERSON.bob.toUpperCase(),
      createdBefore: "2024-03-01T00:00:00Z",
      offset: 2,
      limit: 3,
    };
    await search(body, { reader });
    await search({ ...body, companyId: COMPANY.beta }, { reader });
    const asked = {
      filter: { companies: SCOPE, firstName: "bob", phone: "5552000002" },
      readable: SCOPE,
      personId: PERSON.bob,
      created: createdRange(body),
      offset: 2,
      limit: 3,
    };
    expect(reader.personsQueries).toEqual([
      asked,
      { ...asked, filter: { ...asked.filter, companies: new Set([COMPANY.beta]) } },
    ]);
  });

  it("finds each person once, by instant then id, paged with the whole total", async () => {
    // BOB and ALICE share an instant: BOB's id sorts first. CARA (gamma) and DAN (no record) are out.
    const all = await search();
    expect(idsOf(all)).toEqual([PERSON.bob, PERSON.alice, PERSON.eve]);
    expect(all.pagination).toEqual({ offset: 0, limit: 50, total: 3 });
    const second = await search({ offset: 1, limit: 1 });
    expect(idsOf(second)).toEqual([PERSON.alice]);
    expect(second.pagination).toEqual({ offset: 1, limit: 1, total: 3 });
    expect(await search({ offset: 3, limit: 1 })).toMatchObject({ persons: [], pagination: { total: 3 } });
  });

  it("returns every employment in every readable company, whatever the requested company or filters", async () => {
    // ALICE is found through beta, or through her beta record's name, yet keeps her acme record too;
    // her gamma record is never shown to a key that cannot read gamma.
    const aliceReadable = { [PERSON.alice]: [RECORD.aliceBeta, RECORD.aliceAcme] };
    expect(employmentsOf(await search({ companyId: COMPANY.beta }))).toEqual(aliceReadable);
    expect(employmentsOf(await search({ firstName: "alicia" }))).toEqual(aliceReadable);
    // BOB's duplicate (terminated) record at acme is one of his employments.
    expect(employmentsOf(await search({ personId: PERSON.bob }))).toEqual({
      [PERSON.bob]: [RECORD.bobAcme, RECORD.bobAcmeDuplicate],
    });
  });

  it("matches filters only on employments the key may read, then shows them all", async () => {
    // "Zed" is ALICE's name at gamma only.
    expect(await search({ firstName: "zed" })).toMatchObject({ persons: [], pagination: { total: 0 } });
    const withGamma = await search({ firstName: "zed" }, { scope: EVERY_COMPANY });
    expect(employmentsOf(withGamma)).toEqual({
      [PERSON.alice]: [RECORD.aliceGamma, RECORD.aliceBeta, RECORD.aliceAcme],
    });
    // Company, name and phone must hold on one employment: ALICE's acme phone with her beta name does not.
    expect(idsOf(await search({ firstName: "alicia", phone: "555 200 0001" }))).toEqual([]);
  });

  it("takes created bounds on the person's createdAt, not on an employment's", async () => {
    // ALICE's beta record was created on Jan 20, ALICE herself on Feb 1.
    expect(idsOf(await search({ createdBefore: "2024-01-31T00:00:00Z" }))).toEqual([]);
    expect(idsOf(await search({ createdFrom: "2024-02-01T01:00:00+01:00" }))).toEqual([
      PERSON.bob,
      PERSON.alice,
      PERSON.eve,
    ]);
    expect(idsOf(await search({ createdFrom: "2024-03-01T00:00:00Z" }))).toEqual([PERSON.eve]);
  });

  it("states asOf and derives each employment's membership against it", async () => {
    // Sample records not terminated hold an invitation that expires 2025-01-10T00:00:00Z.
    const statuses = async (asOf: Date) => {
      const response = await search({ personId: PERSON.alice }, { asOf });
      expect(response.asOf).toBe(asOf.toISOString());
      return response.persons.flatMap((person) => person.employments.map((e) => e.membership.status));
    };
    expect(await statuses(AS_OF)).toEqual(["invited_pending", "invited_pending"]);
    expect(await statuses(new Date("2025-01-10T00:00:00Z"))).toEqual(["invited_expired", "invited_expired"]);
  });
});
