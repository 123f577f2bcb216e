/**
 * Runs one query of the mix through the real use cases or the naive yardstick, and reduces an
 * answer to what must be equal between the two: the total, the ids in order and, for persons,
 * each person's employment ids in order.
 */
import type { ApiEmployeesSearchResponse, ApiPersonsSearchResponse } from "../directory/api-schema.js";
import { employeesSearchRequestSchema, personsSearchRequestSchema } from "../search/request-schemas.js";
import { searchEmployees } from "../search/search-employees.js";
import { searchPersons } from "../search/search-persons.js";
import type { BenchContext } from "./bench-context.js";
import { naiveSearchEmployees, naiveSearchPersons } from "./naive-search.js";
import { type BenchQuery, EMPLOYEES_ROUTE } from "./query-mix.js";

export type Design = "real" | "naive";

export type SearchResponse = ApiEmployeesSearchResponse | ApiPersonsSearchResponse;

export async function runQuery(
  context: BenchContext,
  query: BenchQuery,
  design: Design,
): Promise<SearchResponse> {
  const { principal, asOf, client, naiveTables } = context;
  if (design === "naive" && naiveTables === null) throw new Error("the naive yardstick was left out");
  if (query.route === EMPLOYEES_ROUTE) {
    const request = employeesSearchRequestSchema.parse(query.body);
    return design === "real" || naiveTables === null
      ? searchEmployees(request, principal, context.directory, asOf)
      : naiveSearchEmployees(client, naiveTables, request, principal, asOf);
  }
  const request = personsSearchRequestSchema.parse(query.body);
  return design === "real" || naiveTables === null
    ? searchPersons(request, principal, context.directory, asOf)
    : naiveSearchPersons(client, naiveTables, request, principal, asOf);
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
