/**
 * The floor: the read capacity the cheapest possible design must spend on a query, computed from
 * the source records (docs/performance.md states the formula).
 *
 * floor = index part + page part, where
 *   index part = Σ over the Queries of an ideal design of readUnits(Σ minimal entry bytes of the
 *                candidates that Query cannot exclude by its key condition)
 *   page part  = the page's whole records, rounded as the read that fetches them would be.
 */
import { instantKey } from "../directory/instant-key.js";
import { normalizeName } from "../directory/name.js";
import { normalizePhone } from "../directory/phone.js";
import type { SourceEmployee, SourcePerson } from "../directory/source.js";
import { inCreatedRange } from "../search/matching.js";
import {
  createdRange,
  type EmployeesSearchRequest,
  type PersonsSearchRequest,
} from "../search/request-schemas.js";

/** Bytes of the compact encodings an ideal design would store (one-letter attribute names). */
const FLOOR_BYTES = {
  /** Every attribute is billed its name's bytes; one letter. */
  name: 1,
  /** A uuid as 16 raw bytes (Binary). */
  uuid: 16,
  /** An instant as 8 bytes (nanoseconds since the epoch, big-endian: byte order = time order). */
  instant: 8,
  /** 10 decimal digits fit in 34 bits: 5 bytes. */
  phone: 5,
} as const;

const READ_UNIT_BYTES = 4096;

/**
 * DynamoDB's rule for one eventually consistent request: 0.5 RCU per 4 KB started, at least one
 * unit (an empty Query or a missing GetItem is still billed 0.5).
 */
export function readUnits(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / READ_UNIT_BYTES)) * 0.5;
}

/** BatchGetItem and GetItem round every item on its own. */
export function itemByItemUnits(itemBytes: readonly number[]): number {
  return itemBytes.reduce((sum, bytes) => sum + readUnits(bytes), 0);
}

const utf8 = (text: string) => Buffer.byteLength(text, "utf8");

/** A whole record as stored: its JSON, the form the directory table keeps it in. */
export const recordBytes = (record: SourceEmployee | SourcePerson): number => utf8(JSON.stringify(record));

/** An attribute: its one-letter name plus the value's bytes. */
const attribute = (valueBytes: number) => FLOOR_BYTES.name + valueBytes;
/** The sort key (instant, uuid) that orders, de-duplicates and windows: 8 + 16 bytes. */
const ORDER_KEY = FLOOR_BYTES.instant + FLOOR_BYTES.uuid;

/** The name fragments a query filters on (either, both or none). */
export interface NameFilters {
  readonly firstName?: string | undefined;
  readonly lastName?: string | undefined;
}

/** The normalized names an entry must carry to be matched, or null when it can never match. */
function nameBytes(record: SourceEmployee, filters: NameFilters): number | null {
  let bytes = 0;
  for (const field of ["firstName", "lastName"] as const) {
    if (filters[field] === undefined) continue;
    const stored = record.demographics[field];
    // A sparse index on the name leaves out records that have none: they can never match.
    if (stored === null) return null;
    bytes += attribute(utf8(normalizeName(stored)));
  }
  return bytes;
}

const phoneOf = (record: SourceEmployee): string | null => {
  if (record.contact.phone === null) return null;
  const normalized = normalizePhone(record.contact.phone);
  return normalized.ok ? normalized.digits : null;
};

export interface FloorParts {
  readonly index: number;
  readonly page: number;
  readonly total: number;
}

const parts = (index: number, page: number): FloorParts => ({ index, page, total: index + page });

/** A record an ideal index holds for a query, and the bytes of its entry there. */
export interface Candidate {
  readonly record: SourceEmployee;
  readonly entryBytes: number;
}

/**
 * The records an ideal index must read for an employees query: those of the company in the created
 * range (the range is a key condition too: the sort key starts with the instant) that carry an
 * entry (an exact filter's value; every name filtered on).
 */
export function* employeeCandidates(
  request: EmployeesSearchRequest,
  records: readonly SourceEmployee[],
): Generator<Candidate> {
  const range = createdRange(request);
  for (const record of records) {
    if (record.companyId !== request.companyId || !inCreatedRange(instantKey(record.createdAt), range))
      continue;
    const key = employeeEntryKeyBytes(request, record);
    const names = key === null ? null : nameBytes(record, request);
    if (key !== null && names !== null) yield { record, entryBytes: key + names };
  }
}

/**
 * Employees of one company. Exact filters (person, phone) are key conditions of an ideal index,
 * so only records carrying that value are read; otherwise every record of the company in the
 * created range is.
 */
export function employeesFloor(
  request: EmployeesSearchRequest,
  records: readonly SourceEmployee[],
  page: readonly SourceEmployee[],
): FloorParts {
  let entries = 0;
  for (const candidate of employeeCandidates(request, records)) entries += candidate.entryBytes;
  return parts(readUnits(entries), employeesPageUnits(request, page.map(recordBytes)));
}

/** The index entry's key bytes for a record of the company, or null when its key condition skips it. */
function employeeEntryKeyBytes(request: EmployeesSearchRequest, record: SourceEmployee): number | null {
  const company = utf8(request.companyId);
  if (request.personId !== undefined) {
    return record.personId === request.personId
      ? attribute(FLOOR_BYTES.uuid) + attribute(company + ORDER_KEY)
      : null;
  }
  if (request.phone !== undefined) {
    return phoneOf(record) === request.phone
      ? attribute(FLOOR_BYTES.phone) + attribute(company + ORDER_KEY)
      : null;
  }
  return attribute(company) + attribute(ORDER_KEY);
}

function employeesPageUnits(request: EmployeesSearchRequest, sizes: readonly number[]): number {
  if (sizes.length === 0) return 0;
  // With no name filter the page is a run of consecutive keys: one Query can read it whole.
  // A name filter scatters the page, so each record is fetched on its own (BatchGetItem).
  const scattered = request.firstName !== undefined || request.lastName !== undefined;
  return scattered ? itemByItemUnits(sizes) : readUnits(sizes.reduce((a, b) => a + b, 0));
}

export interface PersonsFloorInput {
  readonly request: PersonsSearchRequest;
  /** Companies the key may read. */
  readonly authorized: ReadonlySet<string>;
  readonly records: readonly SourceEmployee[];
  readonly persons: ReadonlyMap<string, SourcePerson>;
  /** Person ids of the page, in order. */
  readonly page: readonly string[];
}

/** Each person's employment records, the input of a page's price (built once for many pages). */
export type EmploymentsByPerson = ReadonlyMap<string, readonly SourceEmployee[]>;

export function employmentsByPerson(records: readonly SourceEmployee[]): EmploymentsByPerson {
  const byPerson = new Map<string, SourceEmployee[]>();
  for (const record of records) {
    if (record.personId === null) continue;
    const list = byPerson.get(record.personId) ?? [];
    list.push(record);
    byPerson.set(record.personId, list);
  }
  return byPerson;
}

/** What prices a page of persons: who they are, their employments, and what the key may read. */
export interface PersonsPageInput {
  readonly authorized: ReadonlySet<string>;
  readonly persons: ReadonlyMap<string, SourcePerson>;
  readonly byPerson: EmploymentsByPerson;
}

/** A person with every employment the key may read: one partition, one Query. */
function personBytes(input: PersonsPageInput, id: string): number {
  const person = input.persons.get(id);
  const employments = (input.byPerson.get(id) ?? []).filter((record) =>
    input.authorized.has(record.companyId),
  );
  return (
    (person ? recordBytes(person) : 0) + employments.reduce((sum, record) => sum + recordBytes(record), 0)
  );
}

/** The page part of a persons floor: each page person read by one Query of their partition. */
export function personsPageUnits(input: PersonsPageInput, page: readonly string[]): number {
  return page.reduce((sum, id) => sum + readUnits(personBytes(input, id)), 0);
}

/**
 * The Query that finds an employment (the phone's, or its company's) and its entry's key bytes;
 * null when the phone's key condition skips it.
 */
function personEntryKey(
  request: PersonsSearchRequest,
  record: SourceEmployee,
): { query: string; keyBytes: number } | null {
  const company = utf8(record.companyId);
  if (request.phone === undefined) {
    return { query: record.companyId, keyBytes: attribute(company) + attribute(ORDER_KEY) };
  }
  if (phoneOf(record) !== request.phone) return null;
  return { query: "phone", keyBytes: attribute(FLOOR_BYTES.phone) + attribute(company + ORDER_KEY) };
}

/** A persons candidate, and the ideal design's Query that reads it (its company's, or "phone"). */
export interface PersonCandidate extends Candidate {
  readonly query: string;
}

/** The companies whose employments a persons query matches on: the one requested, or every one the key may read. */
export const personsScope = (request: PersonsSearchRequest, authorized: ReadonlySet<string>) =>
  new Set(request.companyId === undefined ? authorized : [request.companyId]);

/**
 * The records an ideal index must read for a persons query (other than by person id): employments
 * with a person, in scope, whose person is in the created range, that carry an entry.
 */
export function* personCandidates(
  input: Omit<PersonsFloorInput, "page">,
  scope: ReadonlySet<string>,
): Generator<PersonCandidate> {
  const { request, records, persons } = input;
  const range = createdRange(request);
  for (const record of records) {
    if (record.personId === null || !scope.has(record.companyId)) continue;
    const person = persons.get(record.personId);
    if (!person || !inCreatedRange(instantKey(person.createdAt), range)) continue;
    const entry = personEntryKey(request, record);
    const names = entry === null ? null : nameBytes(record, request);
    if (entry !== null && names !== null)
      yield { record, query: entry.query, entryBytes: entry.keyBytes + names };
  }
}

/**
 * Persons. Candidates are employments with a person, in the scope (one company, or every company
 * the key may read). A phone is a key condition (one Query); a person id is read whole, with the
 * page, by one Query of its partition; otherwise one Query per company in scope reads every
 * linked employment. Entries carry the person's (createdAt, id) to de-duplicate, sort and window.
 */
export function personsFloor(input: PersonsFloorInput): FloorParts {
  const { request, authorized } = input;
  const pageInput = { authorized, persons: input.persons, byPerson: employmentsByPerson(input.records) };
  if (request.personId !== undefined) {
    // The person's partition is both the candidate read and the page read.
    return parts(0, personsPageUnits(pageInput, [request.personId]));
  }
  const scope = personsScope(request, authorized);
  const perQuery = new Map<string, number>();
  for (const { query, entryBytes } of personCandidates(input, scope))
    perQuery.set(query, (perQuery.get(query) ?? 0) + entryBytes);
  // Every Query is billed, even one that finds nothing.
  const queries = request.phone !== undefined ? ["phone"] : [...scope];
  const indexUnits = queries.reduce((sum, query) => sum + readUnits(perQuery.get(query) ?? 0), 0);
  return parts(indexUnits, personsPageUnits(pageInput, input.page));
}
