/**
 * Search persons (the real use case over the repository, on both engines) answers exactly as the
 * reference model does: same persons, order, employments, total and pagination, for random
 * directories, key scopes, filters and pages. And never shows or counts what the key may not read.
 */
import fc from "fast-check";
import { personsSearchRequestSchema } from "../../lib/search/request-schemas.js";
import { searchPersons } from "../../lib/search/search-persons.js";
import { modelProperties } from "./property-harness.js";
import { bodyOf, type Directory, requestArbitrary, scopeArbitrary, scopeOf } from "./random-directory.js";
import { modelSearchPersons } from "./reference-model.js";

/** Persons with at least one employment the key may read: the most any search may count. */
function reachable(directory: Directory, scope: ReadonlySet<string>): number {
  const ids = new Set(
    directory.data.employees.flatMap((record) =>
      record.personId !== null && scope.has(record.companyId) ? [record.personId] : [],
    ),
  );
  return ids.size;
}

modelProperties({
  suite: "search persons against the reference model",
  search: "persons",
  company: "optional",
  titles: {
    matches: "gives the model's persons, employments, order and total for any scope, filters and page",
    pages: "pages through a result with no repeat and no gap: the pages joined are the model's whole answer",
  },
  parse: (body) => personsSearchRequestSchema.parse(body),
  model: modelSearchPersons,
  run: searchPersons,
  ids: (response) => response.persons.map((person) => person.id),
  expectAuthorized(response, _request, directory, scope) {
    expect(response.pagination.total).toBeLessThanOrEqual(reachable(directory, scope));
    for (const person of response.persons) {
      expect(person.employments.length).toBeGreaterThan(0);
      for (const employment of person.employments) expect(scope.has(employment.companyId)).toBe(true);
    }
  },
  pagingDraw: fc.tuple(scopeArbitrary, requestArbitrary("optional")),
  pagingCase(directory, [mask, requestSpec]) {
    const scope = scopeOf(mask, directory);
    const body: Record<string, unknown> = { ...bodyOf({ ...requestSpec, offset: 0 }, directory), limit: 100 };
    // The company is taken out of a request the key may not make, so the whole answer exists.
    if (typeof body.companyId === "string" && !scope.has(body.companyId)) delete body.companyId;
    return { scope, body };
  },
});
