/** The floor of one query of the mix, from the dataset and the page the search returned. */
import type { SourceEmployee } from "../directory/source.js";
import { employeesSearchRequestSchema, personsSearchRequestSchema } from "../search/request-schemas.js";
import { candidateUnits } from "./candidate-floor.js";
import type { Dataset } from "./dataset.js";
import {
  employeeCandidates,
  employeesFloor,
  type FloorParts,
  personCandidates,
  personsFloor,
  personsScope,
} from "./floor.js";
import { type BenchQuery, EMPLOYEES_ROUTE } from "./query-mix.js";
import type { SearchResponse } from "./query-runner.js";

export function queryFloor(
  dataset: Dataset,
  authorized: ReadonlySet<string>,
  query: BenchQuery,
  response: SearchResponse,
): FloorParts {
  const records = dataset.data.employees;
  if (query.route === EMPLOYEES_ROUTE) {
    if (!("employees" in response)) throw new Error(`${query.name}: not an employees answer`);
    const byId = new Map(records.map((record) => [record.id, record]));
    const page = response.employees.map((employee): SourceEmployee => {
      const record = byId.get(employee.id);
      if (!record) throw new Error(`${query.name}: answer names record ${employee.id}, not in the dataset`);
      return record;
    });
    return employeesFloor(employeesSearchRequestSchema.parse(query.body), records, page);
  }
  if (!("persons" in response)) throw new Error(`${query.name}: not a persons answer`);
  return personsFloor({
    request: personsSearchRequestSchema.parse(query.body),
    authorized,
    records,
    persons: dataset.personsById,
    page: response.persons.map((person) => person.id),
  });
}

/** A name query's candidateRcu (candidate-floor.ts): null when no name is filtered. */
export function queryCandidateUnits(
  dataset: Dataset,
  authorized: ReadonlySet<string>,
  query: BenchQuery,
): number | null {
  const records = dataset.data.employees;
  if (query.route === EMPLOYEES_ROUTE) {
    const request = employeesSearchRequestSchema.parse(query.body);
    return candidateUnits(employeeCandidates(request, records), request);
  }
  const request = personsSearchRequestSchema.parse(query.body);
  const input = { request, authorized, records, persons: dataset.personsById };
  return candidateUnits(personCandidates(input, personsScope(request, authorized)), request);
}
