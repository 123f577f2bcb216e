/**
 * The floor: the read capacity the cheapest possible design must spend on a query, computed from
 * the source records (docs/performance.md states the formula and why each term is there).
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

interface NameFilters {
  firstName?: string | undefined;
  lastName?: string | undefined;
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

/**
 * Employees of one company. Exact filters (person, phone) are key conditions of an ideal index,
 * so only records carrying that value are read; otherwise every record of the company in the
 * created range is (the range is a key condition too: the sort key starts with the instant).
 */
export function employeesFloor(
  request: EmployeesSearchRequest,
  records: readonly SourceEmployee[],
  page: readonly SourceEmployee[],
): FloorParts {
  const { companyId, personId, phone } = request;
  const range = createdRange(request);
  const company = utf8(companyId);
  let entries = 0;
  for (const record of records) {
    if (record.companyId !== companyId || !inCreatedRange(instantKey(record.createdAt), range)) continue;
    let key: number;
    if (personId !== undefined) {
      if (record.personId !== personId) continue;
      key = attribute(FLOOR_BYTES.uuid) + attribute(company + ORDER_KEY);
    } else if (phone !== undefined) {
      if (phoneOf(record) !== phone) continue;
      key = attribute(FLOOR_BYTES.phone) + attribute(company + ORDER_KEY);
    } else key = attribute(company) + attribute(ORDER_KEY);
    const names = nameBytes(record, request);
    if (names !== null) entries += key + names;
  }
  const sizes = page.map(recordBytes);
  // With no name filter the page is a run of consecutive keys: one Query can read it whole.
  // A name filter scatters the page, so each record is fetched on its own (BatchGetItem).
  const scattered = request.firstName !== undefined || request.lastName !== undefined;
  const pageUnits =
    sizes.length === 0 ? 0 : scattered ? itemByItemUnits(sizes) : readUnits(sizes.reduce((a, b) => a + b, 0));
  return parts(readUnits(entries), pageUnits);
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

/** A person with every employment the key may read: one partition, one Query. */
function personBytes(input: PersonsFloorInput, id: string, byPerson: Map<string, SourceEmployee[]>): number {
  const person = input.persons.get(id);
  const employments = (byPerson.get(id) ?? []).filter((record) => input.authorized.has(record.companyId));
  return (
    (person ? recordBytes(person) : 0) + employments.reduce((sum, record) => sum + recordBytes(record), 0)
  );
}

/**
 * Persons. Candidates are employments with a person, in the scope (one company, or every company
 * the key may read). A phone is a key condition (one Query); a person id is read whole, with the
 * page, by one Query of its partition; otherwise one Query per company in scope reads every
 * linked employment. Entries carry the person's (createdAt, id) to de-duplicate, sort and window.
 */
export function personsFloor(input: PersonsFloorInput): FloorParts {
  const { request, authorized, records, persons } = input;
  const byPerson = new Map<string, SourceEmployee[]>();
  for (const record of records) {
    if (record.personId === null) continue;
    const list = byPerson.get(record.personId) ?? [];
    list.push(record);
    byPerson.set(record.personId, list);
  }
  const pageUnits = input.page.reduce((sum, id) => sum + readUnits(personBytes(input, id, byPerson)), 0);
  if (request.personId !== undefined) {
    // The person's partition is both the candidate read and the page read.
    return parts(0, readUnits(personBytes(input, request.personId, byPerson)));
  }
  const scope = new Set(request.companyId === undefined ? authorized : [request.companyId]);
  const range = createdRange(request);
  const perQuery = new Map<string, number>();
  for (const record of records) {
    if (record.personId === null || !scope.has(record.companyId)) continue;
    const person = persons.get(record.personId);
    if (!person || !inCreatedRange(instantKey(person.createdAt), range)) continue;
    const company = utf8(record.companyId);
    let key: number;
    let query: string;
    if (request.phone !== undefined) {
      if (phoneOf(record) !== request.phone) continue;
      key = attribute(FLOOR_BYTES.phone) + attribute(company + ORDER_KEY);
      query = "phone";
    } else {
      key = attribute(company) + attribute(ORDER_KEY);
      query = record.companyId;
    }
    const names = nameBytes(record, request);
    if (names !== null) perQuery.set(query, (perQuery.get(query) ?? 0) + key + names);
  }
  // Every Query is billed, even one that finds nothing.
  const queries = request.phone !== undefined ? ["phone"] : [...scope];
  const indexUnits = queries.reduce((sum, query) => sum + readUnits(perQuery.get(query) ?? 0), 0);
  return parts(indexUnits, pageUnits);
}
