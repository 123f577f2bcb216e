/**
 * Creates the DynamoDB tables of lib/store/tables.ts on an engine (dynalite, DynamoDB Local, or a
 * real account for ad-hoc use). The CDK stack builds its own constructs from the same definitions.
 */
import {
  type AttributeDefinition,
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type KeySchemaElement,
  type Projection,
  ResourceInUseException,
} from "@aws-sdk/client-dynamodb";
import {
  type IndexDefinition,
  type KeyAttribute,
  TABLES,
  type TableDefinition,
  type TableId,
} from "./tables.js";

function keySchema(partitionKey: KeyAttribute, sortKey: KeyAttribute | undefined): KeySchemaElement[] {
  const schema: KeySchemaElement[] = [{ AttributeName: partitionKey.name, KeyType: "HASH" }];
  if (sortKey) schema.push({ AttributeName: sortKey.name, KeyType: "RANGE" });
  return schema;
}

function projection(index: IndexDefinition): Projection {
  if (index.projection.type === "KEYS_ONLY") return { ProjectionType: "KEYS_ONLY" };
  return { ProjectionType: "INCLUDE", NonKeyAttributes: [...index.projection.attributes] };
}

/** The CreateTable input for one definition; pure, so it can be unit-tested without an engine. */
export function createTableInput(def: TableDefinition, name: string): CreateTableCommandInput {
  // Every key attribute (table and indexes) must be declared exactly once; all are strings.
  const keys = [def.partitionKey, def.sortKey, ...def.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  const attributes = new Map<string, KeyAttribute>();
  for (const key of keys) if (key) attributes.set(key.name, key);
  const attributeDefinitions: AttributeDefinition[] = [...attributes.values()].map((a) => ({
    AttributeName: a.name,
    AttributeType: a.type,
  }));
  const globalSecondaryIndexes: GlobalSecondaryIndex[] = def.indexes.map((index) => ({
    IndexName: index.name,
    KeySchema: keySchema(index.partitionKey, index.sortKey),
    Projection: projection(index),
  }));
  return {
    TableName: name,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: attributeDefinitions,
    KeySchema: keySchema(def.partitionKey, def.sortKey),
    // DynamoDB rejects an empty GlobalSecondaryIndexes list, so omit it when there are none.
    ...(globalSecondaryIndexes.length > 0 ? { GlobalSecondaryIndexes: globalSecondaryIndexes } : {}),
  };
}

export interface CreateTablesOptions {
  /** How long to wait for every table and index to become ACTIVE (default 60 s). */
  readonly timeoutMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function waitUntilActive(client: DynamoDBClient, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // Local engines are ACTIVE within milliseconds; start fast and back off for a real account.
  let delay = 10;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === "ACTIVE");
    if (Table?.TableStatus === "ACTIVE" && indexesActive) return;
    if (Date.now() + delay > deadline) {
      throw new Error(`table ${name} is not ACTIVE after ${timeoutMs} ms (status ${Table?.TableStatus})`);
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 1_000);
  }
}

async function createTable(
  client: DynamoDBClient,
  def: TableDefinition,
  name: string,
  timeoutMs: number,
): Promise<void> {
  try {
    await client.send(new CreateTableCommand(createTableInput(def, name)));
  } catch (error) {
    // Idempotent: a table of that name already exists (or is being created); just wait for it.
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitUntilActive(client, name, timeoutMs);
}

/** Creates every table of lib/store/tables.ts under the given names and waits until all are ACTIVE. */
export async function createTables(
  client: DynamoDBClient,
  names: Readonly<Record<TableId, string>>,
  options: CreateTablesOptions = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  await Promise.all(Object.values(TABLES).map((def) => createTable(client, def, names[def.id], timeoutMs)));
}
