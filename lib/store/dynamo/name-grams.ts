/**
 * Name postings (docs/data-model.md, "Name postings"), pure: which trigrams a name pair is posted
 * under, the posting items, the census of how many records hold each trigram, and which trigram of
 * a filter to read. A fragment of 3 code points or more is held by a name only if every trigram of
 * it is, so the postings of any one of them hold every match; the rarest holds the fewest others.
 * Nothing here knows which partition the postings live in: a scope's partition can use it as is.
 */
import { trigramsOf } from "../../directory/name.js";
import type { EmploymentFilter, NamePair } from "../../search/matching.js";
import type { OrderKey } from "../binary-keys.js";
import { DIRECTORY_ATTR as A } from "../tables.js";
import type { Item, ItemKey } from "./batch.js";
import { compressInChunks, decompressChunks } from "./codec.js";
import { type GramField, type PartitionKey, postingSort } from "./layout.js";

/** A trigram of one of the two names. */
export interface Gram {
  readonly field: GramField;
  readonly trigram: string;
}

const FIELDS = ["firstName", "lastName"] as const satisfies readonly GramField[];

/** The postings a names entry calls for: each distinct trigram of its first name, then of its last. */
export function gramsOfPair(pair: NamePair): Gram[] {
  return FIELDS.flatMap((field) => {
    const name = pair[field];
    return name === null ? [] : trigramsOf(name).map((trigram) => ({ field, trigram }));
  });
}

/**
 * The trigrams a name filter can be answered from: each of every fragment of 3 code points or more
 * (first name first, in the fragment's order). None for shorter fragments, nor for a fragment with
 * a lone surrogate: a name can hold it without holding its trigrams (it may match half a pair).
 */
export function filterGrams(filter: Pick<EmploymentFilter, GramField>): Gram[] {
  return FIELDS.flatMap((field) => {
    const fragment = filter[field];
    if (fragment === undefined || !fragment.isWellFormed()) return [];
    return trigramsOf(fragment).map((trigram) => ({ field, trigram }));
  });
}

const keyAttributes = (key: ItemKey) => ({ [A.partition]: key.p, [A.sort]: key.s });

export const postingKey = (p: PartitionKey, gram: Gram, order: OrderKey, gen: number): ItemKey => ({
  p,
  s: postingSort(gram.field, gram.trigram, order, gen),
});

/**
 * The postings of a names entry (order key, generation, `d`): one per trigram, each carrying the
 * entry's generation and its `d` as is (the normalized pair), so a search checks the whole filter
 * on the posting, and a load that supersedes the entry knows the keys of its postings.
 */
export function postingItems(
  p: PartitionKey,
  pair: NamePair,
  order: OrderKey,
  gen: number,
  data: Uint8Array,
) {
  return gramsOfPair(pair).map(
    (gram): Item => ({ ...keyAttributes(postingKey(p, gram, order, gen)), [A.data]: data }),
  );
}

/** A compressed census is split over items of this many bytes (an item holds 400 KB). */
const CENSUS_CHUNK_BYTES = 350_000;

/** As stored: per field, [trigram, records holding it] sorted by trigram, none with 0 records. */
interface StoredCensus {
  readonly f: [string, number][];
  readonly l: [string, number][];
}

/** Per field, how many records' names hold each trigram: what a search picks the rarest by. */
export class GramCensus {
  private readonly counts = { firstName: new Map<string, number>(), lastName: new Map<string, number>() };

  /** Counts a names entry in (+1) or out (-1). */
  add(pair: NamePair, delta: 1 | -1): void {
    for (const { field, trigram } of gramsOfPair(pair)) {
      const counts = this.counts[field];
      const count = (counts.get(trigram) ?? 0) + delta;
      if (count < 0) throw new Error(`the census counts fewer than no records holding "${trigram}"`);
      if (count === 0) counts.delete(trigram);
      else counts.set(trigram, count);
    }
  }

  count(gram: Gram): number {
    return this.counts[gram.field].get(gram.trigram) ?? 0;
  }

  /** The trigram held by the fewest records; the first of `grams` on a tie. */
  rarest(grams: readonly Gram[]): Gram | undefined {
    let best: Gram | undefined;
    for (const gram of grams) if (!best || this.count(gram) < this.count(best)) best = gram;
    return best;
  }

  private stored(): StoredCensus {
    const sorted = (counts: Map<string, number>): [string, number][] =>
      [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return { f: sorted(this.counts.firstName), l: sorted(this.counts.lastName) };
  }

  /** The first trigram (first names first, then by trigram) counted differently in `other`. */
  difference(other: GramCensus): (Gram & { counted: number; held: number }) | undefined {
    for (const field of FIELDS) {
      const trigrams = new Set([...this.counts[field].keys(), ...other.counts[field].keys()]);
      for (const trigram of [...trigrams].sort()) {
        const [counted, held] = [this.count({ field, trigram }), other.count({ field, trigram })];
        if (counted !== held) return { field, trigram, counted, held };
      }
    }
    return undefined;
  }

  /** The same counts: a load writes a census only when they change. */
  equals(other: GramCensus): boolean {
    return this.difference(other) === undefined;
  }

  /** The values of a census version's items, compressed and split when large. */
  encode(chunkBytes = CENSUS_CHUNK_BYTES): Uint8Array[] {
    return compressInChunks(this.stored(), chunkBytes);
  }

  static decode(chunks: readonly Uint8Array[]): GramCensus {
    const stored = decompressChunks<StoredCensus>(chunks);
    const census = new GramCensus();
    for (const [trigram, count] of stored.f) census.counts.firstName.set(trigram, count);
    for (const [trigram, count] of stored.l) census.counts.lastName.set(trigram, count);
    return census;
  }

  static of(pairs: Iterable<NamePair>): GramCensus {
    const census = new GramCensus();
    for (const pair of pairs) census.add(pair, 1);
    return census;
  }

  copy(): GramCensus {
    const census = new GramCensus();
    for (const field of FIELDS)
      for (const [trigram, count] of this.counts[field]) census.counts[field].set(trigram, count);
    return census;
  }
}
