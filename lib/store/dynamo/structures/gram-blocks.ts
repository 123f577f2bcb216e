/**
 * Gram blocks (docs/data-model.md, "Name postings"), pure: a gram's postings are one sorted run,
 * and its blocks count them in ranges of order keys, so a search with a created range finds its
 * total from the blocks and two boundary reads, and reads only the blocks holding its window. A
 * block holds no keys (the postings are its keys): its low bound and how many postings lie between
 * it and the next block's low. The first block's low is the lowest order key, so lows never move
 * when a lower key is posted. Blocks are the `BlockRef`s of counted orders (`count` is the block's
 * postings), so locating reuses counted-order.ts.
 *
 * Each block also holds its **companion counts**: for each gram of 1 or 2 code points of the other
 * name, how many of its holders have one name pair holding both grams (the per-pair rule of
 * `namesMatch`), so a search by two fragments, one of them the block's gram and the other a short
 * gram, counts its matches per block without reading the postings.
 */
import { gramsOfSize } from "../../../directory/name.js";
import type { NamePair } from "../../../search/matching.js";
import { type OrderKey, orderKeyBytes } from "../../binary-keys.js";
import { hexOf } from "../../bytes.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  type BlockRef,
  encodeGramBlock,
  type GramCompanions,
  gramBlockSort,
  type Item,
  type ItemKey,
  LOWEST_ORDER_KEY,
  type OrderIndex,
  type PartitionKey,
} from "../model/index.js";
import { type BlockSizes, checkedBlockSizes } from "./block-sizes.js";
import { blockOf, blocksOfPositions } from "./counted-order.js";
import { type Gram, gramsOfPairs } from "./name-grams.js";

/** A gram's block as stored: its low, generation, count and companions. */
export interface GramBlockRef extends BlockRef {
  readonly companions: GramCompanions;
}

export type GramBlockIndex = readonly GramBlockRef[];

/** A block's bounds and counts, as a plan writes it. */
export interface GramBlockCounts {
  readonly low: OrderKey;
  readonly count: number;
  readonly companions: GramCompanions;
}

/** The companion grams: of 1 and 2 code points. */
const COMPANION_SIZES = [1, 2] as const;

const otherField = (gram: Gram) => (gram.field === "firstName" ? "lastName" : "firstName");

/**
 * The short grams of the other name that one of `pairs` holds together with `gram` (a pair whose
 * name holds `gram`, as `namesMatch` tests a fragment): what a holder counts into its block's
 * companions.
 */
export function companionsOf(gram: Gram, pairs: readonly NamePair[]): string[] {
  const other = otherField(gram);
  const found = new Set<string>();
  for (const pair of pairs) {
    const name = pair[gram.field];
    const companion = pair[other];
    if (name === null || companion === null || !name.includes(gram.text)) continue;
    for (const size of COMPANION_SIZES) for (const text of gramsOfSize(companion, size)) found.add(text);
  }
  return [...found];
}

/** A holder's grams (`gramsOfPairs`), each with its companions. */
export const holderGrams = (pairs: readonly NamePair[]): { gram: Gram; companions: string[] }[] =>
  gramsOfPairs(pairs).map((gram) => ({ gram, companions: companionsOf(gram, pairs) }));

/** A holder of a block: its order key, and its companions in its gram's blocks. */
export interface Holder {
  readonly order: OrderKey;
  readonly companions: readonly string[];
}

/** The companions counted by `counts`, `delta` more of each of `grams` (none left at 0). */
function countCompanions(counts: Map<string, number>, grams: Iterable<readonly [string, number]>): void {
  for (const [gram, delta] of grams) {
    const count = (counts.get(gram) ?? 0) + delta;
    if (count === 0) counts.delete(gram);
    else counts.set(gram, count);
  }
}

/** Two blocks' companion counts are the same. */
function sameCompanions(a: GramCompanions, b: GramCompanions): boolean {
  if (a.size !== b.size) return false;
  for (const [gram, count] of a) if (b.get(gram) !== count) return false;
  return true;
}

/** The companions of two blocks taken as one. */
function joinCompanions(a: GramCompanions, b: GramCompanions): GramCompanions {
  const joined = new Map(a);
  countCompanions(joined, b);
  return joined;
}

/** The companion counts of these holders. */
function companionsOfHolders(holders: readonly Holder[]): GramCompanions {
  const counts = new Map<string, number>();
  for (const holder of holders)
    countCompanions(
      counts,
      holder.companions.map((gram) => [gram, 1] as const),
    );
  return counts;
}

/** Postings a gram block counts. */
export type GramBlockSizes = BlockSizes;

/**
 * About 1,024 postings of about 72 bytes is 9 read units (eventually consistent): the most a
 * search reads to count a boundary block; 1,000 posted into one block before it splits.
 */
export const GRAM_BLOCK_ENTRIES: GramBlockSizes = { target: 1024, max: 2048, min: 256 };

export const gramBlockKey = (p: PartitionKey, gram: Gram, low: OrderKey, gen: number): ItemKey => ({
  p,
  s: gramBlockSort(gram.field, gram.text, low, gen),
});

/** A gram block's item: its key, how many postings it counts and their companions. */
export const gramBlockItem = (p: PartitionKey, gram: Gram, block: GramBlockCounts, gen: number): Item => ({
  [A.partition]: p,
  [A.sort]: gramBlockSort(gram.field, gram.text, block.low, gen),
  [A.data]: encodeGramBlock(block.count, block.companions),
});

/** A gram as a map key: its field's initial, then its text. */
const gramId = (gram: Gram) => `${gram.field === "firstName" ? "f" : "l"}${gram.text}`;
const gramOfId = (id: string): Gram => ({
  field: id.startsWith("f") ? "firstName" : "lastName",
  text: id.slice(1),
});

/**
 * A change to one gram's postings at an order key: +1 posted, -1 superseded (net), and how its
 * companions change (net, none at 0); never both none. `posted`: the companions of the holder posted
 * there last (a holder superseded and posted again nets 0, but its companions may differ).
 */
export interface GramDelta {
  readonly order: OrderKey;
  readonly delta: number;
  readonly companions: GramCompanions;
  readonly posted?: readonly string[];
}

interface Change {
  delta: number;
  readonly companions: Map<string, number>;
  posted?: readonly string[];
}

/** The changes a load makes to a partition's postings, per gram and order key, netted. */
export class GramDeltas {
  private readonly byGram = new Map<string, Map<OrderKey, Change>>();

  /** A holder at `order` with these name pairs posted (+1) or its postings there superseded (-1). */
  add(pairs: readonly NamePair[], order: OrderKey, delta: 1 | -1): void {
    for (const { gram, companions } of holderGrams(pairs)) {
      const id = gramId(gram);
      const changes = this.byGram.get(id) ?? new Map<OrderKey, Change>();
      const change: Change = changes.get(order) ?? { delta: 0, companions: new Map() };
      change.delta += delta;
      countCompanions(
        change.companions,
        companions.map((companion) => [companion, delta] as const),
      );
      if (delta > 0) change.posted = companions;
      changes.set(order, change);
      this.byGram.set(id, changes);
    }
  }

  /** Each gram with a net change, and its changes in order (a holder reposted as it was: none). */
  changed(): [Gram, GramDelta[]][] {
    const found: [Gram, GramDelta[]][] = [];
    for (const [id, changes] of this.byGram) {
      const deltas = [...changes]
        .filter(([, change]) => change.delta !== 0 || change.companions.size > 0)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(
          ([order, { delta, companions, posted }]): GramDelta =>
            posted ? { order, delta, companions, posted } : { order, delta, companions },
        );
      if (deltas.length > 0) found.push([gramOfId(id), deltas]);
    }
    return found;
  }
}

/** A gram's blocks being cut while its postings are written whole, in order. */
interface Cut {
  readonly blocks: { low: OrderKey; count: number; companions: Map<string, number> }[];
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
    this.sizes = checkedBlockSizes("gram", sizes);
  }

  /** A holder at `order` with these name pairs posted: after every holder added before. */
  add(pairs: readonly NamePair[], order: OrderKey): void {
    for (const { gram, companions } of holderGrams(pairs)) {
      const id = gramId(gram);
      const counted = companions.map((companion) => [companion, 1] as const);
      const cut = this.byGram.get(id);
      if (!cut) {
        const block = { low: LOWEST_ORDER_KEY, count: 1, companions: new Map(counted) };
        this.byGram.set(id, { blocks: [block], last: order });
        continue;
      }
      if (order <= cut.last) throw new Error(`postings of "${gram.text}" cut out of order`);
      cut.last = order;
      let block = cut.blocks.at(-1) as Cut["blocks"][number];
      if (block.count >= this.sizes.target) {
        block = { low: order, count: 0, companions: new Map() };
        cut.blocks.push(block);
      }
      block.count += 1;
      countCompanions(block.companions, counted);
    }
  }

  /** Each gram's blocks (a small last one taken into the one before, if that fits). */
  blocks(): [Gram, GramBlockCounts[]][] {
    return [...this.byGram].map(([id, { blocks }]) => {
      const [before, last] = blocks.slice(-2);
      if (before && last && last.count < this.sizes.min && before.count + last.count <= this.sizes.max) {
        const companions = joinCompanions(before.companions, last.companions);
        return [
          gramOfId(id),
          [...blocks.slice(0, -2), { low: before.low, count: before.count + last.count, companions }],
        ];
      }
      return [gramOfId(id), blocks];
    });
  }
}

/** How many postings each stored block counts once the deltas are applied, and their companions. */
function countsAfter(
  stored: GramBlockIndex,
  deltas: readonly GramDelta[],
): { count: number; companions: Map<string, number> }[] {
  const counts = stored.map((block) => ({ count: block.count, companions: new Map(block.companions) }));
  let slot = 0;
  for (const { order, delta, companions } of deltas) {
    while (slot + 1 < stored.length && (stored[slot + 1] as BlockRef).low <= order) slot += 1;
    const counted = counts[slot] as (typeof counts)[number];
    counted.count += delta;
    countCompanions(counted.companions, companions);
  }
  for (const [i, { count, companions }] of counts.entries())
    if (count < 0 || [...companions.values()].some((n) => n < 0 || n > count))
      throw new Error(
        `the gram block at ${hexOf(orderKeyBytes((stored[i] as BlockRef).low))} would count fewer than no postings, or a companion more often than postings`,
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
  stored: GramBlockIndex,
  deltas: readonly GramDelta[],
  sizes: GramBlockSizes = GRAM_BLOCK_ENTRIES,
): KeyRange[] {
  checkedBlockSizes("gram", sizes);
  if (stored.length === 0) {
    const total = deltas.reduce((sum, { delta }) => sum + delta, 0);
    return total > sizes.max ? [{ low: LOWEST_ORDER_KEY, before: undefined }] : [];
  }
  const counts = countsAfter(stored, deltas);
  return stored.flatMap((block, i) =>
    (counts[i]?.count as number) > sizes.max ? [{ low: block.low, before: stored[i + 1]?.low }] : [],
  );
}

/**
 * The holders of a range as the deltas leave them, from its holders as read before them (a chunk
 * plans its scopes' blocks before it writes its postings).
 */
export function keysAfter(read: readonly Holder[], deltas: readonly GramDelta[], range: KeyRange): Holder[] {
  const holders = new Map(read.map((holder) => [holder.order, holder.companions]));
  for (const { order, delta, posted } of deltas) {
    if (order < range.low || (range.before !== undefined && order >= range.before)) continue;
    if (delta < 0) holders.delete(order);
    // Superseded and posted again (net 0): the holder read is replaced, with its new companions.
    else if (delta > 0 || (posted && holders.has(order))) holders.set(order, posted ?? []);
  }
  return [...holders]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([order, companions]) => ({ order, companions }));
}

/** A block of the plan: kept as stored, or written anew; `source` is the stored low its keys were read by. */
type Group =
  | {
      readonly kept: GramBlockRef;
      readonly low: OrderKey;
      readonly count: number;
      readonly companions: GramCompanions;
    }
  | {
      readonly kept?: undefined;
      readonly low: OrderKey;
      readonly count: number;
      readonly companions: GramCompanions;
      readonly source?: OrderKey;
    };

export interface GramBlockPlan {
  /** The gram's blocks after the plan, in order (none: no posting left). */
  readonly blocks: GramBlockIndex;
  /** Blocks to write at the plan's generation. */
  readonly written: readonly GramBlockCounts[];
  /** Stored blocks the plan replaces or drops. */
  readonly superseded: GramBlockIndex;
}

/** Empty blocks dropped (the range of the one before grows; the first's low passes on). */
function dropEmpty(groups: readonly Group[]): Group[] {
  const left = groups.filter((group) => group.count > 0);
  const [first] = left;
  if (!first || first.low === LOWEST_ORDER_KEY) return left;
  const source = first.kept ? first.kept.low : (first.source ?? first.low);
  return [
    { low: LOWEST_ORDER_KEY, count: first.count, companions: first.companions, source },
    ...left.slice(1),
  ];
}

/** Two neighbouring groups as one, from the first's low. */
const joined = (a: Group, b: Group): Group => ({
  low: a.low,
  count: a.count + b.count,
  companions: joinCompanions(a.companions, b.companions),
});

/** Small changed blocks merged into a neighbour when the two fit in `max`. */
function mergeSmall(groups: readonly Group[], sizes: GramBlockSizes): Group[] {
  const merged: Group[] = [];
  for (const group of groups) {
    const previous = merged.at(-1);
    if (!group.kept && previous && group.count < sizes.min && previous.count + group.count <= sizes.max)
      merged[merged.length - 1] = joined(previous, group);
    else merged.push(group);
  }
  // A small first block has no block before it: it takes in the one after, if that fits.
  const [first, second] = merged;
  if (first && second && !first.kept && first.count < sizes.min && first.count + second.count <= sizes.max)
    merged.splice(0, 2, joined(first, second));
  return merged;
}

/** A block above `max` cut into blocks of about `target`, from its holders as read (their companions counted anew). */
function split(group: Group, contents: ReadonlyMap<OrderKey, readonly Holder[]>, sizes: GramBlockSizes) {
  if (group.count <= sizes.max) return [group];
  const source = group.kept ? group.kept.low : (group.source ?? group.low);
  const holders = contents.get(source);
  if (!holders) throw new Error("a gram block to split was not read");
  if (holders.length !== group.count)
    throw new Error(
      `a gram block counts ${group.count} postings after the load, but ${holders.length} were read to split it`,
    );
  const pieces = Math.round(holders.length / sizes.target);
  const size = Math.ceil(holders.length / pieces);
  const groups: Group[] = [];
  for (let at = 0; at < holders.length; at += size) {
    const piece = holders.slice(at, at + size);
    groups.push({
      low: at === 0 ? group.low : (piece[0] as Holder).order,
      count: piece.length,
      companions: companionsOfHolders(piece),
    });
  }
  return groups;
}

/**
 * What makes a gram's stored blocks count its postings after `deltas`: blocks whose count and
 * range are unchanged stay as they are, so a holder changed rewrites one block per gram it gains
 * or loses. `contents` holds the keys of each block `blocksToSplit` named, by its stored low.
 */
export function planGramBlocks(
  stored: GramBlockIndex,
  deltas: readonly GramDelta[],
  gen: number,
  contents: ReadonlyMap<OrderKey, readonly Holder[]> = new Map(),
  sizes: GramBlockSizes = GRAM_BLOCK_ENTRIES,
): GramBlockPlan {
  checkedBlockSizes("gram", sizes);
  let groups: Group[];
  if (stored.length === 0) {
    const count = deltas.reduce((sum, { delta }) => sum + delta, 0);
    const companions = new Map<string, number>();
    for (const delta of deltas) countCompanions(companions, delta.companions);
    if (count < 0 || [...companions.values()].some((n) => n < 0 || n > count))
      throw new Error("a gram with no block would count fewer than no postings");
    groups = [{ low: LOWEST_ORDER_KEY, count, companions }];
  } else {
    const counts = countsAfter(stored, deltas);
    // A block holds no keys: one whose counts are the same (a key moved within it) stays as it is.
    groups = stored.map((block, i): Group => {
      const { count, companions } = counts[i] as (typeof counts)[number];
      return count !== block.count || !sameCompanions(companions, block.companions)
        ? { low: block.low, count, companions, source: block.low }
        : { kept: block, low: block.low, count, companions };
    });
  }
  const planned = mergeSmall(dropEmpty(groups), sizes).flatMap((group) => split(group, contents, sizes));
  const kept = new Set(planned.flatMap((group) => (group.kept ? [group.kept] : [])));
  return {
    blocks: planned.map(
      (group) => group.kept ?? { low: group.low, gen, count: group.count, companions: group.companions },
    ),
    written: planned.flatMap((group) =>
      group.kept ? [] : [{ low: group.low, count: group.count, companions: group.companions }],
    ),
    superseded: stored.filter((block) => !kept.has(block)),
  };
}

/** How many postings a gram's blocks count in all. */
export const blocksTotal = (blocks: OrderIndex): number =>
  blocks.reduce((sum, block) => sum + block.count, 0);

/**
 * A block's segment of a created range, to count or read: the whole block (its count is known), or
 * the postings from `from` and before `before` (undefined: the block's end).
 */
export interface RangeSegment {
  readonly block: number;
  readonly from: OrderKey;
  readonly before: OrderKey | undefined;
  readonly whole: boolean;
}

/** The blocks a range [from, before) of order keys (or their prefixes) meets, each with its segment. */
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
export function windowSpans(
  counts: readonly number[],
  offset: number,
  limit: number,
): { segment: number; start: number; end: number }[] {
  const starts = [0];
  for (const count of counts) starts.push((starts.at(-1) as number) + count);
  const held = blocksOfPositions(starts, offset, offset + limit);
  if (!held) return [];
  const spans: { segment: number; start: number; end: number }[] = [];
  for (let i = held.first; i <= held.last; i++) {
    const begins = starts[i] as number;
    const start = Math.max(offset - begins, 0);
    const end = Math.min(offset + limit - begins, counts[i] as number);
    if (start < end) spans.push({ segment: i, start, end });
  }
  return spans;
}

/**
 * How many matches of two fragments each block holds, when its gram is one fragment and `companion`
 * (a gram of 1 or 2 code points of the other name) the other: its companion count.
 */
export const companionCounts = (blocks: GramBlockIndex, companion: string): number[] =>
  blocks.map((block) => block.companions.get(companion) ?? 0);

/** Whether a gram is short enough to be a companion: 1 or 2 code points. */
export const isCompanionGram = (text: string): boolean => {
  const length = [...text].length;
  return length >= 1 && length <= 2;
};
