/**
 * Search persons on both engines over the handmade sample directory (sample-directory.ts) and a
 * crowd of persons for paging: answers worked out by hand, not by the reference model.
 */
import type { Principal } from "../../lib/auth/principal.js";
import type { ApiPersonsSearchResponse } from "../../lib/directory/api-schema.js";
import { ForbiddenError } from "../../lib/http/errors.js";
import { personsSearchRequestSchema } from "../../lib/search/request-schemas.js";
import { searchPersons } from "../../lib/search/search-persons.js";
import type { DirectoryReader } from "../../lib/store/port.js";
import { loadedDirectory } from "../support/directory-store.js";
import { describeEachEngine, type EngineContext } from "../support/engines.js";
import { dataFileOf, employeeInput, personInput, testUuid } from "../support/records.js";
import { COMPANY, FEB_1, PERSON, RECORD, SAMPLE, SCOPE } from "./sample-directory.js";
import { AS_OF, principalOf } from "./search-context.js";

async function repositoryWith(context: EngineContext, data: typeof SAMPLE): Promise<DirectoryReader> {
  return loadedDirectory(context, data);
}

function searcher(getRepository: () => DirectoryReader, principal: Principal) {
  return (body: Record<string, unknown> = {}): Promise<ApiPersonsSearchResponse> =>
    searchPersons(personsSearchRequestSchema.parse(body), principal, getRepository(), AS_OF);
}

const ids = (response: ApiPersonsSearchResponse) => response.persons.map((person) => person.id);

describeEachEngine("search persons: filters, scope and records", (getEngine) => {
  let repository: DirectoryReader | undefined;
  beforeAll(async () => {
    repository = await repositoryWith(getEngine(), SAMPLE);
  });
  const search = searcher(() => {
    if (!repository) throw new Error("not loaded");
    return repository;
  }, principalOf(SCOPE));

  it("finds everyone the key may read once, by instant then id; nobody reachable only elsewhere", async () => {
    const response = await search();
    // BOB and ALICE share an instant (written +01:00 and Z): the id decides. CARA (gamma only) and
    // DAN (no employment) are neither returned nor counted.
    expect(ids(response)).toEqual([PERSON.bob, PERSON.alice, PERSON.eve]);
    expect(response.pagination).toEqual({ limit: 50, offset: 0, total: 3 });
    expect(response.asOf).toBe(AS_OF.toISOString());
  });

  it("returns every authorized employment, by createdAt then id, and none of another company", async () => {
    const [alice] = (await search({ personId: PERSON.alice })).persons;
    expect(alice?.employments.map((employment) => employment.id)).toEqual([
      RECORD.aliceBeta,
      RECORD.aliceAcme,
    ]);
  });

  it("keeps duplicate and terminated records among a person's employments", async () => {
    const [bob] = (await search({ personId: PERSON.bob.toUpperCase() })).persons;
    expect(bob?.employments.map((employment) => employment.id)).toEqual([
      RECORD.bobAcme,
      RECORD.bobAcmeDuplicate,
    ]);
    expect(bob?.employments[1]?.membership.status).toBe("revoked_access");
    expect(bob?.employments[1]?.coverage?.status).toBe("terminated");
  });

  it("never returns records that have no person", async () => {
    const response = await search({ firstName: "alice", limit: 100 });
    expect(ids(response)).toEqual([PERSON.alice]);
    const employments = response.persons.flatMap((person) => person.employments);
    expect(employments.every((employment) => employment.personId !== null)).toBe(true);
  });

  it("selects by a company filter without trimming the other authorized employments", async () => {
    const response = await search({ companyId: COMPANY.beta });
    expect(ids(response)).toEqual([PERSON.alice]);
    expect(response.persons[0]?.employments.map((employment) => employment.companyId)).toEqual([
      COMPANY.beta,
      COMPANY.acme,
    ]);
  });

  it("refuses a company the key may not read", async () => {
    await expect(search({ companyId: COMPANY.gamma })).rejects.toThrow(ForbiddenError);
    await expect(search({ companyId: "nowhere" })).rejects.toThrow(ForbiddenError);
  });

  it.each([
    ["a name on one employment", { firstName: "alic" }, [PERSON.alice]],
    ["first and last name on the same employment", { firstName: "Alicia", lastName: "ng-s" }, [PERSON.alice]],
    ["name and phone on different employments only", { firstName: "Alice", phone: "555.200.0002" }, []],
    ["name and phone on one employment", { firstName: "ali", phone: "5552000002" }, [PERSON.alice]],
    ["company and name on different employments only", { companyId: COMPANY.acme, firstName: "Alicia" }, []],
    ["a phone in other punctuation, two persons", { phone: "+1 (555) 200-0002" }, [PERSON.bob, PERSON.alice]],
    ["a phone stored only with letters around its digits", { phone: "5552000001" }, [PERSON.alice]],
    ["a phone held only at an unauthorized company", { phone: "555-200-0009" }, []],
    ["a person known only at an unauthorized company", { personId: PERSON.cara }, []],
    ["a person with no employment", { personId: PERSON.dan }, []],
    ["a full-width stored name", { firstName: "EVE" }, [PERSON.eve]],
    [
      "the created instant, inclusive, in another offset",
      { createdFrom: FEB_1.minusFive },
      [PERSON.bob, PERSON.alice, PERSON.eve],
    ],
    ["the created instant, exclusive, in another offset", { createdBefore: FEB_1.plusOne }, []],
    [
      "a nanosecond-wide created range",
      { createdFrom: "2024-03-01T00:00:00.000000001Z", createdBefore: "2024-03-01T00:00:00.000000002Z" },
      [PERSON.eve],
    ],
    ["createdBefore equal to createdFrom", { createdFrom: FEB_1.utc, createdBefore: FEB_1.plusOne }, []],
    [
      "createdBefore before createdFrom",
      { createdFrom: "2025-01-01T00:00:00Z", createdBefore: FEB_1.utc },
      [],
    ],
    // EVE was created at 2024-03-01T00:00:00.000000001Z; bounds of 10 digits a tenth of a nanosecond off.
    [
      "a 10-digit createdFrom just before a creation",
      { createdFrom: "2024-03-01T00:00:00.0000000009Z" },
      [PERSON.eve],
    ],
    ["a 10-digit createdFrom just after a creation", { createdFrom: "2024-03-01T00:00:00.0000000011Z" }, []],
    [
      "a 10-digit createdBefore just after a creation",
      { createdBefore: "2024-03-01T00:00:00.0000000011Z" },
      [PERSON.bob, PERSON.alice, PERSON.eve],
    ],
    [
      "a 10-digit createdBefore just before a creation",
      { createdBefore: "2024-03-01T00:00:00.0000000009Z" },
      [PERSON.bob, PERSON.alice],
    ],
    [
      "bounds before year 0000 and after year 9999 in UTC",
      { createdFrom: "0000-01-01T00:00:00+14:00", createdBefore: "9999-12-31T23:59:59-14:00" },
      [PERSON.bob, PERSON.alice, PERSON.eve],
    ],
    ["a createdFrom after year 9999 in UTC", { createdFrom: "9999-12-31T23:59:59-14:00" }, []],
    ["a createdBefore before year 0000 in UTC", { createdBefore: "0000-01-01T00:00:00+14:00" }, []],
  ] as const)("filters by %s", async (_, body, expected) => {
    const response = await search({ ...body });
    expect(ids(response)).toEqual([...expected]);
    expect(response.pagination.total).toBe(expected.length);
  });

  it("selects external ids by system, and none for an empty list", async () => {
    const only = await search({ personId: PERSON.alice, externalIdSystems: ["hhaexchange"] });
    expect(only.persons[0]?.employments[1]?.externalIds).toEqual([
      { system: "hhaexchange", system_id: "HHX-1" },
    ]);
    const none = await search({ personId: PERSON.alice, externalIdSystems: [] });
    expect(none.persons[0]?.employments.flatMap((employment) => employment.externalIds)).toEqual([]);
  });

  it("finds nobody with a key that may read no company", async () => {
    const nobody = searcher(() => {
      if (!repository) throw new Error("not loaded");
      return repository;
    }, principalOf(new Set()));
    const response = await nobody({ firstName: "a" });
    expect(response).toEqual({
      asOf: AS_OF.toISOString(),
      persons: [],
      pagination: { limit: 50, offset: 0, total: 0 },
    });
    expect((await nobody({ personId: PERSON.alice })).pagination.total).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------

const CROWD = 37;
const CROWD_TIMES = [
  "2024-01-01T00:00:00Z",
  "2024-01-01T01:00:00+01:00",
  "2023-06-01T00:00:00Z",
  "2024-03-01T12:00:00.5Z",
];
/** Ids in an order unrelated to creation: the first group of hex digits is scrambled. */
const crowdId = (i: number) => testUuid(((i * 7919) % 1009) + 1, 1, i);

const CROWD_DATA = dataFileOf(
  Array.from({ length: CROWD }, (_, i) => personInput(crowdId(i), CROWD_TIMES[i % CROWD_TIMES.length] ?? "")),
  Array.from({ length: CROWD }, (_, i) => [
    employeeInput({
      id: testUuid(i + 1, 2, i),
      companyId: "crowd-a",
      personId: crowdId(i),
      createdAt: "2024-06-01T00:00:00Z",
    }),
    // Every third person also works at a second company the key reads, every fourth at one it does not.
    ...(i % 3 === 0
      ? [
          employeeInput({
            id: testUuid(i + 1, 3, i),
            companyId: "crowd-b",
            personId: crowdId(i),
            createdAt: "2024-06-02T00:00:00Z",
          }),
        ]
      : []),
    ...(i % 4 === 0
      ? [
          employeeInput({
            id: testUuid(i + 1, 4, i),
            companyId: "crowd-x",
            personId: crowdId(i),
            createdAt: "2024-06-03T00:00:00Z",
          }),
        ]
      : []),
  ]).flat(),
);

describeEachEngine("search persons: paging", (getEngine) => {
  let repository: DirectoryReader | undefined;
  beforeAll(async () => {
    repository = await repositoryWith(getEngine(), CROWD_DATA);
  });
  const search = searcher(
    () => {
      if (!repository) throw new Error("not loaded");
      return repository;
    },
    principalOf(new Set(["crowd-a", "crowd-b"])),
  );

  it.each([1, 7, 10, 36, 37, 50])(
    "pages of %i cover everyone once, in order, and sum to total",
    async (limit) => {
      const seen: string[] = [];
      let offset = 0;
      for (;;) {
        const page = await search({ limit, offset });
        expect(page.pagination).toEqual({ limit, offset, total: CROWD });
        expect(page.persons.length).toBe(Math.max(0, Math.min(limit, CROWD - offset)));
        if (page.persons.length === 0) break;
        seen.push(...ids(page));
        offset += limit;
      }
      expect(seen).toHaveLength(CROWD);
      expect(new Set(seen).size).toBe(CROWD);
      const createdOf = new Map(
        CROWD_DATA.persons.map((person) => [person.id, Date.parse(person.createdAt)]),
      );
      const expected = [...createdOf.keys()].sort(
        (a, b) => (createdOf.get(a) ?? 0) - (createdOf.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0),
      );
      expect(seen).toEqual(expected);
    },
  );

  it("answers an offset past the end with an empty page and the true total", async () => {
    const page = await search({ offset: 1000 });
    expect(page).toEqual({
      asOf: AS_OF.toISOString(),
      persons: [],
      pagination: { limit: 50, offset: 1000, total: CROWD },
    });
  });

  it("shows the authorized employments of each person only", async () => {
    const page = await search({ limit: 100 });
    for (const person of page.persons) {
      const companies = person.employments.map((employment) => employment.companyId);
      expect(companies).toEqual(companies.includes("crowd-b") ? ["crowd-a", "crowd-b"] : ["crowd-a"]);
    }
    expect(page.persons.filter((person) => person.employments.length === 2)).toHaveLength(
      Math.ceil(CROWD / 3),
    );
  });
});
