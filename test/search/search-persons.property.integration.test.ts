/**
 * Search persons (the real use case over the repository, on both engines) answers exactly as the
 * reference model does: same persons, order, employments, total and pagination, for random
 * directories, key scopes, filters and pages. And never shows or counts what the key may not read.
 */
import fc from "fast-check";
import type { ApiPersonsSearchResponse } from "../../lib/directory/api-schema.js";
import { ForbiddenError } from "../../lib/http/errors.js";
import { personsSearchRequestSchema } from "../../lib/search/request-schemas.js";
import { searchPersons } from "../../lib/search/search-persons.js";
import { describeEachEngine } from "../support/engines.js";
import { AS_OF, loaded, NUM_RUNS, PROPERTY_TIMEOUT_MS, principalOf } from "./property-harness.js";
import {
  bodyOf,
  type Directory,
  deliberateRequests,
  directoryArbitrary,
  materialize,
  requestArbitrary,
  scopeArbitrary,
  scopeOf,
} from "./random-directory.js";
import { FORBIDDEN, modelSearchPersons } from "./reference-model.js";

/** Persons with at least one employment the key may read: the most any search may count. */
function reachable(directory: Directory, scope: ReadonlySet<string>): number {
  const ids = new Set(
    directory.data.employees.flatMap((record) =>
      record.personId !== null && scope.has(record.companyId) ? [record.personId] : [],
    ),
  );
  return ids.size;
}

function expectNothingUnauthorized(
  response: ApiPersonsSearchResponse,
  directory: Directory,
  scope: ReadonlySet<string>,
): void {
  expect(response.pagination.total).toBeLessThanOrEqual(reachable(directory, scope));
  for (const person of response.persons) {
    expect(person.employments.length).toBeGreaterThan(0);
    for (const employment of person.employments) expect(scope.has(employment.companyId)).toBe(true);
  }
}

describeEachEngine("search persons against the reference model", (getEngine) => {
  it(
    "gives the model's persons, employments, order and total for any scope, filters and page",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          directoryArbitrary,
          scopeArbitrary,
          fc.array(requestArbitrary("optional"), { minLength: 1, maxLength: 4 }),
          requestArbitrary("optional"),
          async (spec, mask, requests, deliberateSpec) => {
            const directory = materialize(spec);
            const scope = scopeOf(mask, directory);
            const repository = await loaded(getEngine(), directory);
            /** The use case against the model: FORBIDDEN, or the number of matches. */
            const compare = async (body: Record<string, unknown>, keyScope: ReadonlySet<string>) => {
              const request = personsSearchRequestSchema.parse(body);
              const expected = modelSearchPersons(directory.data, keyScope, request, AS_OF);
              const principal = principalOf(keyScope);
              if (expected === FORBIDDEN) {
                await expect(searchPersons(request, principal, repository, AS_OF)).rejects.toThrow(
                  ForbiddenError,
                );
                return FORBIDDEN;
              }
              const actual = await searchPersons(request, principal, repository, AS_OF);
              expect(actual).toEqual(expected);
              expectNothingUnauthorized(actual, directory, keyScope);
              return expected.pagination.total;
            };
            for (const requestSpec of requests) await compare(bodyOf(requestSpec, directory), scope);
            const deliberate = deliberateRequests(directory, deliberateSpec, "persons");
            expect(await compare(deliberate.forbidden, scope)).toBe(FORBIDDEN);
            const readable = new Set([...scope, deliberate.company]);
            expect(await compare(deliberate.matching, readable)).toBeGreaterThan(0);
          },
        ),
        { numRuns: NUM_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    "pages through a result with no repeat and no gap: the pages joined are the model's whole answer",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          directoryArbitrary,
          scopeArbitrary,
          requestArbitrary("optional"),
          fc.integer({ min: 1, max: 3 }),
          async (spec, mask, requestSpec, limit) => {
            const directory = materialize(spec);
            const scope = scopeOf(mask, directory);
            const body: Record<string, unknown> = {
              ...bodyOf({ ...requestSpec, offset: 0 }, directory),
              limit: 100,
            };
            if (typeof body.companyId === "string" && !scope.has(body.companyId)) delete body.companyId;
            const whole = modelSearchPersons(
              directory.data,
              scope,
              personsSearchRequestSchema.parse(body),
              AS_OF,
            );
            if (whole === FORBIDDEN) throw new Error("the company was taken out of an unauthorized request");
            const repository = await loaded(getEngine(), directory);
            const seen: string[] = [];
            for (let offset = 0; offset <= whole.pagination.total; offset += limit) {
              const request = personsSearchRequestSchema.parse({ ...body, limit, offset });
              const page = await searchPersons(request, principalOf(scope), repository, AS_OF);
              expect(page.pagination).toEqual({ limit, offset, total: whole.pagination.total });
              seen.push(...page.persons.map((person) => person.id));
            }
            expect(seen).toEqual(whole.persons.map((person) => person.id));
          },
        ),
        { numRuns: 25 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
