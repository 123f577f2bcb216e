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

/** Creates the tables and puts `items` items in the partition; the client to query it with. */
export async function partitionOf(engine: Engine, items: number): Promise<DynamoDBDocumentClient> {
  const client = engine.client();
  await createTables(client, TABLES);
  const documents = documentClientFor(client);
  for (let s = 0; s < items; s += 1)
    await documents.send(
      new PutCommand({
        TableName: TABLES.directory,
        Item: { [A.partition]: PARTITION, [A.sort]: Uint8Array.of(s) },
      }),
    );
  return documents;
}

/** One Query of the partition, stopped at `limit` items when given; the items it answered. */
export async function queryPartition(documents: DynamoDBDocumentClient, limit?: number): Promise<number> {
  const { Items } = await documents.send(
    new QueryCommand({
      TableName: TABLES.directory,
      KeyConditionExpression: "#p = :p",
      ExpressionAttributeNames: { "#p": A.partition },
      ExpressionAttributeValues: { ":p": PARTITION },
      ...(limit === undefined ? {} : { Limit: limit }),
    }),
  );
  return Items?.length ?? 0;
}
