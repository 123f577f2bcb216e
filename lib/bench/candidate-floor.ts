/**
 * A name query's `candidateRcu`: what one ideal Query over a gram index would read. Such an index
 * keys an entry by each gram (trigram, bigram, code point) of each normalized name, so a search
 * reads the entries of the fragment's rarest trigram, or of the fragment itself when it is of 1 or
 * 2 characters (and checks the whole filter on them). The candidates are the floor's (records in
 * scope that carry the names filtered on), and so are their entry bytes; the read is priced as one
 * Query, so it grows with the records sharing the gram, not with the companies in scope.
 */
import { gramsOfSize, normalizeName } from "../directory/name.js";
import { namesOf } from "../search/matching.js";
import { type Candidate, type NameFilters, readUnits } from "./floor.js";

type NameField = "firstName" | "lastName";

/**
 * The grams the normalized fragment is read by, in order: its distinct trigrams (3 code points),
 * or the fragment itself when shorter.
 */
export function grams(fragment: string): string[] {
  const normalized = normalizeName(fragment);
  return gramsOfSize(normalized, Math.min(3, [...normalized].length) || 1);
}

export interface GramCount {
  readonly field: NameField;
  readonly gram: string;
  /** Candidates whose normalized name (of `field`) holds the gram, and their entry bytes. */
  readonly records: number;
  readonly entryBytes: number;
}

/**
 * The gram of the filtered names held by the fewest candidates (the first in the fragment's order
 * on a tie; first-name grams before last-name ones), or null when no name is filtered.
 */
export function rarestGram(candidates: Iterable<Candidate>, filters: NameFilters): GramCount | null {
  const counts: { field: NameField; gram: string; records: number; entryBytes: number }[] = [];
  for (const field of ["firstName", "lastName"] as const) {
    const fragment = filters[field];
    if (fragment === undefined) continue;
    for (const gram of grams(fragment)) counts.push({ field, gram, records: 0, entryBytes: 0 });
  }
  if (counts.length === 0) return null;
  for (const { record, entryBytes } of candidates) {
    const names = namesOf(record);
    for (const count of counts) {
      if (!names[count.field]?.includes(count.gram)) continue;
      count.records += 1;
      count.entryBytes += entryBytes;
    }
  }
  return counts.reduce((rarest, count) => (count.records < rarest.records ? count : rarest));
}

/** readUnits of the rarest gram's entries (one Query), or null when no name is filtered. */
export function candidateUnits(candidates: Iterable<Candidate>, filters: NameFilters): number | null {
  const rarest = rarestGram(candidates, filters);
  return rarest === null ? null : readUnits(rarest.entryBytes);
}
