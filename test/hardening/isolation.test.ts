/**
 * Issue point 4, isolation: with random multi-company directories and random key scopes, no answer
 * carries a record, a count or an error that reveals a company the key may not read. The use cases
 * run on both engines over many directories; a smaller HTTP variant runs fixed keys through the
 * local service. A forbidden company is `{"error":"forbidden"}` whether or not it exists.
 */
import fc from "fast-check";
import type { Principal } from "../../lib/auth/principal.js";
import { errorResponseParts, ForbiddenError } from "../../lib/http/errors.js";
import {
  employeesSearchRequestSchema,
  personsSearchRequestSchema,
} from "../../lib/search/request-schemas.js";
import { searchEmployees } from "../../lib/search/search-employees.js";
import { searchPersons } from "../../lib/search/search-persons.js";
import type { DirectoryReader } from "../../lib/store/port.js";
import { loadedDirectory } from "../support/directory-store.js";
import { describeEachEngine } from "../support/engines.js";
import {
  buildDirectory,
  type Directory,
  directorySpec,
  expectedEmployees,
  expectedPersons,
  type Filters,
  filterValues,
} from "./isolation-model.js";

const AS_OF = new Date("2025-01-05T12:00:00Z");

const principalOf = (companies: Iterable<string>): Principal => ({
  keyId: "key_IsolationProp000",
  partner: "isolation",
  operations: new Set(["persons.search", "employees.search"]),
  companies: new Set(companies),
});

/** Mostly none or one filter (so that many answers are non-empty), sometimes all of them. */
const filters: fc.Arbitrary<Filters> = fc.oneof(
  fc.constant({}),
  filterValues.firstName.map((firstName) => ({ firstName })),
  filterValues.lastName.map((lastName) => ({ lastName })),
  filterValues.phone.map((phone) => ({ phone })),
  fc.record(
    { firstName: filterValues.firstName, lastName: filterValues.lastName, phone: filterValues.phone },
    { requiredKeys: [] },
  ),
);
/** Which company a request names: an index into the directory's companies, or one that exists nowhere. */
const companyPick = fc.option(fc.nat(5), { nil: undefined });

const scenario = fc.record({
  spec: directorySpec,
  scope: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  requests: fc.array(
    fc.record({ company: companyPick, filters, limit: fc.integer({ min: 1, max: 3 }), offset: fc.nat(2) }),
    { minLength: 3, maxLength: 6 },
  ),
});

async function forbiddenParts(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ForbiddenError);
  return errorResponseParts(error);
}

async function checkPersons(d: Directory, repo: DirectoryReader, key: Principal, f: Filters, page: object) {
  const request = personsSearchRequestSchema.parse({ ...f, ...page });
  if (f.companyId !== undefined && !key.companies.has(f.companyId)) {
    expect(await forbiddenParts(searchPersons(request, key, repo, AS_OF))).toEqual({
      status: 403,
      body: { error: "forbidden" },
      headers: {},
    });
    return 0;
  }
  const expected = expectedPersons(d, key.companies, f);
  const answer = await searchPersons(request, key, repo, AS_OF);
  expect(answer.pagination.total).toBe(expected.size);
  expect(answer.persons.length).toBe(Math.max(0, Math.min(request.limit, expected.size - request.offset)));
  for (const person of answer.persons) {
    expect(expected.has(person.id)).toBe(true);
    const visible = d.employments.filter((e) => e.personId === person.id && key.companies.has(e.company));
    expect(person.employments.map((e) => e.id).sort()).toEqual(visible.map((e) => e.id).sort());
    for (const employment of person.employments) expect(key.companies.has(employment.companyId)).toBe(true);
  }
  return expected.size;
}

async function checkEmployees(d: Directory, repo: DirectoryReader, key: Principal, f: Filters, page: object) {
  const companyId = f.companyId ?? d.companies[0] ?? "";
  const request = employeesSearchRequestSchema.parse({ ...f, companyId, ...page });
  if (!key.companies.has(companyId)) {
    expect((await forbiddenParts(searchEmployees(request, key, repo, AS_OF))).body).toEqual({
      error: "forbidden",
    });
    return 0;
  }
  const expected = expectedEmployees(d, companyId, f);
  const answer = await searchEmployees(request, key, repo, AS_OF);
  expect(answer.pagination.total).toBe(expected.size);
  for (const employee of answer.employees) {
    expect(employee.companyId).toBe(companyId);
    expect(expected.has(employee.id)).toBe(true);
  }
  return expected.size;
}

describeEachEngine("isolation over the search use cases", (getEngine) => {
  let run = 0;

  it("never shows or counts a record of a company the key may not read; 403 reveals no existence", async () => {
    const tally = { compared: 0, nonEmpty: 0, forbidden: 0, oracle: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, async ({ spec, scope, requests }) => {
        run += 1;
        const d = buildDirectory(run, spec);
        const repo = await loadedDirectory(getEngine(), d.data);
        const nowhere = `r${run}-nowhere`;
        const key = principalOf([...d.companies.filter((_, i) => scope[i]), `r${run}-unloaded`]);

        for (const { company, filters: f, limit, offset } of requests) {
          const companyId = company === undefined ? undefined : (d.companies[company] ?? nowhere);
          const withCompany: Filters = companyId === undefined ? f : { ...f, companyId };
          const counts = [
            await checkPersons(d, repo, key, withCompany, { limit, offset }),
            await checkEmployees(d, repo, key, withCompany, { limit, offset }),
          ];
          if (companyId !== undefined && !key.companies.has(companyId)) tally.forbidden += 1;
          else {
            tally.compared += 1;
            if (counts.some((count) => count > 0)) tally.nonEmpty += 1;
          }
        }

        // No existence oracle: an unreadable company that holds records is refused like one that does not exist.
        const hidden = d.companies.find(
          (id) => !key.companies.has(id) && d.employments.some((e) => e.company === id),
        );
        if (hidden !== undefined) {
          tally.oracle += 1;
          for (const search of [
            (companyId: string) =>
              searchPersons(personsSearchRequestSchema.parse({ companyId }), key, repo, AS_OF),
            (companyId: string) =>
              searchEmployees(employeesSearchRequestSchema.parse({ companyId }), key, repo, AS_OF),
          ]) {
            expect(await forbiddenParts(search(hidden))).toEqual(await forbiddenParts(search(nowhere)));
          }
        }
      }),
      { numRuns: 30 },
    );
    expect(tally.nonEmpty / tally.compared).toBeGreaterThan(0.3);
    expect(tally.forbidden).toBeGreaterThan(0);
    expect(tally.oracle).toBeGreaterThan(0);
  }, 120_000);
});
