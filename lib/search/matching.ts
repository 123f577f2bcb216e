/**
 * Which employments a search's filters accept. Company, name and phone filters are checked
 * together on one employment, so they always match the same employment.
 */
import { normalizeName } from "../directory/name.js";
import { instantOrderPrefix, type OrderKey } from "../store/binary-keys.js";
import type { NamePair, NarrowEntry } from "../store/directory-items.js";

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
export function namesMatch(names: NamePair, filter: EmploymentFilter): boolean {
  if (filter.firstName !== undefined && !names.firstName?.includes(filter.firstName)) return false;
  if (filter.lastName !== undefined && !names.lastName?.includes(filter.lastName)) return false;
  return true;
}

export function employmentMatches(entry: NarrowEntry, filter: EmploymentFilter): boolean {
  if (!filter.companies.has(entry.companyId)) return false;
  if (filter.phone !== undefined && entry.phone !== filter.phone) return false;
  return namesMatch(entry, filter);
}

export { narrowView } from "../store/directory-items.js";

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

/** A created range as order-key bounds: keys at or after `from`, and before `before`. */
export function orderRange(range: { from?: string; before?: string }): {
  from?: OrderKey;
  before?: OrderKey;
} {
  return {
    ...(range.from === undefined ? {} : { from: instantOrderPrefix(range.from) }),
    ...(range.before === undefined ? {} : { before: instantOrderPrefix(range.before) }),
  };
}

export function inOrderRange(order: OrderKey, range: { from?: OrderKey; before?: OrderKey }): boolean {
  return (
    (range.from === undefined || order >= range.from) && (range.before === undefined || order < range.before)
  );
}
