/**
 * Name postings (docs/data-model.md, "Name postings"), pure: which grams a name pair is posted
 * under, the posting items, the census of how many holders hold each gram, and which gram of a
 * filter to read. A fragment is held by a name only if every run of its length n (its n-grams) is,
 * so the postings of any one of them hold every match; the rarest holds the fewest others. Postings
 * are of every gram of 1 to 3 code points (`GRAM_SIZES`), so a fragment of any length is answered
 * from them. Nothing here knows which partition (a company's, a kept scope's) they live in.
 */
import { gramsOfSize } from "../../../directory/name.js";
import type { EmploymentFilter, NamePair } from "../../../search/matching.js";
import type { OrderKey } from "../../binary-keys.js";
import { compareText } from "../../bytes.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { Item, ItemKey } from "../model/index.js";
import {
  compressInParts,
  decompressParts,
  type GramField,
  gramCensusSort,
  type PartitionKey,
  postingSort,
} from "../model/index.js";

/** A gram of one of the two names: a run of 1 to 3 code points of it (a posting's key says its length). */
export interface Gram {
  readonly field: GramField;
  readonly text: string;
}

/** A gram as a map key. */
export const gramId = ({ field, text }: Gram): string => `${field}\u0000${text}`;

/**
 * The gram lengths postings are of, longest first: trigrams, bigrams and single code points, so
 * a fragment of 1 or 2 characters reads its own gram's postings, counted in the census, as a
 * longer one reads its rarest trigram's.
 */
const GRAM_SIZES = [3, 2, 1] as const;

const FIELDS = ["firstName", "lastName"] as const satisfies readonly GramField[];

/**
 * The postings a holder calls for (a record by its pair, a person by their pairs in a scope's
 * companies): each distinct gram of each size of any of their first names, then of their last
 * names (longest first).
 */
export function gramsOfPairs(pairs: readonly NamePair[]): Gram[] {
  return FIELDS.flatMap((field) =>
    GRAM_SIZES.flatMap((size) => {
      const grams = new Set<string>();
      for (const pair of pairs) {
        const name = pair[field];
        if (name !== null) for (const gram of gramsOfSize(name, size)) grams.add(gram);
      }
      return [...grams].map((text) => ({ field, text }));
    }),
  );
}

/** The postings a names entry calls for: each distinct gram of its first name, then of its last. */
export const gramsOfPair = (pair: NamePair): Gram[] => gramsOfPairs([pair]);

/**
 * The grams a name filter can be answered from: for each fragment (first name first), every gram of
 * the longest size it reaches, in the fragment's order: trigrams from 3 code points, else the
 * fragment itself (its one bigram or single code point). None for a fragment with a lone
 * surrogate: a name can hold it without holding its grams (it may match half a pair).
 */
export function filterGrams(filter: Pick<EmploymentFilter, GramField>): Gram[] {
  return FIELDS.flatMap((field) => {
    const fragment = filter[field];
    if (fragment === undefined || !fragment.isWellFormed()) return [];
    const length = [...fragment].length;
    const size = GRAM_SIZES.find((n) => n <= length);
    return size === undefined ? [] : gramsOfSize(fragment, size).map((text) => ({ field, text }));
  });
}

const keyAttributes = (key: ItemKey) => ({ [A.partition]: key.p, [A.sort]: key.s });

export const postingKey = (p: PartitionKey, gram: Gram, order: OrderKey, gen: number): ItemKey => ({
  p,
  s: postingSort(gram.field, gram.text, order, gen),
});

/**
 * The postings of a holder (order key, generation, `d`): one per gram, each carrying the holder's
 * generation and its `d` as is (the normalized pairs), so a search checks the whole filter on the
 * posting, and a load that supersedes the holder knows the keys of its postings.
 */
export function postingItems(
  p: PartitionKey,
  grams: readonly Gram[],
  order: OrderKey,
  gen: number,
  data: Uint8Array,
) {
  return grams.map((gram): Item => ({ ...keyAttributes(postingKey(p, gram, order, gen)), [A.data]: data }));
}

/** The keys of a census version's items. */
export const censusKeys = (p: PartitionKey, gen: number, parts: number): ItemKey[] =>
  Array.from({ length: parts }, (_, part) => ({ p, s: gramCensusSort(gen, part) }));

/** A census version's items, at generation `gen`. */
export function censusItems(p: PartitionKey, gen: number, census: GramCensus): Item[] {
  const parts = census.encode();
  return parts.map((data, part) => ({
    ...keyAttributes({ p, s: gramCensusSort(gen, part) }),
    [A.data]: data,
    [A.parts]: parts.length,
  }));
}

/** A compressed census is split over items of this many bytes (an item holds 400 KB). */
const CENSUS_PART_BYTES = 350_000;

/** As stored: per field, [gram, records holding it] sorted by gram, none with 0 records. */
interface StoredCensus {
  readonly f: [string, number][];
  readonly l: [string, number][];
}

/**
 * Per field, how many holders (records in a company, persons in a scope) have a name holding each
 * gram: what a search picks the rarest by.
 */
export class GramCensus {
  private readonly counts = { firstName: new Map<string, number>(), lastName: new Map<string, number>() };

  /** Counts a holder in (+1) or out (-1), by the grams its names call for (`gramsOfPairs`). */
  add(grams: readonly Gram[], delta: 1 | -1): void {
    for (const { field, text } of grams) {
      const counts = this.counts[field];
      const count = (counts.get(text) ?? 0) + delta;
      if (count < 0) throw new Error(`the census counts fewer than no records holding "${text}"`);
      if (count === 0) counts.delete(text);
      else counts.set(text, count);
    }
  }

  count(gram: Gram): number {
    return this.counts[gram.field].get(gram.text) ?? 0;
  }

  /** Each gram counted, and how many hold it. */
  *grams(): Generator<[Gram, number]> {
    for (const field of FIELDS)
      for (const [text, count] of this.counts[field]) yield [{ field, text }, count];
  }

  /** The gram held by the fewest records; the first of `grams` on a tie. */
  rarest(grams: readonly Gram[]): Gram | undefined {
    let best: Gram | undefined;
    for (const gram of grams) if (!best || this.count(gram) < this.count(best)) best = gram;
    return best;
  }

  private stored(): StoredCensus {
    const sorted = (counts: Map<string, number>): [string, number][] =>
      [...counts].sort(([a], [b]) => compareText(a, b));
    return { f: sorted(this.counts.firstName), l: sorted(this.counts.lastName) };
  }

  /** The first gram (first names first, then by gram) counted differently in `other`. */
  difference(other: GramCensus): (Gram & { counted: number; held: number }) | undefined {
    for (const field of FIELDS) {
      const texts = new Set([...this.counts[field].keys(), ...other.counts[field].keys()]);
      for (const text of [...texts].sort()) {
        const [counted, held] = [this.count({ field, text }), other.count({ field, text })];
        if (counted !== held) return { field, text, counted, held };
      }
    }
    return undefined;
  }

  /** The same counts: a load writes a census only when they change. */
  equals(other: GramCensus): boolean {
    return this.difference(other) === undefined;
  }

  /** The values of a census version's items, compressed and split when large. */
  encode(partBytes = CENSUS_PART_BYTES): Uint8Array[] {
    return compressInParts(this.stored(), partBytes);
  }

  static decode(parts: readonly Uint8Array[]): GramCensus {
    const stored = decompressParts<StoredCensus>(parts);
    const census = new GramCensus();
    for (const [text, count] of stored.f) census.counts.firstName.set(text, count);
    for (const [text, count] of stored.l) census.counts.lastName.set(text, count);
    return census;
  }

  /** The census of these holders, each by its grams. */
  static of(holders: Iterable<readonly Gram[]>): GramCensus {
    const census = new GramCensus();
    for (const grams of holders) census.add(grams, 1);
    return census;
  }

  copy(): GramCensus {
    const census = new GramCensus();
    for (const field of FIELDS)
      for (const [text, count] of this.counts[field]) census.counts[field].set(text, count);
    return census;
  }
}

/** A census version as stored: its counts, generation and number of parts. */
export interface StoredGramCensus {
  readonly census: GramCensus;
  readonly gen: number;
  readonly parts: number;
}
