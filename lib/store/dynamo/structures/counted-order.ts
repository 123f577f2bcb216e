/**
 * Counted orders: a sorted set of order keys kept in blocks of a few hundred, with an index of
 * each block's lower bound and count. A search then finds its total, and the blocks that hold any
 * offset or range bound, from the index alone, and reads only those blocks: its cost follows the
 * page, not the set (docs/data-model.md, "Counted orders"). Pure: locating and planning, no I/O.
 */
import type { OrderKey } from "../../binary-keys.js";
import type { BlockRef, OrderIndex } from "../model/index.js";
import { type BlockSizes, checkedBlockSizes } from "./block-sizes.js";

/** Keys an order block holds. */
export type OrderBlockSizes = BlockSizes;

/**
 * A block of 256 keys is 6.4 KB (one read unit, eventually consistent); the index of 370,000
 * persons (1,450 blocks of 31 bytes) is 45 KB.
 */
export const BLOCK_ENTRIES: OrderBlockSizes = { target: 256, max: 512, min: 64 };

/**
 * Blocks one index item holds: 10,000 of at most 35 bytes is 350 KB, under DynamoDB's 400 KB item
 * limit. A larger index (an order of more than about 2.5 million keys) is stored in parts of this
 * many blocks, read together.
 */
export const INDEX_PART_BLOCKS = 10_000;

/** An index as stored: in runs of at most `perPart` blocks, one run when it fits one item. */
export function indexParts(index: OrderIndex, perPart = INDEX_PART_BLOCKS): OrderIndex[] {
  if (!Number.isInteger(perPart) || perPart < 1)
    throw new Error(`blocks per index part must be 1 or more: ${perPart}`);
  const parts: OrderIndex[] = [];
  for (let first = 0; first < index.length; first += perPart) parts.push(index.slice(first, first + perPart));
  return parts.length === 0 ? [index] : parts;
}

/** The number of keys below `key` in a sorted list. */
export function rankIn(keys: readonly OrderKey[], key: OrderKey): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((keys[mid] as OrderKey) < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The block whose range holds `key`: the last whose low is at or below it (the first if none). */
export function blockOf(index: OrderIndex, key: OrderKey): number {
  let low = 0;
  let high = index.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((index[mid] as BlockRef).low <= key) low = mid + 1;
    else high = mid;
  }
  return Math.max(0, low - 1);
}

/** Positions before each block, and the whole count last. */
export function blockStarts(index: OrderIndex): number[] {
  const starts = [0];
  for (const block of index) starts.push((starts.at(-1) as number) + block.count);
  return starts;
}

/** The blocks holding positions [from, to), first and last inclusive; undefined when none does. */
export function blocksOfPositions(
  starts: readonly number[],
  from: number,
  to: number,
): { first: number; last: number } | undefined {
  const total = starts.at(-1) as number;
  const end = Math.min(to, total);
  if (from >= end) return undefined;
  const holding = (position: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if ((starts[mid] as number) <= position) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  return { first: holding(from), last: holding(end - 1) };
}

/** A block of the plan: kept as stored, or written anew with these keys. */
type Group =
  | { readonly kept: BlockRef; readonly keys: readonly OrderKey[] }
  | { readonly kept?: undefined; readonly low: OrderKey; readonly keys: readonly OrderKey[] };

export interface OrderPlan {
  /** The order's index after the plan (undefined: the order is empty). */
  readonly index: OrderIndex | undefined;
  /** Blocks to write at the plan's generation. */
  readonly written: readonly { readonly low: OrderKey; readonly keys: readonly OrderKey[] }[];
  /** Stored blocks the plan replaces or drops. */
  readonly superseded: readonly BlockRef[];
  /** Whether anything changes (the index is then written too). */
  readonly changed: boolean;
}

const sameKeys = (a: readonly OrderKey[], b: readonly OrderKey[]) =>
  a.length === b.length && a.every((key, i) => key === b[i]);

/** `next` (sorted, distinct) spread over the stored blocks' ranges. */
function spread(stored: OrderIndex, next: readonly OrderKey[]): OrderKey[][] {
  const slots: OrderKey[][] = stored.map(() => []);
  let slot = 0;
  for (const key of next) {
    while (slot + 1 < stored.length && (stored[slot + 1] as BlockRef).low <= key) slot += 1;
    (slots[slot] as OrderKey[]).push(key);
  }
  return slots;
}

/** Changed blocks: empty ones dropped, small ones merged into a neighbour, large ones split. */
function normalize(groups: readonly Group[], sizes: OrderBlockSizes): Group[] {
  const merged: Group[] = [];
  for (const group of groups) {
    if (group.kept) {
      merged.push(group);
      continue;
    }
    if (group.keys.length === 0) continue;
    const previous = merged.at(-1);
    if (previous && group.keys.length < sizes.min && previous.keys.length + group.keys.length <= sizes.max) {
      const low = previous.kept ? previous.kept.low : previous.low;
      merged[merged.length - 1] = { low, keys: [...previous.keys, ...group.keys] };
    } else merged.push(group);
  }
  // A small first block has no block before it: it takes in the one after, if that fits.
  const [first, second] = merged;
  if (
    first &&
    second &&
    !first.kept &&
    first.keys.length < sizes.min &&
    first.keys.length + second.keys.length <= sizes.max
  )
    merged.splice(0, 2, { low: first.low, keys: [...first.keys, ...second.keys] });
  return merged.flatMap((group) => (group.kept ? [group] : split(group.low, group.keys, sizes)));
}

/** Keys cut into blocks of about `target` (a block of `max` or fewer stays whole). */
function split(low: OrderKey, keys: readonly OrderKey[], sizes: OrderBlockSizes): Group[] {
  if (keys.length <= sizes.max) return [{ low, keys }];
  const pieces = Math.round(keys.length / sizes.target);
  const size = Math.ceil(keys.length / pieces);
  const groups: Group[] = [];
  for (let at = 0; at < keys.length; at += size) {
    const piece = keys.slice(at, at + size);
    groups.push({ low: at === 0 ? low : (piece[0] as OrderKey), keys: piece });
  }
  return groups;
}

/** The plan of `planned` groups over the stored blocks: what is written, dropped, and the index. */
function planOf(stored: OrderIndex, planned: readonly Group[], gen: number): OrderPlan {
  const kept = new Set(planned.flatMap((group) => (group.kept ? [group.kept] : [])));
  const written = planned.flatMap((group) => (group.kept ? [] : [{ low: group.low, keys: group.keys }]));
  const superseded = stored.filter((block) => !kept.has(block));
  const index = planned.map((group) =>
    group.kept ? group.kept : { low: group.low, gen, count: group.keys.length },
  );
  return {
    index: index.length === 0 ? undefined : index,
    written,
    superseded,
    changed: written.length > 0 || superseded.length > 0,
  };
}

/**
 * What makes a stored order hold `next` (sorted, distinct): blocks whose keys are unchanged stay
 * as they are, so a change of one key rewrites one block and the index. `blocks` holds the keys of
 * every stored block, by its low.
 */
export function planOrder(
  stored: OrderIndex,
  blocks: ReadonlyMap<OrderKey, readonly OrderKey[]>,
  next: readonly OrderKey[],
  gen: number,
  sizes: OrderBlockSizes = BLOCK_ENTRIES,
): OrderPlan {
  checkedBlockSizes("order", sizes);
  const [lowest] = next;
  const groups: Group[] =
    stored.length === 0
      ? lowest === undefined
        ? []
        : [{ low: lowest, keys: next }]
      : spread(stored, next).map((keys, i): Group => {
          const block = stored[i] as BlockRef;
          const old = blocks.get(block.low);
          if (!old) throw new Error(`block ${i} of the order was not read`);
          // The first block's low may have to move down to stay below a new lowest key.
          const low = i === 0 && keys[0] !== undefined && keys[0] < block.low ? keys[0] : block.low;
          return sameKeys(old, keys) && low === block.low ? { kept: block, keys } : { low, keys };
        });
  return planOf(stored, normalize(groups, sizes), gen);
}

/** A stored block with `changes` applied to its keys: kept when they are the same. */
function changedGroup(
  block: BlockRef,
  isFirst: boolean,
  old: readonly OrderKey[],
  changes: readonly (readonly [OrderKey, boolean])[],
): Group {
  const keys = new Set(old);
  for (const [key, here] of changes) {
    if (here) keys.add(key);
    else keys.delete(key);
  }
  const next = [...keys].sort();
  const low = isFirst && next[0] !== undefined && next[0] < block.low ? next[0] : block.low;
  return sameKeys(old, next) && low === block.low ? { kept: block, keys: next } : { low, keys: next };
}

/**
 * What makes a stored order hold its keys after `changes` (each order key touched: present after or
 * not), reading only the blocks the changes fall in and their neighbours: `blocks` must hold the keys
 * of those, by low (a block's neighbour takes in a block grown too small). So a change of a few
 * keys reads and writes a few blocks and the index, whatever the order's size.
 */
export function planOrderChanges(
  stored: OrderIndex,
  blocks: ReadonlyMap<OrderKey, readonly OrderKey[]>,
  changes: ReadonlyMap<OrderKey, boolean>,
  gen: number,
  sizes: OrderBlockSizes = BLOCK_ENTRIES,
): OrderPlan {
  checkedBlockSizes("order", sizes);
  if (stored.length === 0) {
    const present = [...changes].flatMap(([key, here]) => (here ? [key] : [])).sort();
    return planOrder(stored, blocks, present, gen, sizes);
  }
  const bySlot = new Map<number, [OrderKey, boolean][]>();
  for (const change of changes) {
    const slot = blockOf(stored, change[0]);
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), change]);
  }
  const keysOf = (i: number): readonly OrderKey[] => {
    const block = stored[i] as BlockRef;
    const keys = blocks.get(block.low);
    if (!keys) throw new Error(`block ${i} of the order was not read`);
    return keys;
  };
  const groups = stored.map((block, i): Group => {
    const slotChanges = bySlot.get(i);
    // Unchanged and unread: kept as it is (its keys are read only beside a changed block).
    if (!slotChanges) return { kept: block, keys: blocks.get(block.low) ?? [] };
    for (const neighbour of [i - 1, i + 1])
      if (neighbour >= 0 && neighbour < stored.length) keysOf(neighbour);
    return changedGroup(block, i === 0, keysOf(i), slotChanges);
  });
  return planOf(stored, normalize(groups, sizes), gen);
}
