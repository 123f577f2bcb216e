/**
 * Search employees (the real use case over the repository, on both engines) answers exactly as the
 * reference model does: same records, order, total and pagination, for random directories, key
 * scopes, filters and pages; a company outside the key's scope is refused with ForbiddenError.
 */
import fc from "fast-check";
import { ForbiddenError } from "../../lib/http/errors.js";
import { employeesSearchRequestSchema } from "../../lib/search/request-schemas.js";
import { searchEmployees } from "../../lib/search/search-employees.js";
import { describeEachEngine } from "../support/engines.js";
import { AS_OF, loaded, NUM_RUNS, PROPERTY_TIMEOUT_MS, principalOf } from "./property-harness.js";
import {
  bodyOf,
  deliberateRequests,
  directoryArbitrary,
  materialize,
  requestArbitrary,
  scopeArbitrary,
  scopeOf,
} from "./random-directory.js";
import { FORBIDDEN, modelSearchEmployees } from "./reference-model.js";

describeEachEngine("search employees against the reference model", (getEngine) => {
  it(
    "gives the model's records, order and total for any scope, filters and page",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          directoryArbitrary,
          scopeArbitrary,
          fc.array(requestArbitrary("required"), { minLength: 1, maxLength: 4 }),
          requestArbitrary("required"),
          async (spec, mask, requests, deliberateSpec) => {
            const directory = materialize(spec);
            const scope = scopeOf(mask, directory);
            const repository = await loaded(getEngine(), directory);
            /** The use case against the model: FORBIDDEN, or the number of matches. */
            const compare = async (body: Record<string, unknown>, keyScope: ReadonlySet<string>) => {
              const request = employeesSearchRequestSchema.parse(body);
              const expected = modelSearchEmployees(directory.data, keyScope, request, AS_OF);
              const principal = principalOf(keyScope);
              if (expected === FORBIDDEN) {
                await expect(searchEmployees(request, principal, repository, AS_OF)).rejects.toThrow(
                  ForbiddenError,
                );
                return FORBIDDEN;
              }
              const actual = await searchEmployees(request, principal, repository, AS_OF);
              expect(actual).toEqual(expected);
              // Only the requested (authorized) company, never more than it holds.
              for (const employee of actual.employees) expect(employee.companyId).toBe(request.companyId);
              const held = directory.data.employees.filter((e) => e.companyId === request.companyId);
              expect(actual.pagination.total).toBeLessThanOrEqual(held.length);
              return expected.pagination.total;
            };
            for (const requestSpec of requests) await compare(bodyOf(requestSpec, directory), scope);
            const deliberate = deliberateRequests(directory, deliberateSpec, "employees");
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
    "pages through a company's records with no repeat and no gap",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          directoryArbitrary,
          requestArbitrary("required"),
          fc.integer({ min: 1, max: 3 }),
          async (spec, requestSpec, limit) => {
            const directory = materialize(spec);
            const scope = new Set(directory.companies);
            const company = directory.companies[(requestSpec.company ?? 0) % directory.companies.length];
            const body = { ...bodyOf(requestSpec, directory), companyId: company, offset: 0, limit: 100 };
            const whole = modelSearchEmployees(
              directory.data,
              scope,
              employeesSearchRequestSchema.parse(body),
              AS_OF,
            );
            if (whole === FORBIDDEN) throw new Error("every company of the directory is in scope");
            const repository = await loaded(getEngine(), directory);
            const seen: string[] = [];
            for (let offset = 0; offset <= whole.pagination.total; offset += limit) {
              const request = employeesSearchRequestSchema.parse({ ...body, limit, offset });
              const page = await searchEmployees(request, principalOf(scope), repository, AS_OF);
              expect(page.pagination).toEqual({ limit, offset, total: whole.pagination.total });
              seen.push(...page.employees.map((employee) => employee.id));
            }
            expect(seen).toEqual(whole.employees.map((employee) => employee.id));
          },
        ),
        { numRuns: 25 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
