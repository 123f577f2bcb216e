/**
 * Search employees (the real use case over the repository, on both engines) answers exactly as the
 * reference model does: same records, order, total and pagination, for random directories, key
 * scopes, filters and pages; a company outside the key's scope is refused with ForbiddenError.
 */
import { employeesSearchRequestSchema } from "../../lib/search/request-schemas.js";
import { searchEmployees } from "../../lib/search/search-employees.js";
import { modelProperties } from "./property-harness.js";
import { bodyOf, requestArbitrary } from "./random-directory.js";
import { modelSearchEmployees } from "./reference-model.js";

modelProperties({
  suite: "search employees against the reference model",
  search: "employees",
  company: "required",
  titles: {
    matches: "gives the model's records, order and total for any scope, filters and page",
    pages: "pages through a company's records with no repeat and no gap",
  },
  parse: (body) => employeesSearchRequestSchema.parse(body),
  model: modelSearchEmployees,
  run: searchEmployees,
  ids: (response) => response.employees.map((employee) => employee.id),
  expectAuthorized(response, request, directory) {
    // Only the requested (authorized) company, never more than it holds.
    for (const employee of response.employees) expect(employee.companyId).toBe(request.companyId);
    const held = directory.data.employees.filter((e) => e.companyId === request.companyId);
    expect(response.pagination.total).toBeLessThanOrEqual(held.length);
  },
  // Every company of the directory is in scope; the request names one of them.
  pagingDraw: requestArbitrary("required"),
  pagingCase(directory, requestSpec) {
    const company = directory.companies[(requestSpec.company ?? 0) % directory.companies.length];
    const body = { ...bodyOf(requestSpec, directory), companyId: company, offset: 0, limit: 100 };
    return { scope: new Set(directory.companies), body };
  },
});
