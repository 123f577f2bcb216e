/**
 * A load's name postings (name-grams.ts), derived before the flip for each company whose entries it
 * changed. The names entries it touched there are read raw, by key (or, posting whole, all of the
 * company's, page by page): versions written at the load's generation and versions it stamped
 * included. Where the postings were complete at the committed generation (a marker is visible
 * there), the new versions add their postings and the stamped ones remove theirs, in the posting
 * pages that hold them (posting-pages.ts): only those pages are read and written again, each new
 * version replacing the stored one unstamped (readers take the newest). Where they were not (a new company, a repair, a marker deleted), every names entry visible at the load's
 * generation is posted in pages cut anew, any other page superseded, and the marker written. The
 * census is written when its counts change, and the gram blocks that count the postings follow
 * them (derive-gram-blocks.ts): counted up and down a posting at a time, or cut anew when posted
 * whole. Every write goes through the journal, and running it again writes the same.
 */

import type { OrderKey } from "../../binary-keys.js";
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
  inParallel,
  isGramBlockSort,
  keyText,
  orderOfSort,
  type PagedPosting,
  type PartitionKey,
  postingSort,
  queryPages,
  type ReadAt,
  type SortKey,
  Writes,
} from "../model/index.js";
import type { StoredGramCensus } from "../structures/index.js";
import {
  censusItems,
  censusKeys,
  type Gram,
  GramBlockCutter,
  GramCensus,
  GramDeltas,
  gramId,
  gramsOfPair,
  type PostingChange,
  PostingPageCutter,
  pageRoom,
  planPageChanges,
  postingPageItem,
} from "../structures/index.js";
import type { ChunkContext } from "./chunk-context.js";
import { gramBlockWrites, wholeGramBlockWrites } from "./derive-gram-blocks.js";
import { writeInPieces } from "./derive-orders.js";
import type { ChunkWriter } from "./load-chunk.js";

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
 * What a company's derive works on: its partition, whether it was covered, its census so far; when
 * covered, the changes of each gram's postings (to its pages) and of its blocks; when posted whole,
 * the pages and blocks cut as the entries come.
 */
interface GramWork extends Generation {
  readonly p: PartitionKey;
  readonly covered: boolean;
  readonly census: GramCensus;
  readonly changes: Map<string, { readonly gram: Gram; readonly changes: PostingChange[] }>;
  readonly deltas: GramDeltas;
  readonly pages: PostingPageCutter;
  readonly cutter: GramBlockCutter;
}

/** A covered company: a names entry's postings added or removed, noted by gram for its pages. */
function noteChanges(work: GramWork, grams: readonly Gram[], posting: PagedPosting, change: 1 | -1): void {
  for (const gram of grams) {
    const id = gramId(gram);
    const changes = work.changes.get(id) ?? { gram, changes: [] };
    work.changes.set(id, changes);
    changes.changes.push({ posting, change });
  }
}

/**
 * A page of names entries counted into the census and the blocks, their postings' changes noted
 * (covered), or their postings cut into pages (posted whole): the full pages' writes.
 */
function pageWrites(work: GramWork, page: readonly Item[]): Writes {
  const { p, gen, covered, census } = work;
  const writes = new Writes(gen);
  for (const item of page) {
    const change = changeOf(item, work, covered);
    if (change === 0) continue;
    const sort = bytesOf(item[A.sort]);
    const posting = { order: orderOfSort(sort), gen: genOf(sort), pairs: bytesOf(item[A.data]) };
    const [pair] = decodeNamePairs(posting.pairs);
    if (!pair) throw new Error("a names entry holds no names");
    const grams = gramsOfPair(pair);
    census.add(grams, change);
    if (covered) {
      work.deltas.add([pair], posting.order, change);
      noteChanges(work, grams, posting, change);
      continue;
    }
    // Posted whole: the entries come in order, so pages and blocks are cut as they go.
    work.cutter.add([pair], posting.order);
    for (const gram of grams) {
      const full = work.pages.add(gram, posting);
      if (full) writes.put(postingPageItem(p, full.gram, full.page, gen));
    }
  }
  return writes;
}

/** A company posted whole: the pages not yet full. */
function lastPageWrites(work: GramWork): Writes {
  const writes = new Writes(work.gen);
  for (const { gram, page } of work.pages.rest()) writes.put(postingPageItem(work.p, gram, page, work.gen));
  return writes;
}

/**
 * A company posted whole: every page and gram block visible at the load's generation that it did
 * not write is superseded (left by a repair, a dead load or anything else that wrote them without a
 * marker), so that the marker vouches for exactly what the names entries say.
 */
function strayWrites(work: GramWork, page: readonly Item[]): Writes {
  const writes = new Writes(work.gen);
  for (const item of page) {
    if (!companyItemVisible(item, work)) continue;
    const sort = bytesOf(item[A.sort]);
    if (isGramBlockSort(sort) || genOf(sort) !== work.gen)
      writes.supersede([{ p: work.p, s: sort as SortKey }], genOf(sort));
  }
  return writes;
}

/** Grams whose pages are read and rewritten at once. */
const GRAMS_IN_FLIGHT = 16;

/**
 * A covered company: each changed gram's pages read as committed (those holding its changes), the
 * changes applied (posting-pages.ts), the pages changed put and the ones they replace superseded.
 */
async function changedPageWrites(context: ChunkContext, work: GramWork, at: ReadAt): Promise<Writes> {
  const writes = new Writes(work.gen);
  const grams = [...work.changes.values()];
  const plans = await inParallel(grams, GRAMS_IN_FLIGHT, async ({ gram, changes }) => {
    const orders = changes.map(({ posting }) => posting.order).sort();
    const stored = await context.reads.grams.pagesAround(
      work.p,
      gram,
      orders[0] as OrderKey,
      orders.at(-1) as OrderKey,
      at,
    );
    return { gram, plan: planPageChanges(stored, changes, pageRoom(work.p, gram)) };
  });
  for (const { gram, plan } of plans) {
    writes.retireByLow(plan.superseded, plan.written, (page) => ({
      p: work.p,
      s: postingSort(gram.field, gram.text, page.low, page.gen),
    }));
    for (const page of plan.written) writes.put(postingPageItem(work.p, gram, page, work.gen));
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
    // Readers take the newest census: the one before stays unstamped until the clean-up.
    if (stored) writes.replace(censusKeys(p, stored.gen, stored.parts), stored.gen);
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
    changes: new Map(),
    deltas: new GramDeltas(),
    pages: new PostingPageCutter(p),
    cutter: new GramBlockCutter(context.gramBlocks),
  };
  for await (const page of namesEntries(context, p, covered ? touched : undefined))
    await writeInPieces(writer, pageWrites(work, page));
  if (covered) await writeInPieces(writer, await changedPageWrites(context, work, committed));
  else {
    await writeInPieces(writer, lastPageWrites(work));
    for await (const page of rawPages(context, p, ALL_POSTINGS))
      await writeInPieces(writer, strayWrites(work, page));
  }
  // Covered: the blocks as committed, counted by the changes (the census was read there too).
  const blocks =
    covered && stored
      ? await gramBlockWrites(context, p, work.deltas, stored.census, { stored: committed, written: true })
      : wholeGramBlockWrites(gen, p, work.cutter);
  await writeInPieces(writer, censusWrites(work, stored, marker?.gen, blocks));
}
