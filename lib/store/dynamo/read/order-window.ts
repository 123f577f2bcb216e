/**
 * A window of a counted order and the count of its created range, from the index and the few
 * blocks around the window and the range's bounds: two round trips, whatever the order's size.
 */
import type { CreatedRange } from "../../../search/matching.js";
import type { OrderKey } from "../../binary-keys.js";
import { emptyOrderRange, orderRange } from "../../order-range.js";
import type { OrderFamily, OrderIndex, PartitionKey, ReadAt } from "../model/index.js";
import { blockOf, blockStarts, blocksOfPositions, rankIn } from "../structures/index.js";
import type { OrderReads } from "./order-reads.js";

export interface OrderWindow {
  /** The window's keys, in order. */
  readonly keys: readonly OrderKey[];
  /** Keys of the whole range. */
  readonly total: number;
}

interface Run {
  readonly first: number;
  readonly last: number;
}

/** Block numbers as runs of adjacent blocks: each run is read by one Query. */
function runsOf(blocks: Iterable<number>): Run[] {
  const runs: Run[] = [];
  for (const block of [...new Set(blocks)].sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && block === last.last + 1) runs[runs.length - 1] = { first: last.first, last: block };
    else runs.push({ first: block, last: block });
  }
  return runs;
}

const through = (run: Run | undefined): number[] =>
  run ? Array.from({ length: run.last - run.first + 1 }, (_, i) => run.first + i) : [];

/** Reads the blocks, all runs at once; their keys by block number. */
async function readBlocks(
  orders: OrderReads,
  where: { partition: PartitionKey; order: OrderFamily; index: OrderIndex },
  blocks: Iterable<number>,
  at: ReadAt,
): Promise<Map<number, readonly OrderKey[]>> {
  const runs = runsOf(blocks);
  const contents = await Promise.all(
    runs.map((run) => orders.blocks(where.partition, where.order, where.index, run, at)),
  );
  const byBlock = new Map<number, readonly OrderKey[]>();
  runs.forEach((run, r) => {
    through(run).forEach((block, i) => {
      byBlock.set(block, contents[r]?.[i] ?? []);
    });
  });
  return byBlock;
}

/**
 * Keys [offset, offset + limit) of the order's created range, and the range's count; undefined
 * when the order has no index at `at` (never derived, or empty: the caller reads the entries).
 */
export async function orderWindow(
  orders: OrderReads,
  partition: PartitionKey,
  order: OrderFamily,
  query: { readonly created: CreatedRange; readonly offset: number; readonly limit: number },
  at: ReadAt,
): Promise<OrderWindow | undefined> {
  const stored = await orders.index(partition, order, at);
  if (!stored) return undefined;
  const { index } = stored;
  const starts = blockStarts(index);
  const range = orderRange(query.created);
  if (emptyOrderRange(range)) return { keys: [], total: 0 };
  const { from, before } = range;
  // The range starts in block `a`, somewhere in its keys: the window lies within `candidates`.
  const a = from === undefined ? 0 : blockOf(index, from);
  const b = before === undefined ? undefined : blockOf(index, before);
  const aStart = starts[a] as number;
  const candidates = blocksOfPositions(
    starts,
    aStart + query.offset,
    (from === undefined ? aStart : (starts[a + 1] as number)) + query.offset + query.limit,
  );
  const needed = [
    ...through(candidates),
    ...(from === undefined ? [] : [a]),
    ...(b === undefined ? [] : [b]),
  ];
  const keys = await readBlocks(orders, { partition, order, index }, needed, at);
  const rankOf = (block: number, key: OrderKey) =>
    (starts[block] as number) + rankIn(keys.get(block) ?? [], key);
  const rankFrom = from === undefined ? 0 : rankOf(a, from);
  const rankBefore = b === undefined || before === undefined ? (starts.at(-1) as number) : rankOf(b, before);
  const total = Math.max(0, rankBefore - rankFrom);
  const start = rankFrom + query.offset;
  const window = blocksOfPositions(starts, start, Math.min(rankBefore, start + query.limit));
  if (!window) return { keys: [], total };
  const held = through(window).flatMap((block) => {
    const blockKeys = keys.get(block);
    if (!blockKeys) throw new Error(`block ${block} of the window was not read`);
    return blockKeys;
  });
  const skip = start - (starts[window.first] as number);
  return { keys: held.slice(skip, skip + Math.min(query.limit, rankBefore - start)), total };
}
