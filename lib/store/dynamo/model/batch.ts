/**
 * DynamoDB's batch calls with their partial answers handled: unprocessed keys and items are
 * retried with jittered exponential backoff within a bounded number of attempts.
 */
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  type UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import type { Brand } from "../../binary-keys.js";
import { hexBytes, hexOf } from "../../bytes.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { PartitionKey, SortKey } from "./layout.js";

export type Item = Record<string, unknown>;
export interface ItemKey {
  readonly p: PartitionKey;
  readonly s: SortKey;
}
/** An item's key as text, hex partition `/` hex sort: a Map key, and what journal entries hold. */
export type KeyText = Brand<string, "KeyText">;

/** The most keys one BatchGetItem, and requests one BatchWriteItem, takes. */
const BATCH_GET_MAX = 100;
const BATCH_WRITE_MAX = 25;
const IN_FLIGHT = 4;
const MAX_ATTEMPTS = 10;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Full jitter over 25 ms doubling, capped at 2 s. */
const backoff = (attempt: number) => Math.min(2_000, 25 * 2 ** attempt) * Math.random();

export const bytesOf = (value: unknown): Uint8Array => {
  if (value instanceof Uint8Array) return value;
  throw new Error("expected a Binary attribute");
};
export const keyOf = (item: Item): ItemKey => ({
  p: bytesOf(item[A.partition]) as PartitionKey,
  s: bytesOf(item[A.sort]) as SortKey,
});
export const keyText = (key: ItemKey): KeyText => `${hexOf(key.p)}/${hexOf(key.s)}` as KeyText;
export function keyOfText(text: KeyText): ItemKey {
  const [p = "", s = ""] = text.split("/");
  return { p: hexBytes(p) as PartitionKey, s: hexBytes(s) as SortKey };
}
const keyAttributes = (key: ItemKey) => ({ [A.partition]: key.p, [A.sort]: key.s });

/** `items` cut into batches of at most `size`. */
function batchesOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `work` over the batches, `IN_FLIGHT` at a time. */
async function eachBatch<T>(list: readonly T[][], work: (batch: T[]) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let batch = list[next++]; batch; batch = list[next++]) await work(batch);
  };
  await Promise.all(Array.from({ length: Math.min(list.length, IN_FLIGHT) }, worker));
}

/** Items by key, keyed by `keyText`; missing keys are absent from the map. */
export async function batchGet(
  client: DynamoDBDocumentClient,
  table: string,
  keys: readonly ItemKey[],
  consistent = false,
): Promise<Map<KeyText, Item>> {
  const found = new Map<KeyText, Item>();
  await eachBatch(batchesOf(keys, BATCH_GET_MAX), async (batch) => {
    let pending: Record<string, unknown>[] = batch.map(keyAttributes);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= MAX_ATTEMPTS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
      if (attempt > 0) await sleep(backoff(attempt));
      const result = await client.send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: consistent } } }),
      );
      for (const item of result.Responses?.[table] ?? []) found.set(keyText(keyOf(item)), item);
      pending = (result.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
    }
  });
  return found;
}

export type WriteRequest = { put: Item } | { delete: ItemKey };

/** Puts and deletes, 25 to a BatchWriteItem; no two requests of one call may name the same key. */
export async function batchWrite(
  client: DynamoDBDocumentClient,
  table: string,
  requests: readonly WriteRequest[],
): Promise<void> {
  await eachBatch(batchesOf(requests, BATCH_WRITE_MAX), async (batch) => {
    let pending: Record<string, unknown>[] = batch.map((request) =>
      "put" in request
        ? { PutRequest: { Item: request.put } }
        : { DeleteRequest: { Key: keyAttributes(request.delete) } },
    );
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= MAX_ATTEMPTS) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed`);
      if (attempt > 0) await sleep(backoff(attempt));
      const result = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (result.UnprocessedItems?.[table] ?? []) as Record<string, unknown>[];
    }
  });
}

/** A Query of one partition's sort keys between `low` and `high` (both included). */
export function betweenQuery(
  table: string,
  key: { readonly p: Uint8Array; readonly low: Uint8Array; readonly high: Uint8Array },
  consistent: boolean,
): QueryCommandInput {
  return {
    TableName: table,
    ConsistentRead: consistent,
    KeyConditionExpression: "#p = :p AND #s BETWEEN :low AND :high",
    ExpressionAttributeNames: { "#p": A.partition, "#s": A.sort },
    ExpressionAttributeValues: { ":p": key.p, ":low": key.low, ":high": key.high },
  };
}

/** A query's pages in order, one request at a time, so a caller holds one page at once. */
export async function* queryPages(
  client: DynamoDBDocumentClient,
  input: QueryCommandInput,
): AsyncGenerator<Item[]> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Every item of a Query, following LastEvaluatedKey page after page. */
export async function queryAll(client: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of queryPages(client, input)) items.push(...page);
  return items;
}

/** Runs `work` on each item, `limit` at a time. */
export async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(items.length, limit) }, worker));
  return results;
}

/**
 * Sends conditional writes, `limit` at a time; returns how many were refused because their
 * condition no longer held (any other failure throws).
 */
export async function sendConditional(
  client: DynamoDBDocumentClient,
  commands: readonly (PutCommand | DeleteCommand | UpdateCommand)[],
  limit: number,
): Promise<number> {
  let refused = 0;
  await inParallel(commands, limit, async (command) => {
    try {
      // One call per command class: the client's send is overloaded by it.
      if (command instanceof PutCommand) await client.send(command);
      else if (command instanceof DeleteCommand) await client.send(command);
      else await client.send(command);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      refused += 1;
    }
  });
  return refused;
}
