/** Reads and writes key records in the keys table, keyed by the key's hash. */

import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { type KeyRecord, type KeyStatus, keyRecordSchema } from "../keys/key-record.js";
import { KEYS_ATTR, KEYS_TABLE } from "./tables.js";

export interface KeysRepository {
  findByHash(keyHash: string): Promise<KeyRecord | undefined>;
  findById(keyId: string): Promise<KeyRecord | undefined>;
  list(): Promise<KeyRecord[]>;
  put(record: KeyRecord): Promise<void>;
  /** Marks a key revoked; returns the updated record, or undefined when no key has that id. */
  revoke(keyId: string, at: Date): Promise<KeyRecord | undefined>;
  /**
   * Sets some fields of a key whose status is still `expected` (refused otherwise, so an update
   * can never bring a revoked key back); returns the updated record, undefined when no key has that id.
   */
  update(keyId: string, expected: KeyStatus, changes: KeyChanges): Promise<KeyRecord | undefined>;
}

/** What `update` may change: the tier (with its throttle), the companies, the status and the API Gateway key id. */
type KeyChanges = Partial<Pick<KeyRecord, "tier" | "throttle" | "companies" | "status" | "usageKeyId">>;

type KeyItem = Record<string, unknown>;

function toItem(record: KeyRecord): KeyItem {
  const { keyHash, keyId, ...rest } = record;
  return { [KEYS_ATTR.hash]: keyHash, [KEYS_ATTR.keyId]: keyId, ...rest };
}

function fromItem(item: KeyItem): KeyRecord {
  const { [KEYS_ATTR.hash]: keyHash, [KEYS_ATTR.keyId]: keyId, ...rest } = item;
  return keyRecordSchema.parse({ keyHash, keyId, ...rest });
}

interface KeysTable {
  readonly client: DynamoDBDocumentClient;
  readonly name: string;
}

async function findByHash({ client, name }: KeysTable, keyHash: string): Promise<KeyRecord | undefined> {
  const { Item } = await client.send(
    // Strongly consistent, so a revoke takes effect as soon as the authorizer cache expires.
    new GetCommand({ TableName: name, Key: { [KEYS_ATTR.hash]: keyHash }, ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
}

async function hashOfKeyId({ client, name }: KeysTable, keyId: string): Promise<string | undefined> {
  const index = KEYS_TABLE.indexes[0];
  const { Items } = await client.send(
    new QueryCommand({
      TableName: name,
      IndexName: index?.name,
      KeyConditionExpression: "#id = :id",
      ExpressionAttributeNames: { "#id": KEYS_ATTR.keyId },
      ExpressionAttributeValues: { ":id": keyId },
    }),
  );
  const hash = Items?.[0]?.[KEYS_ATTR.hash];
  return typeof hash === "string" ? hash : undefined;
}

async function list({ client, name }: KeysTable): Promise<KeyRecord[]> {
  const records: KeyRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    // Consistent: reconcile lists API keys first, and every record written before must be seen.
    const page = await client.send(
      new ScanCommand({ TableName: name, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    for (const item of page.Items ?? []) records.push(fromItem(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
}

async function revoke(table: KeysTable, keyId: string, at: Date): Promise<KeyRecord | undefined> {
  const hash = await hashOfKeyId(table, keyId);
  if (!hash) return undefined;
  const { Attributes } = await table.client.send(
    new UpdateCommand({
      TableName: table.name,
      Key: { [KEYS_ATTR.hash]: hash },
      UpdateExpression: "SET #status = :revoked, #revokedAt = if_not_exists(#revokedAt, :at)",
      ConditionExpression: "attribute_exists(#hash)",
      ExpressionAttributeNames: {
        "#status": "status",
        "#revokedAt": "revokedAt",
        "#hash": KEYS_ATTR.hash,
      },
      ExpressionAttributeValues: { ":revoked": "revoked", ":at": at.toISOString() },
      ReturnValues: "ALL_NEW",
    }),
  );
  return Attributes ? fromItem(Attributes) : undefined;
}

async function update(
  table: KeysTable,
  keyId: string,
  expected: KeyStatus,
  changes: KeyChanges,
): Promise<KeyRecord | undefined> {
  const hash = await hashOfKeyId(table, keyId);
  if (!hash) return undefined;
  const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (fields.length === 0) throw new Error("update needs at least one field to change");
  try {
    const { Attributes } = await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { [KEYS_ATTR.hash]: hash },
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(", ")}`,
        ConditionExpression: "#status = :expected",
        ExpressionAttributeNames: {
          "#status": "status",
          ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
        },
        ExpressionAttributeValues: {
          ":expected": expected,
          ...Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
        },
        ReturnValues: "ALL_NEW",
      }),
    );
    return Attributes ? fromItem(Attributes) : undefined;
  } catch (error) {
    if ((error as Error).name !== "ConditionalCheckFailedException") throw error;
    const current = await findByHash(table, hash);
    throw new Error(`key ${keyId} is ${current?.status ?? "gone"}, not ${expected}: not changed`);
  }
}

/** The repository's methods are plain functions (callers may take them apart, as `authorize` does). */
export function keysRepository(client: DynamoDBDocumentClient, tableName: string): KeysRepository {
  const table: KeysTable = { client, name: tableName };
  return {
    findByHash: (keyHash) => findByHash(table, keyHash),
    async findById(keyId) {
      const hash = await hashOfKeyId(table, keyId);
      return hash ? findByHash(table, hash) : undefined;
    },
    list: () => list(table),
    async put(record) {
      await client.send(
        new PutCommand({ TableName: tableName, Item: toItem(keyRecordSchema.parse(record)) }),
      );
    },
    revoke: (keyId, at) => revoke(table, keyId, at),
    update: (keyId, expected, changes) => update(table, keyId, expected, changes),
  };
}
