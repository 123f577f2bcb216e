/**
 * Which entries a load touched in each company, so that its derive reads those and the blocks they
 * fall in rather than the company's every entry (derive-orders.ts, derive-grams.ts). A company
 * touched in more entries than a checkpoint should carry is derived whole instead.
 */
import {
  companyOfPartition,
  FAMILY,
  type ItemKey,
  isCompanyPartition,
  type KeyText,
  keyOfText,
  keyText,
} from "../model/index.js";

/** Entries one company's delta may name; past it the company is derived whole. */
export const MAX_TOUCHED_ENTRIES = 2_000;

/** The entry families a company's derive reads: key entries (its orders) and names entries (postings). */
const DERIVED_FROM: ReadonlySet<number> = new Set([
  FAMILY.employmentKey,
  FAMILY.personKey,
  FAMILY.employmentNames,
]);

/** Per company, the keys of the entries written, deleted or stamped that its derive reads. */
export function touchedEntries(keys: Iterable<ItemKey>): Map<string, KeyText[]> {
  const byCompany = new Map<string, KeyText[]>();
  for (const key of keys) {
    if (!isCompanyPartition(key.p) || !DERIVED_FROM.has(key.s[0] ?? 0)) continue;
    const company = companyOfPartition(key.p);
    const keys = byCompany.get(company) ?? [];
    keys.push(keyText(key));
    byCompany.set(company, keys);
  }
  return byCompany;
}

/**
 * The companies to derive, each with the entries the load touched there, or none: derived whole (a
 * repair, a company touched past `MAX_TOUCHED_ENTRIES`, a checkpoint of a load before deltas).
 */
export class CompaniesToDerive {
  readonly companies: Set<string>;
  private readonly touched: Map<string, Set<KeyText>>;

  constructor(companies: readonly string[] = [], touched: Readonly<Record<string, readonly string[]>> = {}) {
    this.companies = new Set(companies);
    this.touched = new Map(
      Object.entries(touched)
        .filter(([company]) => this.companies.has(company))
        .map(([company, keys]) => [company, new Set(keys as readonly KeyText[])]),
    );
  }

  /** Notes a chunk's touched entries; a company first seen here is derived by them. */
  note(touched: ReadonlyMap<string, readonly KeyText[]>): void {
    for (const [company, keys] of touched) {
      const known = this.touched.get(company);
      if (!this.companies.has(company)) {
        this.companies.add(company);
        this.touched.set(company, new Set(keys));
      } else if (known) for (const key of keys) known.add(key);
      if ((this.touched.get(company)?.size ?? 0) > MAX_TOUCHED_ENTRIES) this.touched.delete(company);
    }
  }

  /** A company derived whole, whatever was noted of it. */
  whole(company: string): void {
    this.companies.add(company);
    this.touched.delete(company);
  }

  /** The entries touched in a company, or undefined when it is derived whole. */
  touchedIn(company: string): ItemKey[] | undefined {
    const keys = this.touched.get(company);
    return keys && [...keys].map(keyOfText);
  }

  done(company: string): void {
    this.companies.delete(company);
    this.touched.delete(company);
  }

  /** As a checkpoint holds it. */
  touchedRecord(): Record<string, string[]> {
    return Object.fromEntries([...this.touched].map(([company, keys]) => [company, [...keys]]));
  }
}
