/**
 * Runs one query of the mix through the real use cases or the naive yardstick, and reduces an
 * answer to what must be equal between the two: the total, the ids in order and, for persons,
 * each person's employment ids in order.
 */
import type { Principal } from "../auth/principal.js";
import type { ApiEmployeesSearchResponse, ApiPersonsSearchResponse } from "../directory/api-schema.js";
import { employeesSearchRequestSchema, personsSearchRequestSchema } from "../search/request-schemas.js";
import { searchEmployees } from "../search/search-employees.js";
import { searchPersons } from "../search/search-persons.js";
import type { DirectoryReader } from "../store/port.js";
import type { BenchContext } from "./bench-context.js";
import { naiveSearchEmployees, naiveSearchPersons } from "./naive-search.js";
import { type BenchQuery, EMPLOYEES_ROUTE } from "./query-mix.js";

export type Design = "real" | "naive";

export type SearchResponse = ApiEmployeesSearchResponse | ApiPersonsSearchResponse;

/** The real use case for `query`, as a route function calls it. */
export function searchReal(
  query: BenchQuery,
  principal: Principal,
  directory: DirectoryReader,
  asOf: Date,
): Promise<SearchResponse> {
  return query.route === EMPLOYEES_ROUTE
    ? searchEmployees(employeesSearchRequestSchema.parse(query.body), principal, directory, asOf)
    : searchPersons(personsSearchRequestSchema.parse(query.body), principal, directory, asOf);
}

export async function runQuery(
  context: BenchContext,
  query: BenchQuery,
  design: Design,
): Promise<SearchResponse> {
  const { principal, asOf, client, naiveTables } = context;
  if (design === "real") return searchReal(query, principal, context.directory, asOf);
  if (naiveTables === null) throw new Error("the naive yardstick was left out");
  return query.route === EMPLOYEES_ROUTE
    ? naiveSearchEmployees(
        client,
        naiveTables,
        employeesSearchRequestSchema.parse(query.body),
        principal,
        asOf,
      )
    : naiveSearchPersons(client, naiveTables, personsSearchRequestSchema.parse(query.body), principal, asOf);
}

interface AnswerShape {
  readonly total: number;
  readonly ids: readonly string[];
  /** Persons only: each person's employment ids, in order. */
  readonly employments: readonly (readonly string[])[];
}

function answerShape(response: SearchResponse): AnswerShape {
  if ("employees" in response) {
    return { total: response.pagination.total, ids: response.employees.map((e) => e.id), employments: [] };
  }
  return {
    total: response.pagination.total,
    ids: response.persons.map((p) => p.id),
    employments: response.persons.map((p) => p.employments.map((e) => e.id)),
  };
}

/** Throws when the yardstick answers something else than the real search: it would measure nothing. */
export function assertSameAnswer(query: BenchQuery, real: SearchResponse, naive: SearchResponse): void {
  const a = JSON.stringify(answerShape(real));
  const b = JSON.stringify(answerShape(naive));
  if (a !== b) {
    throw new Error(
      `naive answer differs from the real one for "${query.name}":\nreal  ${a.slice(0, 300)}\nnaive ${b.slice(0, 300)}`,
    );
  }
}
