/**
 * A name search's window and total from name postings (docs/data-model.md, "Name postings"): of a
 * company's records, or of a kept scope's persons.
 *
 * - A fragment that is itself a posted gram (1 to 3 characters), alone in the filter
 *   and with no created range: its postings are exactly the matches, so the census gives the total
 *   and only the window's first postings are read (census and postings at once: one round trip);
 *   when the two disagree, the search fails (damage, or a read the reader asks again).
 * - The same with a created range: the gram's blocks count its postings by ranges of order keys
 *   (gram-blocks.ts), so the total is the whole blocks inside the range plus the two boundary
 *   segments, read; then only the blocks holding the window are read.
 * - Two fragments, first and last name, each of 1 to 3 characters and one of them of 1 or 2: the
 *   blocks of one count the matches by their companion counts of the other, so the total and window
 *   are found the same way, with or without a created range.
 * - One gram otherwise: its postings and the marker, at once; several: the census, then the rarest
 *   gram's postings. Each posting's pairs are checked against the whole filter.
 */
import type { CreatedRange, EmploymentFilter } from "../../../search/matching.js";
import { namesMatch } from "../../../search/matching.js";
import { pageOf } from "../../../search/paging.js";
import { emptyOrderRange, orderRange } from "../../order-range.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { BlockRef, Item, ItemKey, ReadAt, VersionedItem } from "../model/index.js";
import {
  bytesOf,
  decodeNamePairs,
  gramBlockSort,
  gramCensusSort,
  keyText,
  type PartitionKey,
} from "../model/index.js";
import {
  blocksTotal,
  companionCounts,
  filterGrams,
  type Gram,
  type GramBlockIndex,
  type GramBlockRef,
  isCompanionGram,
  rangeSegments,
  type StoredGramCensus,
  windowSpans,
} from "../structures/index.js";
import type { DirectoryReads } from "./reads.js";

export interface NameQuery {
  readonly filter: EmploymentFilter;
  readonly created: CreatedRange;
  readonly offset: number;
  readonly limit: number;
}

/** The window of the postings matching a name query, and how many match. */
export interface NameWindow {
  readonly page: VersionedItem[];
  readonly total: number;
}

/** The filter asks for exactly the holders of `gram`, in the created range: one name, its fragment the gram. */
function onlyGram(gram: Gram, filter: EmploymentFilter): boolean {
  const other = gram.field === "firstName" ? filter.lastName : filter.firstName;
  return other === undefined && filter[gram.field] === gram.text;
}

const unbounded = ({ created }: NameQuery) => created.from === undefined && created.before === undefined;

/** The window of one gram's postings, its total from the census; undefined when not posted. */
async function exactWindow(reads: DirectoryReads, p: PartitionKey, gram: Gram, query: NameQuery, at: ReadAt) {
  const wanted = query.offset + query.limit;
  const [stored, first] = await Promise.all([
    reads.grams.census(p, at),
    reads.grams.postings(p, gram, query.created, at, wanted),
  ]);
  if (!stored) return undefined;
  const total = stored.census.count(gram);
  // They disagree when the read raced a clean-up (a slow read at a superseded generation: the
  // reader asks again at the new one) or when the census or postings are damaged: a total that
  // depends on the page asked for is never answered.
  if (first.length !== Math.min(total, wanted))
    throw new Error(
      `names census of ${keyText({ p, s: gramCensusSort(stored.gen, 0) })} counts ${total} holders of ` +
        `${gram.field} gram ${JSON.stringify(gram.text)}, but ${first.length} of the first ${wanted} postings were read`,
    );
  return { page: first.slice(query.offset, wanted), total };
}

/** Why a read of a gram's blocks and postings fails: they disagree (damage, or a read outrun by a clean-up). */
function disagree(key: ItemKey, what: string): Error {
  return new Error(`gram block ${keyText(key)} ${what}`);
}

/** The key of a gram's block, for a failed check to name. */
const blockKey = (p: PartitionKey, gram: Gram, block: BlockRef): ItemKey => ({
  p,
  s: gramBlockSort(gram.field, gram.text, block.low, block.gen),
});

/**
 * The window and total of the postings of `gram` matching a query, from its blocks, given how many
 * matches each block holds (`counts`: all its postings for a lone gram, its companion count for two
 * fragments). The boundary segments in the created range are read and their matches (`keep`;
 * all when undefined) counted: the exact total. Then only the blocks holding the window are read,
 * a block's postings up to its last match needed; each must hold what it counts, or the search
 * fails as `exactWindow`'s does.
 */
async function windowOfBlocks(
  reads: DirectoryReads,
  p: PartitionKey,
  gram: Gram,
  { blocks, counts }: { readonly blocks: GramBlockIndex; readonly counts: readonly number[] },
  query: NameQuery,
  at: ReadAt,
  keep: ((item: Item) => boolean) | undefined,
): Promise<NameWindow> {
  const range = orderRange(query.created);
  if (emptyOrderRange(range)) return { page: [], total: 0 };
  const segments = rangeSegments(blocks, range.from, range.before);
  // The boundary segments are read: they give their counts and their matches.
  const boundary = await Promise.all(
    segments.map((segment) =>
      segment.whole ? undefined : reads.grams.matchingBetween(p, gram, segment, at, keep),
    ),
  );
  const matches = segments.map((segment, i) => boundary[i]?.length ?? (counts[segment.block] as number));
  const total = matches.reduce((sum, count) => sum + count, 0);
  const pieces = await Promise.all(
    windowSpans(matches, query.offset, query.limit).map(async ({ segment: i, start, end }) => {
      const segment = segments[i] as (typeof segments)[number];
      const block = blocks[segment.block] as GramBlockRef;
      // Matches spread evenly: a Query page of about as many postings as should hold them.
      const step = keep ? Math.ceil((end / (matches[i] as number)) * block.count * 1.25) + 16 : end;
      const read =
        boundary[i] ??
        (await reads.grams.matchingBetween(
          p,
          gram,
          segment,
          at,
          keep,
          end,
          step >= block.count ? Number.POSITIVE_INFINITY : step,
        ));
      if (read.length < end)
        throw disagree(
          blockKey(p, gram, block),
          `counts ${matches[i]} ${keep ? "matches" : "postings"}, but ${read.length} were read`,
        );
      return read.slice(start, end);
    }),
  );
  return { page: pieces.flat(), total };
}

/**
 * A gram's blocks visible at `at`, checked against the census's count (none for a gram no one
 * holds; a gram held has blocks, whose counts add up to the census's).
 */
function checkedBlocks(
  stored: StoredGramCensus,
  p: PartitionKey,
  gram: Gram,
  { blocks, first }: { readonly blocks: GramBlockIndex; readonly first?: ItemKey },
): GramBlockIndex {
  const counted = stored.census.count(gram);
  const census = keyText({ p, s: gramCensusSort(stored.gen, 0) });
  const named = `${gram.field} gram ${JSON.stringify(gram.text)}`;
  if (!first && counted > 0)
    throw new Error(
      `names census of ${census} counts ${counted} holders of ${named}, but no gram block of it is visible`,
    );
  if (first && blocksTotal(blocks) !== counted)
    throw disagree(
      first,
      `and the others of ${named} count ${blocksTotal(blocks)} postings, but the names census of ${census} counts ${counted}`,
    );
  return blocks;
}

/**
 * The window and total of one gram's postings in a created range, from its blocks; undefined when
 * the partition is not posted. Census and blocks at once, then `windowOfBlocks`.
 */
async function blockWindow(
  reads: DirectoryReads,
  p: PartitionKey,
  gram: Gram,
  query: NameQuery,
  at: ReadAt,
): Promise<NameWindow | undefined> {
  const [stored, read] = await Promise.all([reads.grams.census(p, at), reads.grams.blocks(p, gram, at)]);
  if (!stored) return undefined;
  const blocks = checkedBlocks(stored, p, gram, read);
  const counts = blocks.map((block) => block.count);
  return windowOfBlocks(reads, p, gram, { blocks, counts }, query, at, undefined);
}

/**
 * Both names' fragments, when gram blocks count their matches: each of 1 to 3 code points (so its
 * gram is the fragment itself) and one of them of 1 or 2 (a companion of the other's blocks).
 */
function fragmentPair(grams: readonly Gram[], filter: EmploymentFilter): [Gram, Gram] | undefined {
  const [first, last] = grams;
  if (grams.length !== 2 || !first || !last || first.field !== "firstName" || last.field !== "lastName")
    return undefined;
  if (filter.firstName !== first.text || filter.lastName !== last.text) return undefined;
  return isCompanionGram(first.text) || isCompanionGram(last.text) ? [first, last] : undefined;
}

/**
 * The window and total of two fragments' matches (`fragmentPair`) from the gram blocks of one of
 * them, each block's companion count of the other its matches; undefined when the partition is not
 * posted. The census first: the rarer fragment drives (fewer blocks to read), if the other is
 * short enough to be its companion.
 */
async function companionWindow(
  reads: DirectoryReads,
  p: PartitionKey,
  [first, last]: [Gram, Gram],
  query: NameQuery,
  at: ReadAt,
): Promise<NameWindow | undefined> {
  const stored = await reads.grams.census(p, at);
  if (!stored) return undefined;
  const { census } = stored;
  if (census.count(first) === 0 || census.count(last) === 0) return { page: [], total: 0 };
  const firstDrives =
    isCompanionGram(last.text) && (!isCompanionGram(first.text) || census.count(first) <= census.count(last));
  const [gram, companion] = firstDrives ? [first, last] : [last, first];
  const blocks = checkedBlocks(stored, p, gram, await reads.grams.blocks(p, gram, at));
  const counts = companionCounts(blocks, companion.text);
  const keep = (item: Item) =>
    decodeNamePairs(bytesOf(item[A.data])).some((pair) => namesMatch(pair, query.filter));
  return windowOfBlocks(reads, p, gram, { blocks, counts }, query, at, keep);
}

/** Every posting matching the filter, in order; undefined when the partition is not posted. */
async function matchingPostings(
  reads: DirectoryReads,
  p: PartitionKey,
  grams: readonly Gram[],
  query: NameQuery,
  at: ReadAt,
): Promise<VersionedItem[] | undefined> {
  const [only] = grams;
  if (!only) return undefined;
  let postings: VersionedItem[];
  if (grams.length === 1) {
    // The marker and the postings at once: one round trip; the postings are dropped if not covered.
    const [covered, read] = await Promise.all([
      reads.grams.covered(p, at),
      reads.grams.postings(p, only, query.created, at),
    ]);
    if (!covered) return undefined;
    postings = read;
  } else {
    const stored = await reads.grams.census(p, at);
    if (!stored) return undefined;
    const rarest = stored.census.rarest(grams) ?? only;
    // No one holds it: nothing matches, and there is nothing to read.
    if (stored.census.count(rarest) === 0) return [];
    postings = await reads.grams.postings(p, rarest, query.created, at);
  }
  return postings.filter((posting) =>
    decodeNamePairs(bytesOf(posting.item[A.data])).some((pair) => namesMatch(pair, query.filter)),
  );
}

/**
 * The window and total of a name query from a partition's postings; undefined when they cannot
 * answer: a fragment with a lone surrogate only, or a partition not posted (a company no load has
 * posted yet, a scope not kept).
 */
export async function nameWindow(
  reads: DirectoryReads,
  p: PartitionKey,
  query: NameQuery,
  at: ReadAt,
): Promise<NameWindow | undefined> {
  const grams = filterGrams(query.filter);
  const [only] = grams;
  if (only && grams.length === 1 && onlyGram(only, query.filter)) {
    const exact = unbounded(query)
      ? await exactWindow(reads, p, only, query, at)
      : await blockWindow(reads, p, only, query, at);
    if (exact) return exact;
  }
  const pair = fragmentPair(grams, query.filter);
  if (pair) {
    const exact = await companionWindow(reads, p, pair, query, at);
    if (exact) return exact;
  }
  const matches = await matchingPostings(reads, p, grams, query, at);
  if (!matches) return undefined;
  return { page: pageOf(matches, query.offset, query.limit).page, total: matches.length };
}
