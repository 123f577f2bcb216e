/**
 * Which employments a search's filters accept. Company, name and phone filters are checked
 * together on one employment, so they always match the same employment.
 */
import { normalizeName } from "../directory/name.js";
import type { SourceEmployee } from "../directory/source.js";
import { employeeItem, type NarrowEntry, narrowEntry } from "../store/directory-items.js";

export interface EmploymentFilter {
  /** Companies an employment may belong to (the requested company, or every authorized one). */
  readonly companies: ReadonlySet<string>;
  /** Already normalized (NFKC, lower case). */
  readonly firstName?: string;
  readonly lastName?: string;
  /** Normalized 10 digits. */
  readonly phone?: string;
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

/** Stored names are normalized at load time, so matching is a plain substring test here. */
export function employmentMatches(entry: NarrowEntry, filter: EmploymentFilter): boolean {
  if (!filter.companies.has(entry.companyId)) return false;
  if (filter.phone !== undefined && entry.phone !== filter.phone) return false;
  if (filter.firstName !== undefined && !entry.firstName?.includes(filter.firstName)) return false;
  if (filter.lastName !== undefined && !entry.lastName?.includes(filter.lastName)) return false;
  return true;
}

/** The narrow view of a whole record, so full records are matched by the very same rule. */
export function narrowView(record: SourceEmployee, personCreatedAt?: string): NarrowEntry {
  return narrowEntry(employeeItem(record, personCreatedAt));
}

/** Both searches sort by createdAt, then id, ascending (plain string order on ids). */
export function compareByCreated(
  a: { createdKey: string; id: string },
  b: { createdKey: string; id: string },
): number {
  if (a.createdKey !== b.createdKey) return a.createdKey < b.createdKey ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/** An instant key within [from, before). */
export function inCreatedRange(key: string, range: { from?: string; before?: string }): boolean {
  return (
    (range.from === undefined || key >= range.from) && (range.before === undefined || key < range.before)
  );
}
