/**
 * Reads of counted orders (counted-order.ts) as of one generation: an order's index, then only the
 * blocks a question needs, as one Query per run of adjacent blocks.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { OrderKey } from "../../binary-keys.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { OrderIndex, ReadAt } from "../model/index.js";
import {
  batchGet,
  betweenQuery,
  bytesOf,
  decodeOrderBlock,
  decodeOrderIndex,
  genOf,
  type Item,
  keyOf,
  keyText,
  newestVersion,
  type OrderFamily,
  orderBlockSort,
  orderIndexKeys,
  orderIndexSort,
  orderOfSort,
  type PartitionKey,
  queryAll,
} from "../model/index.js";

/** An order's index as stored: its blocks, the generation of the index version and its items. */
export interface StoredOrderIndex {
  readonly index: OrderIndex;
  readonly gen: number;
  /** Items the version is stored in: 1, or the parts of an index too large for one. */
  readonly parts: number;
}

export class OrderReads {
  private readonly client: DynamoDBDocumentClient;
  private readonly table: string;

  constructor(client: DynamoDBDocumentClient, table: string) {
    this.client = client;
    this.table = table;
  }

  /**
   * The order's index visible at `at`: the newest version at or below it, and its further parts
   * when it has any (one more round trip, only for an order of millions of keys). Undefined when
   * the order was never derived or is empty.
   */
  async index(
    partition: PartitionKey,
    order: OrderFamily,
    at: ReadAt,
  ): Promise<StoredOrderIndex | undefined> {
    const item = await newestVersion(
      this.client,
      this.table,
      { p: partition, low: orderIndexSort(order, 0), high: orderIndexSort(order, at.gen) },
      at,
    );
    if (!item) return undefined;
    const gen = genOf(bytesOf(item[A.sort]));
    const n = item[A.parts];
    const parts = typeof n === "number" ? n : 1;
    if (parts === 1) return { index: decodeOrderIndex(bytesOf(item[A.data])), gen, parts };
    const keys = orderIndexKeys(partition, order, gen, parts);
    const found = await batchGet(this.client, this.table, keys.slice(1), at.consistent);
    const index = keys.flatMap((key, part) => {
      const stored = part === 0 ? item : found.get(keyText(key));
      if (!stored) throw new Error(`part ${part} of ${parts} of an order index is missing`);
      return decodeOrderIndex(bytesOf(stored[A.data]));
    });
    return { index, gen, parts };
  }

  /** The whole order visible at `at`: its index (if any) and every block's keys, in order. */
  async whole(
    partition: PartitionKey,
    order: OrderFamily,
    at: ReadAt,
  ): Promise<{ stored: StoredOrderIndex | undefined; blocks: OrderKey[][] }> {
    const stored = await this.index(partition, order, at);
    const index = stored?.index ?? [];
    const blocks = await this.blocks(partition, order, index, { first: 0, last: index.length - 1 }, at);
    return { stored, blocks };
  }

  /**
   * The keys of blocks `first` to `last` of `index` (one Query over their run): only the versions
   * the index names, so versions awaiting removal are read and dropped.
   */
  async blocks(
    partition: PartitionKey,
    order: OrderFamily,
    index: OrderIndex,
    run: { readonly first: number; readonly last: number },
    at: ReadAt,
  ): Promise<OrderKey[][]> {
    const named = index.slice(run.first, run.last + 1);
    const [firstBlock, lastBlock] = [named[0], named.at(-1)];
    if (!firstBlock || !lastBlock) return [];
    const low = orderBlockSort(order, firstBlock.low, 0);
    const high = orderBlockSort(order, lastBlock.low, 0xffffffff);
    const items = await queryAll(
      this.client,
      betweenQuery(this.table, { p: partition, low, high }, at.consistent),
    );
    const found = new Map<string, Item>();
    for (const item of items) {
      const sort = bytesOf(item[A.sort]);
      found.set(`${orderOfSort(sort)}/${genOf(sort)}`, item);
    }
    return named.map((block) => {
      const item = found.get(`${block.low}/${block.gen}`);
      if (!item) throw new Error(`block ${run.first + named.indexOf(block)} of an order is missing`);
      const keys = decodeOrderBlock(bytesOf(item[A.data]));
      // A block out of step with its index would shift every window after it: fail, never answer.
      if (keys.length !== block.count)
        throw new Error(
          `order block ${keyText(keyOf(item))} holds ${keys.length} keys where its index counts ${block.count}`,
        );
      return keys;
    });
  }
}
