/**
 * Both searches written straight from the contract over an in-memory data file: no indexes, no
 * narrow entries, no cleverness. The property tests compare the real use cases with these.
 */
import type { ApiEmployee, ApiPerson } from "../../lib/directory/api-schema.js";
import { nameMatches, normalizePhone, toApiEmployee, toApiPerson } from "../../lib/directory/derive.js";
import { instantKey } from "../../lib/directory/instant-key.js";
import type { DataFile, SourceEmployee } from "../../lib/directory/source.js";
import type { EmployeesSearchRequest, PersonsSearchRequest } from "../../lib/search/request-schemas.js";

type Filters = Pick<PersonsSearchRequest, "firstName" | "lastName" | "phone">;
type Page<T> = { items: T[]; total: number } | "forbidden";

const byCreatedThenId = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  instantKey(a.createdAt).localeCompare(instantKey(b.createdAt)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function inRange(
  createdAt: string,
  request: { createdFrom?: string | undefined; createdBefore?: string | undefined },
) {
  const at = instantKey(createdAt);
  return (
    (request.createdFrom === undefined || at >= instantKey(request.createdFrom)) &&
    (request.createdBefore === undefined || at < instantKey(request.createdBefore))
  );
}

/** Company (done by the caller), name and phone filters, all on this one record. */
function recordMatches(record: SourceEmployee, filters: Filters): boolean {
  const phone = record.contact.phone === null ? null : normalizePhone(record.contact.phone);
  return (
    (filters.firstName === undefined || nameMatches(record.demographics.firstName, filters.firstName)) &&
    (filters.lastName === undefined || nameMatches(record.demographics.lastName, filters.lastName)) &&
    (filters.phone === undefined || (phone?.ok === true && phone.digits === filters.phone))
  );
}

const shapeOptions = (asOf: Date, systems: readonly string[] | undefined) => ({
  asOf,
  ...(systems ? { externalIdSystems: systems } : {}),
});

export function modelEmployees(
  data: DataFile,
  companies: ReadonlySet<string>,
  request: EmployeesSearchRequest,
  asOf: Date,
): Page<ApiEmployee> {
  if (!companies.has(request.companyId)) return "forbidden";
  const matching = data.employees
    .filter((record) => record.companyId === request.companyId)
    .filter((record) => request.personId === undefined || record.personId === request.personId)
    .filter((record) => inRange(record.createdAt, request))
    .filter((record) => recordMatches(record, request))
    .sort(byCreatedThenId);
  return {
    total: matching.length,
    items: matching
      .slice(request.offset, request.offset + request.limit)
      .map((record) => toApiEmployee(record, shapeOptions(asOf, request.externalIdSystems))),
  };
}

export function modelPersons(
  data: DataFile,
  companies: ReadonlySet<string>,
  request: PersonsSearchRequest,
  asOf: Date,
): Page<ApiPerson> {
  if (request.companyId !== undefined && !companies.has(request.companyId)) return "forbidden";
  const scope = request.companyId === undefined ? companies : new Set([request.companyId]);
  const matching = data.persons
    .filter((person) => request.personId === undefined || person.id === request.personId)
    .filter((person) => inRange(person.createdAt, request))
    .filter((person) =>
      data.employees.some(
        (record) =>
          record.personId === person.id && scope.has(record.companyId) && recordMatches(record, request),
      ),
    )
    .sort(byCreatedThenId);
  return {
    total: matching.length,
    items: matching.slice(request.offset, request.offset + request.limit).map((person) =>
      toApiPerson(
        person,
        data.employees
          .filter((record) => record.personId === person.id && companies.has(record.companyId))
          .sort(byCreatedThenId)
          .map((record) => toApiEmployee(record, shapeOptions(asOf, request.externalIdSystems))),
      ),
    ),
  };
}
