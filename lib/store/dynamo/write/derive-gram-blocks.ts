/**
 * A load's gram blocks (gram-blocks.ts): where a partition's postings change a holder at a time
 * (a company's new and stamped names entries, a scope's rewritten persons), each gram's stored
 * blocks are read, counted up and down by the changes, split (their postings read, as the load
 * leaves them) or merged, and only the blocks that differ are written. Postings written whole (a
 * company posted whole, a scope built) cut their blocks as they go (`wholeGramBlockWrites`).
 */

import { hexOf } from "../../bytes.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  bytesOf,
  decodeNamePairs,
  inParallel,
  type PartitionKey,
  type ReadAt,
  Writes,
} from "../model/index.js";
import type {
  Gram,
  GramBlockCutter,
  GramBlockIndex,
  GramBlockSizes,
  GramCensus,
  GramDeltas,
  Holder,
} from "../structures/index.js";
import {
  blocksToSplit,
  companionsOf,
  GRAM_BLOCK_ENTRIES,
  gramBlockItem,
  gramBlockKey,
  gramId,
  type KeyRange,
  keysAfter,
  planGramBlocks,
} from "../structures/index.js";
import { type ChunkContext, loadAt } from "./chunk-context.js";

/** Grams whose blocks are read at once. */
const IN_FLIGHT = 16;

/**
 * Bytes a posting is taken to hold (keys and its names entry's pairs: generous), and a gram block
 * (a count and its holders' companions, 0.5-2 KB when full), for the choice below.
 */
const POSTING_BYTES = 256;
const BLOCK_BYTES = { base: 128, perHolder: 64, most: 2_048 };
/** What a strongly consistent Query is billed at least: one 4 KB read unit. */
const QUERY_MIN_BYTES = 4_096;

/**
 * Whether the blocks of `grams` changed grams are read in one read of the partition's whole
 * postings family rather than a Query each: when that read, every posting and block the census
 * counts, is estimated at no more bytes than the Queries are billed at least. So a small company
 * (or scope) whose load changes many of its grams is read in a few calls instead of hundreds, and
 * a large one keeps reading only the grams it changes.
 */
export function readsWholeFamily(census: GramCensus, grams: number, sizes: GramBlockSizes): boolean {
  let bytes = 0;
  for (const [, count] of census.grams()) {
    const blocks = Math.ceil(count / sizes.min);
    const blockBytes = blocks * BLOCK_BYTES.base + count * BLOCK_BYTES.perHolder;
    bytes += count * POSTING_BYTES + Math.min(blocks * BLOCK_BYTES.most, blockBytes);
  }
  return bytes <= grams * QUERY_MIN_BYTES;
}

/**
 * A load's chunks' gram blocks of the posted scopes, as its chunks wrote them: the next chunk
 * plans from them without reading them again (only this load writes blocks, and its chunks run
 * one at a time). A chunk's plans join only once its writes are sent; a resumed load starts empty.
 */
export class GramBlockCache {
  private readonly blocks = new Map<string, GramBlockIndex>();
  private readonly pending = new Map<string, GramBlockIndex>();

  private static key(p: PartitionKey, gram: Gram): string {
    return `${hexOf(p)}\u0000${gramId(gram)}`;
  }

  get(p: PartitionKey, gram: Gram): GramBlockIndex | undefined {
    return this.blocks.get(GramBlockCache.key(p, gram));
  }

  /** A gram's blocks as the chunk being planned leaves them. */
  plan(p: PartitionKey, gram: Gram, blocks: GramBlockIndex): void {
    this.pending.set(GramBlockCache.key(p, gram), blocks);
  }

  /** The chunk's writes were sent: its plans hold. */
  sent(): void {
    for (const [key, blocks] of this.pending) this.blocks.set(key, blocks);
    this.pending.clear();
  }

  /** The chunk failed: its plans are dropped. */
  dropped(): void {
    this.pending.clear();
  }

  /** Something else rewrote blocks (a scope change, build or repair): read them again. */
  clear(): void {
    this.blocks.clear();
    this.pending.clear();
  }
}

/**
 * The writes that make a partition's gram blocks count its postings after `deltas`, from the
 * blocks visible at `stored` (where `census` counted the postings before the deltas). A gram the
 * census counts has blocks: one without is damage, and the load stops (`directory repair` posts
 * the partition whole). A block to split is read as the load sees it:
 * with the deltas' postings when `written` (a derive, after its postings), else without them (a
 * chunk, before its writes), the deltas then applied to what was read.
 */
export async function gramBlockWrites(
  context: ChunkContext,
  p: PartitionKey,
  deltas: GramDeltas,
  census: GramCensus,
  {
    stored,
    written,
    cache,
  }: { readonly stored: ReadAt; readonly written: boolean; readonly cache?: GramBlockCache },
): Promise<Writes> {
  const { gen } = context;
  const sizes = context.gramBlocks ?? GRAM_BLOCK_ENTRIES;
  const writes = new Writes(gen);
  const changed = deltas.changed();
  const unread = changed.filter(([gram]) => cache?.get(p, gram) === undefined).length;
  const whole =
    unread > 1 && readsWholeFamily(census, unread, sizes)
      ? await context.reads.grams.allBlocks(p, stored)
      : undefined;
  const blocksOf = async (gram: Gram): Promise<GramBlockIndex> => {
    const cached = cache?.get(p, gram);
    if (cached) return cached;
    if (whole) return whole.get(gramId(gram)) ?? [];
    return (await context.reads.grams.blocks(p, gram, stored)).blocks;
  };
  await inParallel(changed, IN_FLIGHT, async ([gram, changes]) => {
    const blocks = await blocksOf(gram);
    if (blocks.length === 0 && census.count(gram) > 0)
      throw new Error(
        `the names census of partition ${hexOf(p)} counts ${census.count(gram)} holders of ${gram.field} gram ` +
          `${JSON.stringify(gram.text)}, but no gram block of it is visible: run \`npm run directory -- repair\``,
      );
    const keysOf = async (range: KeyRange) => {
      const read = await context.reads.grams.postingsBetween(
        p,
        gram,
        { from: range.low, before: range.before },
        loadAt(context),
      );
      const holders = read.map(
        (posting): Holder => ({
          order: posting.order,
          companions: companionsOf(gram, decodeNamePairs(bytesOf(posting.item[A.data]))),
        }),
      );
      return written ? holders : keysAfter(holders, changes, range);
    };
    const contents = new Map(
      await Promise.all(
        blocksToSplit(blocks, changes, sizes).map(async (range) => [range.low, await keysOf(range)] as const),
      ),
    );
    const plan = planGramBlocks(blocks, changes, gen, contents, sizes);
    cache?.plan(p, gram, plan.blocks);
    writes.retireByLow(plan.superseded, plan.written, (block) => gramBlockKey(p, gram, block.low, block.gen));
    for (const block of plan.written) writes.put(gramBlockItem(p, gram, block, gen));
  });
  return writes;
}

/** The blocks of a partition's postings written whole, as cut. */
export function wholeGramBlockWrites(gen: number, p: PartitionKey, cutter: GramBlockCutter): Writes {
  const writes = new Writes(gen);
  for (const [gram, blocks] of cutter.blocks())
    for (const block of blocks) writes.put(gramBlockItem(p, gram, block, gen));
  return writes;
}
