/**
 * A few items in one partition of a fresh engine, and Queries over it: the smallest work that
 * makes dynalite open (and end) LevelDB iterators, for the engine tests.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Engine } from "../../lib/local/engines.js";
import { createTables } from "../../lib/store/create-tables.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../lib/store/tables.js";

const TABLES = { directory: "t-directory", keys: "t-keys" };
const PARTITION = Uint8Array.of(1, 2);

/** Creates the tables and puts one item a sort key in the partition, in the order given. */
export async function partitionWith(
  engine: Engine,
  sortKeys: readonly Uint8Array[],
): Promise<DynamoDBDocumentClient> {
  const client = engine.client();
  await createTables(client, TABLES);
  const documents = documentClientFor(client);
  for (const sort of sortKeys)
    await documents.send(
      new PutCommand({ TableName: TABLES.directory, Item: { [A.partition]: PARTITION, [A.sort]: sort } }),
    );
  return documents;
}

/** Creates the tables and puts `items` items in the partition; the client to query it with. */
export function partitionOf(engine: Engine, items: number): Promise<DynamoDBDocumentClient> {
  return partitionWith(
    engine,
    Array.from({ length: items }, (_, s) => Uint8Array.of(s)),
  );
}

/** The sort keys one Query of the partition answers, in its order; stopped at `limit` when given. */
export async function partitionSortKeys(
  documents: DynamoDBDocumentClient,
  limit?: number,
): Promise<Uint8Array[]> {
  const { Items } = await documents.send(
    new QueryCommand({
      TableName: TABLES.directory,
      KeyConditionExpression: "#p = :p",
      ExpressionAttributeNames: { "#p": A.partition },
      ExpressionAttributeValues: { ":p": PARTITION },
      ...(limit === undefined ? {} : { Limit: limit }),
    }),
  );
  return (Items ?? []).map((item) => item[A.sort] as Uint8Array);
}

/** One Query of the partition, stopped at `limit` items when given; the items it answered. */
export async function queryPartition(documents: DynamoDBDocumentClient, limit?: number): Promise<number> {
  return (await partitionSortKeys(documents, limit)).length;
}
