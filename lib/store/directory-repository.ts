/**
 * Every read of the directory table. Searches count, sort and window their candidates on the
 * narrow item families of a company's partition, then read whole records only for the page.
 */
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
} from "@aws-sdk/lib-dynamodb";
import type { SourceEmployee } from "../directory/source.js";
import {
  compareBytes,
  concatBytes,
  instantOrderPrefix,
  orderKeyBytes,
  orderKeyOfBytes,
  phoneBytes,
} from "./binary-keys.js";
import {
  BLOCK_SHAPE,
  type BlockFamily,
  bundleChunkKey,
  bytesOf,
  companyPartition,
  type DirectoryItem,
  decompress,
  type EmploymentEntry,
  employeeFromItem,
  FAMILY,
  type NarrowEntry,
  narrowEntryFromRecordItem,
  ORDER_KEY_MAX,
  type OrderKey,
  type PersonEntry,
  type PersonRecords,
  personPartition,
  recordSortKey,
} from "./directory-items.js";
import { type NameBytesFilter, type PackedEntry, unpackBlock } from "./entry-blocks.js";
import { DIRECTORY_ATTR as A } from "./tables.js";

/** Bounds on a createdAt, as instant keys: `from` inclusive, `before` exclusive. */
export interface CreatedRange {
  readonly from?: string;
  readonly before?: string;
}

/** Normalized name fragments a search filters on. */
export interface NameFragments {
  readonly firstName?: string | undefined;
  readonly lastName?: string | undefined;
}

/** The fragments as UTF-8; an ill-formed one (a lone surrogate) is left to the caller's check. */
function nameBytesFilter(names: NameFragments | undefined): NameBytesFilter | undefined {
  if (!names) return undefined;
  const bytes = (fragment: string | undefined) =>
    fragment === undefined || !fragment.isWellFormed() ? undefined : Buffer.from(fragment, "utf8");
  const filter = { firstName: bytes(names.firstName), lastName: bytes(names.lastName) };
  if (!filter.firstName && !filter.lastName) return undefined;
  return {
    ...(filter.firstName ? { firstName: filter.firstName } : {}),
    ...(filter.lastName ? { lastName: filter.lastName } : {}),
  };
}

export interface DirectoryRepository {
  /**
   * Every employment of a company with createdAt in the range, in createdAt, id order. With name
   * fragments (normalized), entries whose names cannot contain them come without names.
   */
  employmentEntries(
    companyId: string,
    range?: CreatedRange,
    names?: NameFragments,
  ): Promise<EmploymentEntry[]>;
  /** Every person with an employment in the company, person createdAt in the range, in order; names as above. */
  personEntries(companyId: string, range?: CreatedRange, names?: NameFragments): Promise<PersonEntry[]>;
  /** Employments whose stored phone normalizes to `phone`, of one company or of all. */
  phoneEntries(phone: string, companyId?: string): Promise<NarrowEntry[]>;
  /**
   * Whole employee records of one company, in the order of the keys. `runLength`: read them with
   * one Query over the run of that many adjacent records from the first key to the last (the
   * records between are read and dropped); without it, one by one.
   */
  employeeRecords(
    companyId: string,
    orders: readonly OrderKey[],
    options?: { runLength?: number },
  ): Promise<SourceEmployee[]>;
  /** Persons with every employment in every company; absent ids are missing from the map. */
  persons(ids: readonly string[]): Promise<Map<string, PersonRecords>>;
  /** The block items of a family, raw: the loader merges into them. */
  blocks(companyId: string, family: BlockFamily): Promise<{ sort: Uint8Array; entries: PackedEntry[] }[]>;
}

/** Keys per BatchGetItem (DynamoDB's limit); a page is one request, the loader's thousands go 4 at a time. */
const BATCH_GET_CHUNK = 100;
const BATCH_GETS_IN_FLIGHT = 4;
const MAX_BATCH_ATTEMPTS = 6;
const INDEX = { byPhone: "byPhone" } as const;

/** Every item of a Query, following LastEvaluatedKey page after page. */
export async function queryAllPages(
  client: DynamoDBDocumentClient,
  input: QueryCommandInput,
): Promise<DirectoryItem[]> {
  const items: DirectoryItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const backoff = (attempt: number) => 25 * 2 ** attempt * (0.5 + Math.random() / 2);
const keyId = (partition: Uint8Array, sort: Uint8Array) =>
  `${Buffer.from(partition).toString("hex")}/${Buffer.from(sort).toString("hex")}`;

/** Entries strictly increasing by key; a load in progress may leave two blocks overlapping. */
function inKeyOrder(entries: PackedEntry[]): PackedEntry[] {
  let sorted = true;
  for (let i = 1; i < entries.length && sorted; i += 1) {
    sorted = compareBytes((entries[i - 1] as PackedEntry).key, (entries[i] as PackedEntry).key) < 0;
  }
  if (sorted) return entries;
  const unique = new Map(entries.map((entry) => [orderKeyOfBytes(entry.key), entry]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
}

export function directoryRepository(client: DynamoDBDocumentClient, tableName: string): DirectoryRepository {
  const blockQuery = (
    companyId: string,
    low: Uint8Array,
    high: Uint8Array,
    limit?: number,
  ): QueryCommandInput => ({
    TableName: tableName,
    KeyConditionExpression: "#p = :p AND #s BETWEEN :low AND :high",
    ExpressionAttributeNames: { "#p": A.partition, "#s": A.sort },
    ExpressionAttributeValues: { ":p": companyPartition(companyId), ":low": low, ":high": high },
    ...(limit ? { Limit: limit } : {}),
  });

  /**
   * The entries of a family with order keys in [from, before). Blocks are keyed by their last
   * entry: those ending in the range, plus the first one ending after it (it may start inside).
   */
  const familyEntries = async (
    companyId: string,
    family: BlockFamily,
    range: CreatedRange = {},
    filter?: NameBytesFilter,
  ) => {
    const from = range.from === undefined ? "" : instantOrderPrefix(range.from);
    const before = range.before === undefined ? ORDER_KEY_MAX : instantOrderPrefix(range.before);
    if (from >= before) return [];
    const bound = (order: string) => concatBytes(family, orderKeyBytes(order));
    const [inside, after] = await Promise.all([
      queryAllPages(client, blockQuery(companyId, bound(from), bound(before))),
      range.before === undefined
        ? Promise.resolve([])
        : client
            .send(new QueryCommand(blockQuery(companyId, bound(before), bound(ORDER_KEY_MAX), 1)))
            .then((page) => page.Items ?? []),
    ]);
    const entries = inKeyOrder(
      [...inside, ...after].flatMap((item) =>
        unpackBlock(bytesOf(item[A.data]), BLOCK_SHAPE[family], filter),
      ),
    );
    return entries
      .map((entry) => ({ entry, order: orderKeyOfBytes(entry.key) }))
      .filter(({ order }) => order >= from && order < before);
  };

  /** One BatchGetItem of up to 100 keys, retrying UnprocessedKeys within a bounded budget. */
  const batchGetOnce = async (keys: readonly { partition: Uint8Array; sort: Uint8Array }[]) => {
    const found: DirectoryItem[] = [];
    let pending: Record<string, unknown>[] = keys.map((key) => ({
      [A.partition]: key.partition,
      [A.sort]: key.sort,
    }));
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= MAX_BATCH_ATTEMPTS)
        throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
      if (attempt > 0) await sleep(backoff(attempt));
      const result = await client.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }),
      );
      found.push(...(result.Responses?.[tableName] ?? []));
      pending = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
    }
    return found;
  };

  /** Items by key, BATCH_GET_CHUNK to a request, BATCH_GETS_IN_FLIGHT requests at a time. */
  const batchGet = async (keys: readonly { partition: Uint8Array; sort: Uint8Array }[]) => {
    const chunks: (typeof keys)[] = [];
    for (let offset = 0; offset < keys.length; offset += BATCH_GET_CHUNK) {
      chunks.push(keys.slice(offset, offset + BATCH_GET_CHUNK));
    }
    const found = new Map<string, DirectoryItem>();
    let next = 0;
    const worker = async () => {
      for (let chunk = chunks[next++]; chunk; chunk = chunks[next++]) {
        for (const item of await batchGetOnce(chunk)) {
          found.set(keyId(bytesOf(item[A.partition]), bytesOf(item[A.sort])), item);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(chunks.length, BATCH_GETS_IN_FLIGHT) }, worker));
    return found;
  };

  /** The records of a run from the first key to the last, by order key (fewer if it changed). */
  const recordsByRun = async (companyId: string, orders: readonly OrderKey[], runLength: number) => {
    const [first, last] = [orders[0], orders.at(-1)];
    const found = new Map<string, DirectoryItem>();
    if (first === undefined || last === undefined) return found;
    let read = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const input = blockQuery(companyId, recordSortKey(first), recordSortKey(last), runLength - read);
      const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
      for (const item of page.Items ?? [])
        found.set(orderKeyOfBytes(bytesOf(item[A.sort]).subarray(1)), item);
      read += page.Items?.length ?? 0;
      start = page.LastEvaluatedKey;
      // A 1 MB page may end early; Limit reached leaves a LastEvaluatedKey that needs no follow-up.
    } while (start && read < runLength);
    return found;
  };

  return {
    async employmentEntries(companyId, range, names) {
      const entries = await familyEntries(companyId, FAMILY.employmentBlocks, range, nameBytesFilter(names));
      return entries.map(({ entry, order }) => {
        const names = entry.pairs[0];
        return {
          order,
          firstName: names?.firstName ?? null,
          lastName: names?.lastName ?? null,
          recordBytes: entry.recordBytes ?? 0,
        };
      });
    },

    async personEntries(companyId, range, names) {
      const entries = await familyEntries(companyId, FAMILY.personBlocks, range, nameBytesFilter(names));
      return entries.map(({ entry, order }) => ({ order, pairs: entry.pairs }));
    },

    async phoneEntries(phone, companyId) {
      const items = await queryAllPages(client, {
        TableName: tableName,
        IndexName: INDEX.byPhone,
        KeyConditionExpression: companyId === undefined ? "#t = :t" : "#t = :t AND #p = :p",
        ExpressionAttributeNames: {
          "#t": A.phone,
          ...(companyId === undefined ? {} : { "#p": A.partition }),
        },
        ExpressionAttributeValues: {
          ":t": phoneBytes(phone),
          ...(companyId === undefined ? {} : { ":p": companyPartition(companyId) }),
        },
      });
      return items.map((item) => narrowEntryFromRecordItem(item, phone));
    },

    async employeeRecords(companyId, orders, options) {
      if (orders.length === 0) return [];
      const partition = companyPartition(companyId);
      const keyOf = (order: OrderKey) => keyId(partition, recordSortKey(order));
      const found = new Map<string, DirectoryItem>();
      if (options?.runLength) {
        for (const [order, item] of await recordsByRun(companyId, orders, options.runLength))
          found.set(keyOf(order), item);
      }
      // Whatever the run did not hold (none asked for, or a load changed it) is fetched one by one.
      const missing = orders.filter((order) => !found.has(keyOf(order)));
      if (missing.length > 0) {
        const fetched = await batchGet(missing.map((order) => ({ partition, sort: recordSortKey(order) })));
        for (const [key, item] of fetched) found.set(key, item);
      }
      return orders.map((order) => {
        const item = found.get(keyOf(order));
        // The key was read moments ago; a record gone since is a live-data race, not a client error.
        if (!item) throw new Error("employee record disappeared between key read and fetch");
        return employeeFromItem(item);
      });
    },

    async persons(ids) {
      const unique = [...new Set(ids)];
      const heads = await batchGet(
        unique.map((id) => ({ partition: personPartition(id), sort: bundleChunkKey(0) })),
      );
      const result = new Map<string, PersonRecords>();
      await Promise.all(
        unique.map(async (id) => {
          const head = heads.get(keyId(personPartition(id), bundleChunkKey(0)));
          if (!head) return;
          const count = head[A.chunks];
          const chunks = typeof count === "number" ? count : 1;
          const parts = [bytesOf(head[A.data])];
          if (chunks > 1) {
            const rest = await queryAllPages(client, {
              TableName: tableName,
              KeyConditionExpression: "#p = :p AND #s BETWEEN :low AND :high",
              ExpressionAttributeNames: { "#p": A.partition, "#s": A.sort },
              ExpressionAttributeValues: {
                ":p": personPartition(id),
                ":low": bundleChunkKey(1),
                ":high": bundleChunkKey(chunks - 1),
              },
            });
            if (rest.length !== chunks - 1) throw new Error("person bundle is missing chunks");
            parts.push(...rest.map((item) => bytesOf(item[A.data])));
          }
          result.set(id, decompress<PersonRecords>(Buffer.concat(parts)));
        }),
      );
      return result;
    },

    async blocks(companyId, family) {
      const bound = (order: string) => concatBytes(family, orderKeyBytes(order));
      const items = await queryAllPages(client, blockQuery(companyId, bound(""), bound(ORDER_KEY_MAX)));
      return items.map((item) => ({
        sort: bytesOf(item[A.sort]),
        entries: unpackBlock(bytesOf(item[A.data]), BLOCK_SHAPE[family]),
      }));
    },
  };
}
