/**
 * How persons and employee records are laid out as items of the directory table (see
 * docs/data-model.md). Employee items carry a few short, normalized attributes for the narrow
 * indexes and the whole source record as JSON in `d`, which only the page's records are read for.
 */
import { instantKey } from "../directory/instant-key.js";
import { normalizeName } from "../directory/name.js";
import { normalizePhone } from "../directory/phone.js";
import type { SourceEmployee, SourcePerson } from "../directory/source.js";
import { DIRECTORY_ATTR as A } from "./tables.js";

export type DirectoryItem = Record<string, unknown>;

/** Sort key of the person item: sorts before every employment (company ids start with [A-Za-z0-9._-]). */
export const PERSON_SORT_KEY = "#";
/** Partition of an employee record with no person: can never collide with a person id (a uuid). */
export const UNLINKED_PREFIX = "~";

export interface ItemKey {
  readonly partition: string;
  readonly sort: string;
}

/** `companyId#createdAtKey#employeeId`: within a company, sorted by createdAt, then id. */
export function employmentSortKey(companyId: string, createdAt: string, employeeId: string): string {
  return `${companyId}#${instantKey(createdAt)}#${employeeId}`;
}

export function personItem(person: SourcePerson): DirectoryItem {
  return { [A.partition]: person.id, [A.sort]: PERSON_SORT_KEY, [A.data]: JSON.stringify(person) };
}

export function employeeItem(record: SourceEmployee, personCreatedAt: string | undefined): DirectoryItem {
  const { firstName, lastName } = record.demographics;
  const phone = record.contact.phone === null ? undefined : normalizePhone(record.contact.phone);
  return {
    [A.partition]: record.personId ?? `${UNLINKED_PREFIX}${record.id}`,
    [A.sort]: employmentSortKey(record.companyId, record.createdAt, record.id),
    [A.company]: record.companyId,
    ...(phone?.ok ? { [A.phone]: phone.digits } : {}),
    ...(firstName === null ? {} : { [A.firstName]: normalizeName(firstName) }),
    ...(lastName === null ? {} : { [A.lastName]: normalizeName(lastName) }),
    ...(personCreatedAt === undefined ? {} : { [A.personCreated]: instantKey(personCreatedAt) }),
    [A.data]: JSON.stringify(record),
  };
}

/** An employment as the narrow indexes hold it: enough to match, de-duplicate, sort and window. */
export interface NarrowEntry extends ItemKey {
  readonly companyId: string;
  readonly createdKey: string;
  readonly employeeId: string;
  /** Null for an employee record with no person. */
  readonly personId: string | null;
  readonly personCreatedKey: string | null;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly phone: string | null;
}

const optionalString = (value: unknown): string | null => (typeof value === "string" ? value : null);

export function narrowEntry(item: DirectoryItem): NarrowEntry {
  const partition = String(item[A.partition]);
  const sort = String(item[A.sort]);
  const [companyId = "", createdKey = "", employeeId = ""] = sort.split("#");
  return {
    partition,
    sort,
    companyId,
    createdKey,
    employeeId,
    personId: partition.startsWith(UNLINKED_PREFIX) ? null : partition,
    personCreatedKey: optionalString(item[A.personCreated]),
    firstName: optionalString(item[A.firstName]),
    lastName: optionalString(item[A.lastName]),
    phone: optionalString(item[A.phone]),
  };
}

/** The stored source record. Records were validated when loaded, so they are trusted here. */
export function employeeFromItem(item: DirectoryItem): SourceEmployee {
  return JSON.parse(String(item[A.data])) as SourceEmployee;
}

export function personFromItem(item: DirectoryItem): SourcePerson {
  return JSON.parse(String(item[A.data])) as SourcePerson;
}

export function isPersonItem(item: DirectoryItem): boolean {
  return item[A.sort] === PERSON_SORT_KEY;
}
