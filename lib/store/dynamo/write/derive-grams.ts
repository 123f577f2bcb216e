/**
 * A load's name postings (name-grams.ts), derived before the flip for each company whose entries it
 * changed. The names entries it touched there are read raw, by key (or, posting whole, all of the
 * company's, page by page): versions written at the load's generation and versions it stamped
 * included. Where the postings were complete at the committed generation (a marker is visible
 * there), the new versions add their postings and the stamped ones have theirs stamped too (a
 * posting carries its entry's generation, so its key is known). Where they were not (a new
 * company, a repair, a marker deleted), every names entry visible at the load's generation is
 * posted, any other posting superseded, and the marker written. The census is written when its
 * counts change, and the gram blocks that count the postings follow them (derive-gram-blocks.ts): counted
 * up and down a posting at a time, or cut anew when posted whole. Every write goes through the
 * journal, and running it again writes the same.
 */

import type { NamePair } from "../../../search/matching.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  ALL_POSTINGS,
  batchGet,
  betweenQuery,
  bytesOf,
  companyItemVisible,
  companyPartition,
  decodeNamePairs,
  emptyValue,
  FAMILY,
  familyRange,
  type Generation,
  genOf,
  gramMarkerSort,
  type Item,
  type ItemKey,
  isGramBlockSort,
  keyText,
  orderOfSort,
  type PartitionKey,
  postingOfSort,
  queryPages,
  type SortKey,
  Writes,
} from "../model/index.js";
import type { StoredGramCensus } from "../structures/index.js";
import {
  censusItems,
  censusKeys,
  GramBlockCutter,
  GramCensus,
  GramDeltas,
  gramsOfPair,
  postingItems,
  postingKey,
} from "../structures/index.js";
import type { ChunkContext } from "./chunk-context.js";
import { gramBlockWrites, wholeGramBlockWrites } from "./derive-gram-blocks.js";
import { writeInPieces } from "./derive-orders.js";
import type { ChunkWriter } from "./load-chunk.js";
import { rewritesOfStored } from "./rewrites.js";

/** Items of a partition between two sort keys, every version, a page at a time (strongly consistent). */
function rawPages(context: ChunkContext, p: PartitionKey, range: { low: SortKey; high: SortKey }) {
  return queryPages(context.client, betweenQuery(context.table, { p, ...range }, true));
}

/**
 * What the load does to a names entry's postings: +1 posts them, -1 stamps them, 0 leaves them.
 * `covered`: the postings were complete at the committed generation.
 */
function changeOf(item: Item, at: Generation, covered: boolean): 1 | -1 | 0 {
  const { gen } = at;
  if (!covered) return companyItemVisible(item, at) ? 1 : 0;
  if (genOf(bytesOf(item[A.sort])) === gen) return 1;
  return item[A.supersededAt] === gen ? -1 : 0;
}

/**
 * What a company's derive works on: its partition, whether it was covered, its census so far and,
 * when it is posted whole, the names of the entries posted (by order key and generation); the
 * changes its gram blocks count (covered), or the blocks cut (posted whole).
 */
interface GramWork extends Generation {
  readonly p: PartitionKey;
  readonly covered: boolean;
  readonly census: GramCensus;
  readonly posted: Map<string, NamePair>;
  readonly deltas: GramDeltas;
  readonly cutter: GramBlockCutter;
}

/**
 * The posting writes of a page of names entries; counts them into the census. Postings of entries
 * of earlier generations (posted whole) may be stored already: they are rewritten where they are
 * (`inPlace`, rewrites.ts).
 */
function pageWrites(work: GramWork, page: readonly Item[]): { writes: Writes; inPlace: Item[] } {
  const { p, gen, covered, census } = work;
  const writes = new Writes(gen);
  const inPlace: Item[] = [];
  for (const item of page) {
    const change = changeOf(item, work, covered);
    if (change === 0) continue;
    const sort = bytesOf(item[A.sort]);
    const [order, entryGen, data] = [orderOfSort(sort), genOf(sort), bytesOf(item[A.data])];
    const [pair] = decodeNamePairs(data);
    if (!pair) throw new Error("a names entry holds no names");
    const grams = gramsOfPair(pair);
    census.add(grams, change);
    if (covered) work.deltas.add([pair], order, change);
    else {
      work.posted.set(`${order}${entryGen}`, pair);
      // Posted whole: the entries come in order, so the blocks are cut as they go.
      work.cutter.add([pair], order);
    }
    if (change === -1)
      writes.supersede(
        grams.map((gram) => postingKey(p, gram, order, entryGen)),
        entryGen,
      );
    else if (entryGen === gen)
      for (const posting of postingItems(p, grams, order, entryGen, data)) writes.put(posting);
    else inPlace.push(...postingItems(p, grams, order, entryGen, data));
  }
  return { writes, inPlace };
}

/**
 * A company posted whole: the postings visible at the load's generation that no entry posted calls
 * for (left by a repair, or by anything else that wrote postings without a marker) are superseded,
 * so that the marker vouches for exactly what the names entries say; and every visible gram block,
 * since the blocks are written anew.
 */
function strayWrites(work: GramWork, page: readonly Item[]): Writes {
  const writes = new Writes(work.gen);
  for (const item of page) {
    if (!companyItemVisible(item, work)) continue;
    const sort = bytesOf(item[A.sort]);
    if (isGramBlockSort(sort)) {
      writes.supersede([{ p: work.p, s: sort as SortKey }], genOf(sort));
      continue;
    }
    const { field, text, order } = postingOfSort(sort);
    const gen = genOf(sort);
    const pair = work.posted.get(`${order}${gen}`);
    if (!pair || !gramsOfPair(pair).some((gram) => gram.field === field && gram.text === text))
      writes.supersede([{ p: work.p, s: sort as SortKey }], gen);
  }
  return writes;
}

/**
 * The census when its counts changed (the stored one superseded), and the marker when new, beside
 * the gram blocks' `writes` (one journal entry, when they fit). A company left without names keeps
 * neither: both are superseded, as a first load would not write them.
 */
function censusWrites(
  work: GramWork,
  stored: StoredGramCensus | undefined,
  markerGen: number | undefined,
  writes: Writes,
): Writes {
  const { p, gen, covered, census } = work;
  if (census.grams().next().done) {
    if (stored) writes.supersede(censusKeys(p, stored.gen, stored.parts), stored.gen);
    if (markerGen !== undefined) writes.supersede([{ p, s: gramMarkerSort(markerGen) }], markerGen);
    return writes;
  }
  if (!stored || !census.equals(stored.census)) {
    if (stored) writes.supersede(censusKeys(p, stored.gen, stored.parts), stored.gen);
    for (const item of censusItems(p, gen, census)) writes.put(item);
  }
  // From the flip on, searches of this company read its postings.
  if (!covered) writes.put({ [A.partition]: p, [A.sort]: gramMarkerSort(gen), [A.data]: emptyValue() });
  return writes;
}

/**
 * The company's names entries whose postings the load may change: those it touched (every version
 * of them it put, stamped or deleted), read by key, when given; else every version there is, a page
 * at a time.
 */
async function* namesEntries(
  context: ChunkContext,
  p: PartitionKey,
  touched: readonly ItemKey[] | undefined,
): AsyncGenerator<readonly Item[]> {
  if (!touched) {
    yield* rawPages(context, p, familyRange(FAMILY.employmentNames, undefined, undefined));
    return;
  }
  const keys = touched.filter((key) => key.s[0] === FAMILY.employmentNames);
  const found = await batchGet(context.client, context.table, keys, true);
  yield keys.flatMap((key): Item[] => {
    const item = found.get(keyText(key));
    return item ? [item] : [];
  });
}

/**
 * Brings a company's name postings, census and marker up to date with the load: by the names
 * entries it touched there (`touched`), or by every one (undefined, or postings not complete).
 */
export async function deriveCompanyGrams(
  context: ChunkContext,
  writer: ChunkWriter,
  companyId: string,
  touched?: readonly ItemKey[],
): Promise<void> {
  const { gen } = context;
  const p = companyPartition(companyId);
  const committed = { gen: context.committed, abandoned: context.abandoned, consistent: true };
  const [marker, stored] = context.rebuild
    ? [undefined, undefined]
    : await Promise.all([context.reads.grams.marker(p, committed), context.reads.grams.census(p, committed)]);
  const covered = marker !== undefined;
  if (covered && !stored) throw new Error(`company ${companyId} has a postings marker but no names census`);
  const census = covered && stored ? stored.census.copy() : new GramCensus();
  const work: GramWork = {
    p,
    gen,
    abandoned: context.abandoned,
    covered,
    census,
    posted: new Map(),
    deltas: new GramDeltas(),
    cutter: new GramBlockCutter(context.gramBlocks),
  };
  for await (const page of namesEntries(context, p, covered ? touched : undefined)) {
    const { writes, inPlace } = pageWrites(work, page);
    await rewritesOfStored(context, writes, inPlace);
    await writeInPieces(writer, writes);
  }
  if (!covered)
    for await (const page of rawPages(context, p, ALL_POSTINGS))
      await writeInPieces(writer, strayWrites(work, page));
  // Covered: the blocks as committed, counted by the changes (the census was read there too).
  const blocks =
    covered && stored
      ? await gramBlockWrites(context, p, work.deltas, stored.census, { stored: committed, written: true })
      : wholeGramBlockWrites(gen, p, work.cutter);
  await writeInPieces(writer, censusWrites(work, stored, marker?.gen, blocks));
}
