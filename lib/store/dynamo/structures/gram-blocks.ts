/**
 * Gram blocks (docs/data-model.md, "Name postings"), pure: a gram's postings are one sorted run,
 * and its blocks count them in ranges of order keys, so a search with a created range finds its
 * total from the blocks and two boundary reads, and reads only the blocks holding its window. A
 * block holds no keys (the postings are its keys): its low bound and how many postings lie between
 * it and the next block's low. The first block's low is the lowest order key, so lows never move
 * when a lower key is posted. Blocks are the `BlockRef`s of counted orders (`count` is the block's
 * postings), so locating reuses counted-order.ts.
 */
import { type OrderKey, orderKeyBytes } from "../../binary-keys.js";
import { hexOf } from "../../bytes.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  type BlockRef,
  encodeGramBlock,
  gramBlockSort,
  type Item,
  type ItemKey,
  LOWEST_ORDER_KEY,
  type OrderIndex,
  type PartitionKey,
} from "../model/index.js";
import { blockOf, blocksOfPositions } from "./counted-order.js";
import type { Gram } from "./name-grams.js";

/** Postings a block counts: written `target` to a block, split above `max`, merged below `min`. */
export interface GramBlockSizes {
  readonly target: number;
  readonly max: number;
  readonly min: number;
}

/**
 * About 1,024 postings of about 72 bytes is 9 read units (eventually consistent): the most a
 * search reads to count a boundary block; 1,000 posted into one block before it splits.
 */
export const GRAM_BLOCK_ENTRIES: GramBlockSizes = { target: 1024, max: 2048, min: 256 };

export const gramBlockKey = (p: PartitionKey, gram: Gram, low: OrderKey, gen: number): ItemKey => ({
  p,
  s: gramBlockSort(gram.field, gram.text, low, gen),
});

/** A gram block's item: its key and how many postings it counts. */
export const gramBlockItem = (
  p: PartitionKey,
  gram: Gram,
  low: OrderKey,
  count: number,
  gen: number,
): Item => ({
  [A.partition]: p,
  [A.sort]: gramBlockSort(gram.field, gram.text, low, gen),
  [A.data]: encodeGramBlock(count),
});

/** A gram as a map key: its field's initial, then its text. */
const gramId = (gram: Gram) => `${gram.field === "firstName" ? "f" : "l"}${gram.text}`;
const gramOfId = (id: string): Gram => ({
  field: id.startsWith("f") ? "firstName" : "lastName",
  text: id.slice(1),
});

/** A change to one gram's postings at an order key: +1 posted, -1 superseded (net, never 0). */
export interface GramDelta {
  readonly order: OrderKey;
  readonly delta: number;
}

/** The changes a load makes to a partition's postings, per gram and order key, netted. */
export class GramDeltas {
  private readonly byGram = new Map<string, Map<OrderKey, number>>();

  /** A holder at `order` posted under `grams` (+1) or its postings there superseded (-1). */
  add(grams: readonly Gram[], order: OrderKey, delta: 1 | -1): void {
    for (const gram of grams) {
      const id = gramId(gram);
      const changes = this.byGram.get(id) ?? new Map<OrderKey, number>();
      changes.set(order, (changes.get(order) ?? 0) + delta);
      this.byGram.set(id, changes);
    }
  }

  /** Each gram with a net change, and its changes in order (a holder reposted as it was: none). */
  changed(): [Gram, GramDelta[]][] {
    const found: [Gram, GramDelta[]][] = [];
    for (const [id, changes] of this.byGram) {
      const deltas = [...changes]
        .filter(([, delta]) => delta !== 0)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([order, delta]) => ({ order, delta }));
      if (deltas.length > 0) found.push([gramOfId(id), deltas]);
    }
    return found;
  }
}

/** A gram's blocks being cut while its postings are written whole, in order. */
interface Cut {
  readonly blocks: { low: OrderKey; count: number }[];
  last: OrderKey;
}

/**
 * The blocks of postings written whole (a company posted whole, a scope built), cut as the holders
 * come in order: a new block every `target` postings of a gram.
 */
export class GramBlockCutter {
  private readonly byGram = new Map<string, Cut>();
  private readonly sizes: GramBlockSizes;

  constructor(sizes: GramBlockSizes = GRAM_BLOCK_ENTRIES) {
    this.sizes = sizes;
  }

  /** A holder at `order` posted under `grams`: after every holder added before. */
  add(grams: readonly Gram[], order: OrderKey): void {
    for (const gram of grams) {
      const id = gramId(gram);
      const cut = this.byGram.get(id);
      if (!cut) {
        this.byGram.set(id, { blocks: [{ low: LOWEST_ORDER_KEY, count: 1 }], last: order });
        continue;
      }
      if (order <= cut.last) throw new Error(`postings of "${gram.text}" cut out of order`);
      cut.last = order;
      const block = cut.blocks.at(-1) as { low: OrderKey; count: number };
      if (block.count >= this.sizes.target) cut.blocks.push({ low: order, count: 1 });
      else block.count += 1;
    }
  }

  /** Each gram's blocks (a small last one taken into the one before, if that fits). */
  blocks(): [Gram, { low: OrderKey; count: number }[]][] {
    return [...this.byGram].map(([id, { blocks }]) => {
      const [before, last] = blocks.slice(-2);
      if (before && last && last.count < this.sizes.min && before.count + last.count <= this.sizes.max)
        return [
          gramOfId(id),
          [...blocks.slice(0, -2), { low: before.low, count: before.count + last.count }],
        ];
      return [gramOfId(id), blocks];
    });
  }
}

/** How many postings each stored block counts once the deltas are applied. */
function countsAfter(stored: OrderIndex, deltas: readonly GramDelta[]): number[] {
  const counts = stored.map((block) => block.count);
  let slot = 0;
  for (const { order, delta } of deltas) {
    while (slot + 1 < stored.length && (stored[slot + 1] as BlockRef).low <= order) slot += 1;
    counts[slot] = (counts[slot] as number) + delta;
  }
  for (const [i, count] of counts.entries())
    if (count < 0)
      throw new Error(
        `the gram block at ${hexOf(orderKeyBytes((stored[i] as BlockRef).low))} would count fewer than no postings`,
      );
  return counts;
}

/** A range of a gram's postings to read: from `low`, before `before` (the end: undefined). */
export interface KeyRange {
  readonly low: OrderKey;
  readonly before: OrderKey | undefined;
}

/**
 * The stored blocks the deltas take above `max`: their postings (as the load leaves them) must be
 * read for the plan to split them. With no block stored, the gram's whole run.
 */
export function blocksToSplit(
  stored: OrderIndex,
  deltas: readonly GramDelta[],
  sizes: GramBlockSizes = GRAM_BLOCK_ENTRIES,
): KeyRange[] {
  if (stored.length === 0) {
    const total = deltas.reduce((sum, { delta }) => sum + delta, 0);
    return total > sizes.max ? [{ low: LOWEST_ORDER_KEY, before: undefined }] : [];
  }
  const counts = countsAfter(stored, deltas);
  return stored.flatMap((block, i) =>
    (counts[i] as number) > sizes.max ? [{ low: block.low, before: stored[i + 1]?.low }] : [],
  );
}

/**
 * The keys of a range as the deltas leave them, from its keys as read before them (a chunk plans
 * its scopes' blocks before it writes its postings).
 */
export function keysAfter(
  read: readonly OrderKey[],
  deltas: readonly GramDelta[],
  range: KeyRange,
): OrderKey[] {
  const keys = new Set(read);
  for (const { order, delta } of deltas) {
    if (order < range.low || (range.before !== undefined && order >= range.before)) continue;
    if (delta > 0) keys.add(order);
    else keys.delete(order);
  }
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A block of the plan: kept as stored, or written anew; `source` is the stored low its keys were read by. */
type Group =
  | { readonly kept: BlockRef; readonly low: OrderKey; readonly count: number }
  | { readonly kept?: undefined; readonly low: OrderKey; readonly count: number; readonly source?: OrderKey };

export interface GramBlockPlan {
  /** The gram's blocks after the plan, in order (none: no posting left). */
  readonly blocks: OrderIndex;
  /** Blocks to write at the plan's generation. */
  readonly written: readonly { readonly low: OrderKey; readonly count: number }[];
  /** Stored blocks the plan replaces or drops. */
  readonly superseded: OrderIndex;
}

/** Empty blocks dropped (the range of the one before grows; the first's low passes on). */
function dropEmpty(groups: readonly Group[]): Group[] {
  const left = groups.filter((group) => group.count > 0);
  const [first] = left;
  if (!first || first.low === LOWEST_ORDER_KEY) return left;
  const source = first.kept ? first.kept.low : (first.source ?? first.low);
  return [{ low: LOWEST_ORDER_KEY, count: first.count, source }, ...left.slice(1)];
}

/** Small changed blocks merged into a neighbour when the two fit in `max`. */
function mergeSmall(groups: readonly Group[], sizes: GramBlockSizes): Group[] {
  const merged: Group[] = [];
  for (const group of groups) {
    const previous = merged.at(-1);
    if (!group.kept && previous && group.count < sizes.min && previous.count + group.count <= sizes.max)
      merged[merged.length - 1] = { low: previous.low, count: previous.count + group.count };
    else merged.push(group);
  }
  // A small first block has no block before it: it takes in the one after, if that fits.
  const [first, second] = merged;
  if (first && second && !first.kept && first.count < sizes.min && first.count + second.count <= sizes.max)
    merged.splice(0, 2, { low: first.low, count: first.count + second.count });
  return merged;
}

/** A block above `max` cut into blocks of about `target`, from its postings' keys as read. */
function split(group: Group, contents: ReadonlyMap<OrderKey, readonly OrderKey[]>, sizes: GramBlockSizes) {
  if (group.count <= sizes.max) return [group];
  const source = group.kept ? group.kept.low : (group.source ?? group.low);
  const keys = contents.get(source);
  if (!keys) throw new Error("a gram block to split was not read");
  if (keys.length !== group.count)
    throw new Error(
      `a gram block counts ${group.count} postings after the load, but ${keys.length} were read to split it`,
    );
  const pieces = Math.round(keys.length / sizes.target);
  const size = Math.ceil(keys.length / pieces);
  const groups: Group[] = [];
  for (let at = 0; at < keys.length; at += size)
    groups.push({
      low: at === 0 ? group.low : (keys[at] as OrderKey),
      count: Math.min(size, keys.length - at),
    });
  return groups;
}

/**
 * What makes a gram's stored blocks count its postings after `deltas`: blocks whose count and
 * range are unchanged stay as they are, so a holder changed rewrites one block per gram it gains
 * or loses. `contents` holds the keys of each block `blocksToSplit` named, by its stored low.
 */
export function planGramBlocks(
  stored: OrderIndex,
  deltas: readonly GramDelta[],
  gen: number,
  contents: ReadonlyMap<OrderKey, readonly OrderKey[]> = new Map(),
  sizes: GramBlockSizes = GRAM_BLOCK_ENTRIES,
): GramBlockPlan {
  let groups: Group[];
  if (stored.length === 0) {
    const count = deltas.reduce((sum, { delta }) => sum + delta, 0);
    if (count < 0) throw new Error("a gram with no block would count fewer than no postings");
    groups = [{ low: LOWEST_ORDER_KEY, count }];
  } else {
    const counts = countsAfter(stored, deltas);
    // A block holds no keys: one whose count is the same (a key moved within it) stays as it is.
    groups = stored.map((block, i): Group => {
      const count = counts[i] as number;
      return count !== block.count
        ? { low: block.low, count, source: block.low }
        : { kept: block, low: block.low, count };
    });
  }
  const planned = mergeSmall(dropEmpty(groups), sizes).flatMap((group) => split(group, contents, sizes));
  const kept = new Set(planned.flatMap((group) => (group.kept ? [group.kept] : [])));
  return {
    blocks: planned.map((group) => group.kept ?? { low: group.low, gen, count: group.count }),
    written: planned.flatMap((group) => (group.kept ? [] : [{ low: group.low, count: group.count }])),
    superseded: stored.filter((block) => !kept.has(block)),
  };
}

/** How many postings a gram's blocks count in all. */
export const blocksTotal = (blocks: OrderIndex): number =>
  blocks.reduce((sum, block) => sum + block.count, 0);

/**
 * A block's part of a created range, to count or read: the whole block (its count is known), or
 * the postings from `from` and before `before` (undefined: the block's end).
 */
export interface RangeSegment {
  readonly block: number;
  readonly from: OrderKey;
  readonly before: OrderKey | undefined;
  readonly whole: boolean;
}

/** The blocks a range [from, before) of order keys (or their prefixes) meets, each with its part. */
export function rangeSegments(
  blocks: OrderIndex,
  from: OrderKey | undefined,
  before: OrderKey | undefined,
): RangeSegment[] {
  if (blocks.length === 0) return [];
  const first = from === undefined ? 0 : blockOf(blocks, from);
  let last = before === undefined ? blocks.length - 1 : blockOf(blocks, before);
  // The block at `before` itself holds nothing below it.
  if (before !== undefined && (blocks[last] as BlockRef).low >= before) last -= 1;
  const segments: RangeSegment[] = [];
  for (let i = first; i <= last; i++) {
    const { low } = blocks[i] as BlockRef;
    const next = blocks[i + 1]?.low;
    const start = i === first && from !== undefined && from > low ? from : low;
    const end = i === last && before !== undefined && (next === undefined || before < next) ? before : next;
    segments.push({ block: i, from: start, before: end, whole: start === low && end === next });
  }
  return segments;
}

/** Which positions [start, end) of each segment, counted `counts`, hold matches [offset, offset + limit). */
export function windowParts(
  counts: readonly number[],
  offset: number,
  limit: number,
): { segment: number; start: number; end: number }[] {
  const starts = [0];
  for (const count of counts) starts.push((starts.at(-1) as number) + count);
  const held = blocksOfPositions(starts, offset, offset + limit);
  if (!held) return [];
  const parts: { segment: number; start: number; end: number }[] = [];
  for (let i = held.first; i <= held.last; i++) {
    const begins = starts[i] as number;
    const start = Math.max(offset - begins, 0);
    const end = Math.min(offset + limit - begins, counts[i] as number);
    if (start < end) parts.push({ segment: i, start, end });
  }
  return parts;
}
