/**
 * A name query's `candidateRcu`: what one ideal Query over a trigram index would read
 * for a fragment of 3 or more characters. Such an index keys an entry by each trigram of each
 * normalized name, so a search reads the entries of the fragment's rarest trigram (and checks the
 * whole fragment on them). The candidates are the floor's (records in scope that carry the names
 * filtered on), and so are their entry bytes; the read is priced as one Query, so it grows with the
 * records sharing the trigram, not with the companies in scope. Shorter fragments have no trigram:
 * no figure, they may scan.
 */
import { normalizeName, trigramsOf } from "../directory/name.js";
import { namesOf } from "../search/matching.js";
import { type Candidate, type NameFilters, readUnits } from "./floor.js";

type NameField = "firstName" | "lastName";

/** The distinct trigrams (3 code points) of the normalized fragment, in order; none below 3. */
export const trigrams = (fragment: string): string[] => trigramsOf(normalizeName(fragment));

export interface TrigramCount {
  readonly field: NameField;
  readonly trigram: string;
  /** Candidates whose normalized name (of `field`) holds the trigram, and their entry bytes. */
  readonly records: number;
  readonly entryBytes: number;
}

/**
 * The trigram of the filtered names held by the fewest candidates (the first in the fragment's
 * order on a tie; first-name trigrams before last-name ones), or null when no fragment has one.
 */
export function rarestTrigram(candidates: Iterable<Candidate>, filters: NameFilters): TrigramCount | null {
  const counts: { field: NameField; trigram: string; records: number; entryBytes: number }[] = [];
  for (const field of ["firstName", "lastName"] as const) {
    const fragment = filters[field];
    if (fragment === undefined) continue;
    for (const trigram of trigrams(fragment)) counts.push({ field, trigram, records: 0, entryBytes: 0 });
  }
  if (counts.length === 0) return null;
  for (const { record, entryBytes } of candidates) {
    const names = namesOf(record);
    for (const count of counts) {
      if (!names[count.field]?.includes(count.trigram)) continue;
      count.records += 1;
      count.entryBytes += entryBytes;
    }
  }
  return counts.reduce((rarest, count) => (count.records < rarest.records ? count : rarest));
}

/** readUnits of the rarest trigram's entries (one Query), or null for fragments under 3 characters. */
export function candidateUnits(candidates: Iterable<Candidate>, filters: NameFilters): number | null {
  const rarest = rarestTrigram(candidates, filters);
  return rarest === null ? null : readUnits(rarest.entryBytes);
}
