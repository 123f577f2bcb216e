/**
 * A load's counted orders, derived again before the flip for each company whose entries it changed:
 * by the entries it touched there, reading the index and only the blocks they fall in (and their
 * neighbours); or, for a company derived whole, from every entry an order counts. Only the blocks
 * that differ are written, with a new index. So a one-record change reads and writes a few blocks
 * and the index per order it touches, whatever the company's size.
 */
import type { OrderKey } from "../../binary-keys.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { BlockRef, OrderIndex } from "../model/index.js";
import {
  batchGet,
  COMPANY_ORDERS,
  companyItemVisible,
  companyPartition,
  encodeOrderBlock,
  encodeOrderIndex,
  FAMILY,
  type Family,
  type ItemKey,
  keyText,
  ORDER,
  type OrderFamily,
  orderBlockSort,
  orderIndexKeys,
  orderOfSort,
  type PartitionKey,
  Writes,
} from "../model/index.js";
import type { StoredOrderIndex } from "../read/index.js";
import { blockOf, indexParts, type OrderPlan, planOrder, planOrderChanges } from "../structures/index.js";
import { type ChunkContext, loadAt } from "./chunk-context.js";
import type { ChunkWriter } from "./load-chunk.js";

/** Journals and sends a derive's writes (in as many journal entries as they need). */
export async function writeInPieces(writer: ChunkWriter, writes: Writes): Promise<void> {
  await writer.write({
    puts: [...writes.puts.values()],
    deletes: [...writes.deletes.values()],
    stamps: [...writes.stamps.values()],
    replaced: [...writes.replaced.values()],
    locations: [],
    rewrites: [...writes.rewrites.values()],
  });
}

/** The writes of an order's plan: its blocks written and superseded, and its index. */
function planWrites(
  context: ChunkContext,
  partition: PartitionKey,
  order: OrderFamily,
  stored: StoredOrderIndex | undefined,
  plan: OrderPlan,
): Writes | undefined {
  if (!plan.changed) return undefined;
  const writes = new Writes(context.gen);
  // Blocks written again at their low, and the index, replace the stored versions unstamped:
  // readers reach blocks through the index, and take the index's newest version.
  writes.retireByLow(plan.superseded, plan.written, (block) => ({
    p: partition,
    s: orderBlockSort(order, block.low, block.gen),
  }));
  if (stored)
    writes.retire(orderIndexKeys(partition, order, stored.gen, stored.parts), stored.gen, !!plan.index);
  for (const block of plan.written)
    writes.put({
      [A.partition]: partition,
      [A.sort]: orderBlockSort(order, block.low, context.gen),
      [A.data]: encodeOrderBlock(block.keys),
    });
  if (plan.index) {
    const parts = indexParts(plan.index, context.indexPartBlocks);
    const keys = orderIndexKeys(partition, order, context.gen, parts.length);
    for (const [i, key] of keys.entries())
      writes.put({
        [A.partition]: partition,
        [A.sort]: key.s,
        [A.data]: encodeOrderIndex(parts[i] as OrderIndex),
        // Like a bundle's parts: every part says how many there are.
        ...(parts.length > 1 ? { [A.parts]: parts.length } : {}),
      });
  }
  return writes;
}

/** The writes that make the order in `partition` hold `next` (sorted, distinct). */
export async function orderWrites(
  context: ChunkContext,
  partition: PartitionKey,
  order: OrderFamily,
  next: readonly OrderKey[],
): Promise<Writes | undefined> {
  const at = loadAt(context);
  const { stored, blocks: contents } = await context.reads.orders.whole(partition, order, at);
  const index = stored?.index ?? [];
  const blocks = new Map(index.map((block, i) => [block.low, contents[i] ?? []]));
  return planWrites(
    context,
    partition,
    order,
    stored,
    planOrder(index, blocks, next, context.gen, context.orderBlocks),
  );
}

/** The writes that make a company's order hold every entry of the family it counts. */
async function wholeOrderWrites(
  context: ChunkContext,
  companyId: string,
  [order, family]: readonly [OrderFamily, Family],
): Promise<Writes | undefined> {
  const entries = await context.reads.family(companyId, family, {}, loadAt(context));
  return orderWrites(
    context,
    companyPartition(companyId),
    order,
    entries.map((entry) => entry.order),
  );
}

/** Runs of adjacent blocks holding the changed keys, each with its neighbours. */
function touchedRuns(index: OrderIndex, keys: Iterable<OrderKey>): { first: number; last: number }[] {
  const wanted = new Set<number>();
  for (const key of keys) {
    const slot = blockOf(index, key);
    for (const i of [slot - 1, slot, slot + 1]) if (i >= 0 && i < index.length) wanted.add(i);
  }
  const runs: { first: number; last: number }[] = [];
  for (const i of [...wanted].sort((a, b) => a - b)) {
    const run = runs.at(-1);
    if (run && run.last + 1 === i) run.last = i;
    else runs.push({ first: i, last: i });
  }
  return runs;
}

/**
 * The writes that apply `changes` (order keys present after the load or not) to a stored order,
 * reading its index and only the blocks the changes fall in and their neighbours; undefined when
 * nothing changes. An order never derived is read whole.
 */
async function orderChangeWrites(
  context: ChunkContext,
  companyId: string,
  [order, family]: readonly [OrderFamily, Family],
  changes: ReadonlyMap<OrderKey, boolean>,
): Promise<Writes | undefined> {
  if (changes.size === 0) return undefined;
  const at = loadAt(context);
  const partition = companyPartition(companyId);
  const stored = await context.reads.orders.index(partition, order, at);
  if (!stored) return wholeOrderWrites(context, companyId, [order, family]);
  const blocks = new Map<OrderKey, readonly OrderKey[]>();
  for (const run of touchedRuns(stored.index, changes.keys())) {
    const read = await context.reads.orders.blocks(partition, order, stored.index, run, at);
    for (const [i, keys] of read.entries()) blocks.set((stored.index[run.first + i] as BlockRef).low, keys);
  }
  const plan = planOrderChanges(stored.index, blocks, changes, context.gen, context.orderBlocks);
  return planWrites(context, partition, order, stored, plan);
}

/**
 * Per key entry family, each order key the load touched: whether a version of it is visible at
 * the load's generation (the touched versions are every one that may be: the old ones it stamped
 * or deleted, the new ones it put).
 */
async function changesOf(
  context: ChunkContext,
  touched: readonly ItemKey[],
): Promise<Map<Family, Map<OrderKey, boolean>>> {
  const keys = touched.filter((key) => key.s[0] === FAMILY.employmentKey || key.s[0] === FAMILY.personKey);
  const found = await batchGet(context.client, context.table, keys, true);
  const at = loadAt(context);
  const changes = new Map<Family, Map<OrderKey, boolean>>();
  for (const key of keys) {
    const family = key.s[0] as Family;
    const byOrder = changes.get(family) ?? new Map<OrderKey, boolean>();
    const order = orderOfSort(key.s);
    const item = found.get(keyText(key));
    byOrder.set(order, (byOrder.get(order) ?? false) || (item !== undefined && companyItemVisible(item, at)));
    changes.set(family, byOrder);
  }
  return changes;
}

/**
 * Derives a company's orders again: by the entries the load touched there (`touched`), or from all
 * its entries as the load left them (undefined). Whether its persons order changed (the scopes
 * holding the company are derived again only then).
 */
export async function deriveCompanyOrders(
  context: ChunkContext,
  writer: ChunkWriter,
  companyId: string,
  touched?: readonly ItemKey[],
): Promise<{ personsChanged: boolean }> {
  const changes = touched && (await changesOf(context, touched));
  let personsChanged = false;
  for (const orderOf of COMPANY_ORDERS) {
    const writes = changes
      ? await orderChangeWrites(context, companyId, orderOf, changes.get(orderOf[1]) ?? new Map())
      : await wholeOrderWrites(context, companyId, orderOf);
    if (writes) await writeInPieces(writer, writes);
    if (writes && orderOf[0] === ORDER.persons) personsChanged = true;
  }
  return { personsChanged };
}
