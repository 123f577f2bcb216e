/**
 * A load's counted orders, derived again before the flip for each company it changed: each order
 * is read whole from the entries it counts (as of the load's generation), compared with its stored
 * blocks, and only the blocks that differ are written, with a new index. So a one-record change
 * writes a block and an index per order it touches, whatever the company's size.
 */
import type { OrderKey } from "../../binary-keys.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { OrderIndex } from "../model/index.js";
import {
  COMPANY_ORDERS,
  companyPartition,
  encodeOrderBlock,
  encodeOrderIndex,
  ORDER,
  type OrderFamily,
  orderBlockSort,
  orderIndexKeys,
  type PartitionKey,
  Writes,
} from "../model/index.js";
import { indexParts, planOrder } from "../structures/index.js";
import { type ChunkContext, loadAt } from "./chunk-context.js";
import type { ChunkWriter } from "./load-chunk.js";

/** Journals and sends a derive's writes (in as many journal entries as they need). */
export async function writeInPieces(writer: ChunkWriter, writes: Writes): Promise<void> {
  await writer.write({
    puts: [...writes.puts.values()],
    deletes: [...writes.deletes.values()],
    stamps: [...writes.stamps.values()],
    locations: [],
  });
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
  const plan = planOrder(index, blocks, next, context.gen, context.orderBlocks);
  if (!plan.changed) return undefined;
  const writes = new Writes(context.gen);
  for (const block of plan.superseded)
    writes.supersede([{ p: partition, s: orderBlockSort(order, block.low, block.gen) }], block.gen);
  if (stored) writes.supersede(orderIndexKeys(partition, order, stored.gen, stored.parts), stored.gen);
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
        // Like a bundle's chunks: every part says how many there are.
        ...(parts.length > 1 ? { [A.chunks]: parts.length } : {}),
      });
  }
  return writes;
}

/**
 * Derives a company's orders again from its entries as the load left them; whether its persons
 * order changed (the scopes holding the company are derived again only then).
 */
export async function deriveCompanyOrders(
  context: ChunkContext,
  writer: ChunkWriter,
  companyId: string,
): Promise<{ personsChanged: boolean }> {
  const partition = companyPartition(companyId);
  const at = loadAt(context);
  let personsChanged = false;
  for (const [order, family] of COMPANY_ORDERS) {
    const entries = await context.reads.family(companyId, family, {}, at);
    const writes = await orderWrites(
      context,
      partition,
      order,
      entries.map((entry) => entry.order),
    );
    if (writes) await writeInPieces(writer, writes);
    if (writes && order === ORDER.persons) personsChanged = true;
  }
  return { personsChanged };
}
