/**
 * Isolation: with random multi-company directories and random key scopes, no answer
 * carries a record, a count or an error that reveals a company the key may not read. The use cases
 * run on both engines over many directories, each run with random requests and deliberate ones
 * (a match that must be found, a forbidden company, a hidden one). A forbidden company is
 * `{"error":"forbidden"}` whether or not it exists. Each run's directory (companies and persons of
 * its own, names and phones from a shared pool) is merged into the table, so the records of every
 * earlier run are there too, under companies the key may not read.
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
import { mergedDirectory } from "../support/directory-store.js";
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
    { minLength: 6, maxLength: 12 },
  ),
  /** Picks the employment the deliberate requests are built from (every directory has one). */
  pick: fc.nat(),
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

/**
 * Besides the random requests, every run makes deliberate ones, so each case is checked whatever
 * the seed: a company that exists nowhere (forbidden); a request built from one employment, for a
 * key that reads its company (it must find that employment); and that company hidden from the key,
 * which must be refused exactly like the company that exists nowhere (no existence oracle).
 */
async function checkDeliberately(
  d: Directory,
  repo: DirectoryReader,
  key: Principal,
  pick: number,
  nowhere: string,
) {
  const page = { limit: 3, offset: 0 };
  await checkPersons(d, repo, key, { companyId: nowhere }, page);
  await checkEmployees(d, repo, key, { companyId: nowhere }, page);

  const employment = d.employments[pick % d.employments.length];
  if (!employment) throw new Error("directorySpec gives every person an employment");
  const reading = principalOf([...key.companies, employment.company]);
  const built: Filters = {
    companyId: employment.company,
    firstName: employment.firstName,
    lastName: employment.lastName,
  };
  const persons = await checkPersons(d, repo, reading, built, page);
  if (employment.personId !== null) expect(persons).toBeGreaterThan(0);
  expect(await checkEmployees(d, repo, reading, built, page)).toBeGreaterThan(0);

  const hidden = employment.company;
  const blind = principalOf([...key.companies].filter((id) => id !== hidden));
  for (const search of [
    (companyId: string) => searchPersons(personsSearchRequestSchema.parse({ companyId }), blind, repo, AS_OF),
    (companyId: string) =>
      searchEmployees(employeesSearchRequestSchema.parse({ companyId }), blind, repo, AS_OF),
  ]) {
    expect(await forbiddenParts(search(hidden))).toEqual(await forbiddenParts(search(nowhere)));
  }
}

describeEachEngine("isolation over the search use cases", (getEngine) => {
  let run = 0;

  it("never shows or counts a record of a company the key may not read; 403 reveals no existence", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ spec, scope, requests, pick }) => {
        run += 1;
        const d = buildDirectory(run, spec);
        // Merged: every earlier run's companies stay in the table, unreadable by this run's key.
        const repo = await mergedDirectory(getEngine(), d.data);
        const nowhere = `r${run}-nowhere`;
        const key = principalOf([...d.companies.filter((_, i) => scope[i]), `r${run}-unloaded`]);

        for (const { company, filters: f, limit, offset } of requests) {
          const companyId = company === undefined ? undefined : (d.companies[company] ?? nowhere);
          const withCompany: Filters = companyId === undefined ? f : { ...f, companyId };
          await checkPersons(d, repo, key, withCompany, { limit, offset });
          await checkEmployees(d, repo, key, withCompany, { limit, offset });
        }
        await checkDeliberately(d, repo, key, pick, nowhere);
      }),
      { numRuns: 20 },
    );
  });
});
