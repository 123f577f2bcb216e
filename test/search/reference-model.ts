/**
 * Both searches written straight from the interface spec and the decisions, over an in-memory
 * data file and a set of authorized companies. No repository, no index, no narrow entry: every
 * rule is one visible line, so a difference from the real use case is the real use case's bug.
 */
import type {
  ApiEmployee,
  ApiEmployeesSearchResponse,
  ApiPersonsSearchResponse,
} from "../../lib/directory/api-schema.js";
import { toApiEmployee, toApiPerson } from "../../lib/directory/derive.js";
import { normalizeName } from "../../lib/directory/name.js";
import { normalizePhone } from "../../lib/directory/phone.js";
import type { DataFile, SourceEmployee } from "../../lib/directory/source.js";
import { compareExactly } from "../support/date-times.js";

/** A validated request: limit and offset defaulted (as the route's schema does). */
export interface ModelRequest {
  companyId?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  phone?: string | undefined;
  personId?: string | undefined;
  externalIdSystems?: readonly string[] | undefined;
  createdFrom?: string | undefined;
  createdBefore?: string | undefined;
  limit: number;
  offset: number;
}

export const FORBIDDEN = "forbidden";

/** Ascending by createdAt as an instant, then id as a plain string. */
function byCreatedThenId(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number {
  const byInstant = compareExactly(a.createdAt, b.createdAt);
  if (byInstant !== 0) return byInstant;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/** createdFrom inclusive, createdBefore exclusive, compared exactly as instants (any precision). */
function createdWithin(createdAt: string, request: ModelRequest): boolean {
  if (request.createdFrom !== undefined && compareExactly(createdAt, request.createdFrom) < 0) return false;
  if (request.createdBefore !== undefined && compareExactly(createdAt, request.createdBefore) >= 0)
    return false;
  return true;
}

function phoneDigits(phone: string | null): string | undefined {
  if (phone === null) return undefined;
  const normalized = normalizePhone(phone);
  return normalized.ok ? normalized.digits : undefined;
}

/**
 * The name rule as data-format.md states it, kept here so the model does not share the stores'
 * matcher: the normalized query is a substring of the normalized stored name; null never matches.
 */
function nameContains(stored: string | null, query: string): boolean {
  return stored !== null && normalizeName(stored).includes(normalizeName(query));
}

/** Name and phone filters on one record (the company is checked by the caller, on the same record). */
function recordMatches(record: SourceEmployee, request: ModelRequest): boolean {
  if (request.firstName !== undefined && !nameContains(record.demographics.firstName, request.firstName))
    return false;
  if (request.lastName !== undefined && !nameContains(record.demographics.lastName, request.lastName))
    return false;
  if (request.phone !== undefined) {
    const wanted = phoneDigits(request.phone);
    const stored = phoneDigits(record.contact.phone);
    if (wanted === undefined || stored !== wanted) return false;
  }
  return true;
}

function apiEmployee(record: SourceEmployee, request: ModelRequest, asOf: Date): ApiEmployee {
  return toApiEmployee(record, {
    asOf,
    ...(request.externalIdSystems === undefined ? {} : { externalIdSystems: request.externalIdSystems }),
  });
}

const samePerson = (a: string | null, b: string | undefined) =>
  b === undefined || (a !== null && a === b.toLowerCase());

export function modelSearchEmployees(
  data: DataFile,
  authorized: ReadonlySet<string>,
  request: ModelRequest & { companyId: string },
  asOf: Date,
): ApiEmployeesSearchResponse | typeof FORBIDDEN {
  if (!authorized.has(request.companyId)) return FORBIDDEN;
  const matching = data.employees
    .filter((record) => record.companyId === request.companyId)
    .filter((record) => samePerson(record.personId, request.personId))
    .filter((record) => createdWithin(record.createdAt, request))
    .filter((record) => recordMatches(record, request))
    .sort(byCreatedThenId);
  return {
    asOf: asOf.toISOString(),
    employees: matching
      .slice(request.offset, request.offset + request.limit)
      .map((record) => apiEmployee(record, request, asOf)),
    pagination: { limit: request.limit, offset: request.offset, total: matching.length },
  };
}

export function modelSearchPersons(
  data: DataFile,
  authorized: ReadonlySet<string>,
  request: ModelRequest,
  asOf: Date,
): ApiPersonsSearchResponse | typeof FORBIDDEN {
  const { companyId } = request;
  if (companyId !== undefined && !authorized.has(companyId)) return FORBIDDEN;
  const inScope = (company: string) =>
    companyId === undefined ? authorized.has(company) : company === companyId;
  const matching = data.persons
    .filter((person) => samePerson(person.id, request.personId))
    .filter((person) => createdWithin(person.createdAt, request))
    // Company, name and phone must all hold on one and the same employment.
    .filter((person) =>
      data.employees.some(
        (record) =>
          record.personId === person.id && inScope(record.companyId) && recordMatches(record, request),
      ),
    )
    .sort(byCreatedThenId);
  return {
    asOf: asOf.toISOString(),
    persons: matching.slice(request.offset, request.offset + request.limit).map((person) =>
      toApiPerson(
        person,
        // Every employment in every authorized company: filters select people, never trim.
        data.employees
          .filter((record) => record.personId === person.id && authorized.has(record.companyId))
          .sort(byCreatedThenId)
          .map((record) => apiEmployee(record, request, asOf)),
      ),
    ),
    pagination: { limit: request.limit, offset: request.offset, total: matching.length },
  };
}
