/**
 * The search rules, pure: which employments a search's filters accept, created ranges, and the
 * one sort order. Company, name and phone filters are checked together on one employment, so they
 * always match the same employment. Every store applies these functions; none restates them.
 */
import { instantKey } from "../directory/instant-key.js";
import { normalizeName } from "../directory/name.js";
import { normalizePhone } from "../directory/phone.js";
import type { SourceEmployee } from "../directory/source.js";

export interface EmploymentFilter {
  /** Companies an employment may belong to (the requested company, or every authorized one). */
  readonly companies: ReadonlySet<string>;
  /** Already normalized (NFKC, lower case). */
  readonly firstName?: string;
  readonly lastName?: string;
  /** Normalized 10 digits. */
  readonly phone?: string;
}

/** Normalized first and last name of an employment; null when the record has none. */
export interface NamePair {
  readonly firstName: string | null;
  readonly lastName: string | null;
}

/** What the filters look at on one employment, normalized. */
export interface EmploymentView extends NamePair {
  readonly companyId: string;
  /** Normalized 10 digits, or null when the stored phone does not normalize. */
  readonly phone: string | null;
}

/** Bounds on a createdAt, as instant keys (`lib/directory/instant-key.ts`): from inclusive, before exclusive. */
export interface CreatedRange {
  readonly from?: string;
  readonly before?: string;
}

export function employmentFilter(
  companies: Iterable<string>,
  filters: { firstName?: string | undefined; lastName?: string | undefined; phone?: string | undefined },
): EmploymentFilter {
  return {
    companies: new Set(companies),
    ...(filters.firstName === undefined ? {} : { firstName: normalizeName(filters.firstName) }),
    ...(filters.lastName === undefined ? {} : { lastName: normalizeName(filters.lastName) }),
    ...(filters.phone === undefined ? {} : { phone: filters.phone }),
  };
}

export const hasNameFilter = (filter: EmploymentFilter): boolean =>
  filter.firstName !== undefined || filter.lastName !== undefined;

/** The normalized names of a record, as stores keep them for matching. */
export function namesOf(record: SourceEmployee): NamePair {
  const { firstName, lastName } = record.demographics;
  return {
    firstName: firstName === null ? null : normalizeName(firstName),
    lastName: lastName === null ? null : normalizeName(lastName),
  };
}

/** The stored phone as 10 digits, or null when it does not normalize. */
export function phoneOf(record: SourceEmployee): string | null {
  if (record.contact.phone === null) return null;
  const phone = normalizePhone(record.contact.phone);
  return phone.ok ? phone.digits : null;
}

export function employmentView(record: SourceEmployee): EmploymentView {
  return { companyId: record.companyId, ...namesOf(record), phone: phoneOf(record) };
}

/** Stored names are normalized, so matching is a plain substring test. */
export function namesMatch(names: NamePair, filter: EmploymentFilter): boolean {
  if (filter.firstName !== undefined && !names.firstName?.includes(filter.firstName)) return false;
  if (filter.lastName !== undefined && !names.lastName?.includes(filter.lastName)) return false;
  return true;
}

export function employmentMatches(view: EmploymentView, filter: EmploymentFilter): boolean {
  if (!filter.companies.has(view.companyId)) return false;
  if (filter.phone !== undefined && view.phone !== filter.phone) return false;
  return namesMatch(view, filter);
}

/** An instant key within [from, before). */
export function inCreatedRange(key: string, range: CreatedRange): boolean {
  return (
    (range.from === undefined || key >= range.from) && (range.before === undefined || key < range.before)
  );
}

/** Both searches sort by createdAt (as an instant), then id, ascending (plain string order on ids). */
export function compareByCreated(
  a: { createdKey: string; id: string },
  b: { createdKey: string; id: string },
): number {
  if (a.createdKey !== b.createdKey) return a.createdKey < b.createdKey ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/** Records (or persons) in the searches' order. */
export function sortByCreated<T extends { createdAt: string; id: string }>(items: readonly T[]): T[] {
  return items
    .map((item) => ({ item, createdKey: instantKey(item.createdAt), id: item.id }))
    .sort(compareByCreated)
    .map(({ item }) => item);
}
