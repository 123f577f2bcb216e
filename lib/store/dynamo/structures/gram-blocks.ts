/**
 * Gram blocks (docs/data-model.md, "Name postings"), pure: a gram's postings are one sorted run,
 * and its blocks count them in ranges of order keys, so a search with a created range finds its
 * total from the blocks and two boundary reads, and reads only the blocks holding its window. A
 * block holds no keys (the postings are its keys): its low bound and how many postings lie between
 * it and the next block's low. The first block's low is the lowest order key, so lows never move
 * when a lower key is posted. Blocks are the `BlockRef`s of counted orders (`count` is the block's
 * postings), so locating reuses counted-order.ts.
 *
 * Each block also holds its **partner census**: for each gram of 1 or 2 code points of the other
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
  type GramPartners,
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

/** A gram's block as stored: its low, generation, count and partners. */
export interface GramBlockRef extends BlockRef {
  readonly partners: GramPartners;
}

export type GramBlockIndex = readonly GramBlockRef[];

/** A block's bounds and counts, as a plan writes it. */
export interface GramBlockCounts {
  readonly low: OrderKey;
  readonly count: number;
  readonly partners: GramPartners;
}

/** The partner grams: of 1 and 2 code points. */
const PARTNER_SIZES = [1, 2] as const;

const otherField = (gram: Gram) => (gram.field === "firstName" ? "lastName" : "firstName");

/**
 * The short grams of the other name that one of `pairs` holds together with `gram` (a pair whose
 * name holds `gram`, as `namesMatch` tests a fragment): what a holder counts into its block's
 * partners.
 */
export function partnersOf(gram: Gram, pairs: readonly NamePair[]): string[] {
  const other = otherField(gram);
  const found = new Set<string>();
  for (const pair of pairs) {
    const name = pair[gram.field];
    const partner = pair[other];
    if (name === null || partner === null || !name.includes(gram.text)) continue;
    for (const size of PARTNER_SIZES) for (const text of gramsOfSize(partner, size)) found.add(text);
  }
  return [...found];
}

/** A holder's grams (`gramsOfPairs`), each with its partners. */
export const holderGrams = (pairs: readonly NamePair[]): { gram: Gram; partners: string[] }[] =>
  gramsOfPairs(pairs).map((gram) => ({ gram, partners: partnersOf(gram, pairs) }));

/** A holder of a block: its order key, and its partners in its gram's blocks. */
export interface Holder {
  readonly order: OrderKey;
  readonly partners: readonly string[];
}

/** The partners counted by `counts`, `delta` more of each of `grams` (none left at 0). */
function countPartners(counts: Map<string, number>, grams: Iterable<readonly [string, number]>): void {
  for (const [gram, delta] of grams) {
    const count = (counts.get(gram) ?? 0) + delta;
    if (count === 0) counts.delete(gram);
    else counts.set(gram, count);
  }
}

/** Two partner censuses count the same. */
function samePartners(a: GramPartners, b: GramPartners): boolean {
  if (a.size !== b.size) return false;
  for (const [gram, count] of a) if (b.get(gram) !== count) return false;
  return true;
}

/** The partners of two blocks taken as one. */
function joinPartners(a: GramPartners, b: GramPartners): GramPartners {
  const joined = new Map(a);
  countPartners(joined, b);
  return joined;
}

/** The partner census of these holders. */
function partnersOfHolders(holders: readonly Holder[]): GramPartners {
  const counts = new Map<string, number>();
  for (const holder of holders)
    countPartners(
      counts,
      holder.partners.map((gram) => [gram, 1] as const),
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

/** A gram block's item: its key, how many postings it counts and their partners. */
export const gramBlockItem = (p: PartitionKey, gram: Gram, block: GramBlockCounts, gen: number): Item => ({
  [A.partition]: p,
  [A.sort]: gramBlockSort(gram.field, gram.text, block.low, gen),
  [A.data]: encodeGramBlock(block.count, block.partners),
});

/** A gram as a map key: its field's initial, then its text. */
const gramId = (gram: Gram) => `${gram.field === "firstName" ? "f" : "l"}${gram.text}`;
const gramOfId = (id: string): Gram => ({
  field: id.startsWith("f") ? "firstName" : "lastName",
  text: id.slice(1),
});

/**
 * A change to one gram's postings at an order key: +1 posted, -1 superseded (net), and how its
 * partners change (net, none at 0); never both none. `posted`: the partners of the holder posted
 * there last (a holder superseded and posted again nets 0, but its partners may differ).
 */
export interface GramDelta {
  readonly order: OrderKey;
  readonly delta: number;
  readonly partners: GramPartners;
  readonly posted?: readonly string[];
}

interface Change {
  delta: number;
  readonly partners: Map<string, number>;
  posted?: readonly string[];
}

/** The changes a load makes to a partition's postings, per gram and order key, netted. */
export class GramDeltas {
  private readonly byGram = new Map<string, Map<OrderKey, Change>>();

  /** A holder at `order` with these name pairs posted (+1) or its postings there superseded (-1). */
  add(pairs: readonly NamePair[], order: OrderKey, delta: 1 | -1): void {
    for (const { gram, partners } of holderGrams(pairs)) {
      const id = gramId(gram);
      const changes = this.byGram.get(id) ?? new Map<OrderKey, Change>();
      const change: Change = changes.get(order) ?? { delta: 0, partners: new Map() };
      change.delta += delta;
      countPartners(
        change.partners,
        partners.map((partner) => [partner, delta] as const),
      );
      if (delta > 0) change.posted = partners;
      changes.set(order, change);
      this.byGram.set(id, changes);
    }
  }

  /** Each gram with a net change, and its changes in order (a holder reposted as it was: none). */
  changed(): [Gram, GramDelta[]][] {
    const found: [Gram, GramDelta[]][] = [];
    for (const [id, changes] of this.byGram) {
      const deltas = [...changes]
        .filter(([, change]) => change.delta !== 0 || change.partners.size > 0)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(
          ([order, { delta, partners, posted }]): GramDelta =>
            posted ? { order, delta, partners, posted } : { order, delta, partners },
        );
      if (deltas.length > 0) found.push([gramOfId(id), deltas]);
    }
    return found;
  }
}

/** A gram's blocks being cut while its postings are written whole, in order. */
interface Cut {
  readonly blocks: { low: OrderKey; count: number; partners: Map<string, number> }[];
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
    for (const { gram, partners } of holderGrams(pairs)) {
      const id = gramId(gram);
      const counted = partners.map((partner) => [partner, 1] as const);
      const cut = this.byGram.get(id);
      if (!cut) {
        const block = { low: LOWEST_ORDER_KEY, count: 1, partners: new Map(counted) };
        this.byGram.set(id, { blocks: [block], last: order });
        continue;
      }
      if (order <= cut.last) throw new Error(`postings of "${gram.text}" cut out of order`);
      cut.last = order;
      let block = cut.blocks.at(-1) as Cut["blocks"][number];
      if (block.count >= this.sizes.target) {
        block = { low: order, count: 0, partners: new Map() };
        cut.blocks.push(block);
      }
      block.count += 1;
      countPartners(block.partners, counted);
    }
  }

  /** Each gram's blocks (a small last one taken into the one before, if that fits). */
  blocks(): [Gram, GramBlockCounts[]][] {
    return [...this.byGram].map(([id, { blocks }]) => {
      const [before, last] = blocks.slice(-2);
      if (before && last && last.count < this.sizes.min && before.count + last.count <= this.sizes.max) {
        const partners = joinPartners(before.partners, last.partners);
        return [
          gramOfId(id),
          [...blocks.slice(0, -2), { low: before.low, count: before.count + last.count, partners }],
        ];
      }
      return [gramOfId(id), blocks];
    });
  }
}

/** How many postings each stored block counts once the deltas are applied, and their partners. */
function countsAfter(
  stored: GramBlockIndex,
  deltas: readonly GramDelta[],
): { count: number; partners: Map<string, number> }[] {
  const counts = stored.map((block) => ({ count: block.count, partners: new Map(block.partners) }));
  let slot = 0;
  for (const { order, delta, partners } of deltas) {
    while (slot + 1 < stored.length && (stored[slot + 1] as BlockRef).low <= order) slot += 1;
    const counted = counts[slot] as (typeof counts)[number];
    counted.count += delta;
    countPartners(counted.partners, partners);
  }
  for (const [i, { count, partners }] of counts.entries())
    if (count < 0 || [...partners.values()].some((n) => n < 0 || n > count))
      throw new Error(
        `the gram block at ${hexOf(orderKeyBytes((stored[i] as BlockRef).low))} would count fewer than no postings, or a partner more often than postings`,
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
  const holders = new Map(read.map((holder) => [holder.order, holder.partners]));
  for (const { order, delta, posted } of deltas) {
    if (order < range.low || (range.before !== undefined && order >= range.before)) continue;
    if (delta < 0) holders.delete(order);
    // Superseded and posted again (net 0): the holder read is replaced, with its new partners.
    else if (delta > 0 || (posted && holders.has(order))) holders.set(order, posted ?? []);
  }
  return [...holders]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([order, partners]) => ({ order, partners }));
}

/** A block of the plan: kept as stored, or written anew; `source` is the stored low its keys were read by. */
type Group =
  | {
      readonly kept: GramBlockRef;
      readonly low: OrderKey;
      readonly count: number;
      readonly partners: GramPartners;
    }
  | {
      readonly kept?: undefined;
      readonly low: OrderKey;
      readonly count: number;
      readonly partners: GramPartners;
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
  return [{ low: LOWEST_ORDER_KEY, count: first.count, partners: first.partners, source }, ...left.slice(1)];
}

/** Two neighbouring groups as one, from the first's low. */
const joined = (a: Group, b: Group): Group => ({
  low: a.low,
  count: a.count + b.count,
  partners: joinPartners(a.partners, b.partners),
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

/** A block above `max` cut into blocks of about `target`, from its holders as read (their partners counted anew). */
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
      partners: partnersOfHolders(piece),
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
    const partners = new Map<string, number>();
    for (const delta of deltas) countPartners(partners, delta.partners);
    if (count < 0 || [...partners.values()].some((n) => n < 0 || n > count))
      throw new Error("a gram with no block would count fewer than no postings");
    groups = [{ low: LOWEST_ORDER_KEY, count, partners }];
  } else {
    const counts = countsAfter(stored, deltas);
    // A block holds no keys: one whose counts are the same (a key moved within it) stays as it is.
    groups = stored.map((block, i): Group => {
      const { count, partners } = counts[i] as (typeof counts)[number];
      return count !== block.count || !samePartners(partners, block.partners)
        ? { low: block.low, count, partners, source: block.low }
        : { kept: block, low: block.low, count, partners };
    });
  }
  const planned = mergeSmall(dropEmpty(groups), sizes).flatMap((group) => split(group, contents, sizes));
  const kept = new Set(planned.flatMap((group) => (group.kept ? [group.kept] : [])));
  return {
    blocks: planned.map(
      (group) => group.kept ?? { low: group.low, gen, count: group.count, partners: group.partners },
    ),
    written: planned.flatMap((group) =>
      group.kept ? [] : [{ low: group.low, count: group.count, partners: group.partners }],
    ),
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

/**
 * How many matches of two fragments each block holds, when its gram is one fragment and `partner`
 * (a gram of 1 or 2 code points of the other name) the other: its partner count.
 */
export const partnerCounts = (blocks: GramBlockIndex, partner: string): number[] =>
  blocks.map((block) => block.partners.get(partner) ?? 0);

/** Whether a gram is short enough to be a partner: 1 or 2 code points. */
export const isPartnerGram = (text: string): boolean => {
  const length = [...text].length;
  return length >= 1 && length <= 2;
};
