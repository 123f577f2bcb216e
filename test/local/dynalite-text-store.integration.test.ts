/**
 * startDynalite runs dynalite on memory-level keeping text, not buffers (dynalite-text-store.ts):
 * the store in use is the text one, and binary sort keys still come back in byte order, high
 * bytes and prefixes included, as DynamoDB orders them.
 */
import { createRequire } from "node:module";
import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { createTables } from "../../lib/store/create-tables.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../lib/store/tables.js";

const TABLES = { directory: "t-text-directory", keys: "t-text-keys" };
const PARTITION = Uint8Array.of(0xff, 0x00);

let engine: Engine;
beforeAll(async () => {
  engine = await startDynalite();
});
afterAll(async () => {
  await engine?.stop();
});

it("gives dynalite the memory-level that stores text", () => {
  const require = createRequire(import.meta.url);
  const fromDynalite = createRequire(require.resolve("dynalite"));
  const { MemoryLevel } = fromDynalite("memory-level") as { MemoryLevel: { name: string } };
  expect(MemoryLevel.name).toBe("TextMemoryLevel");
});

it("answers binary sort keys in byte order", async () => {
  const client = engine.client();
  await createTables(client, TABLES);
  const documents = documentClientFor(client);
  const sorted = [[0x00], [0x00, 0x00], [0x01], [0x7f, 0xff], [0x80], [0xc3, 0xa9], [0xff], [0xff, 0x00]];
  // Put in an order of their own, not the answer's.
  for (const sort of [6, 2, 7, 0, 5, 3, 1, 4].map((i) => sorted[i] ?? []))
    await documents.send(
      new PutCommand({
        TableName: TABLES.directory,
        Item: { [A.partition]: PARTITION, [A.sort]: Uint8Array.from(sort) },
      }),
    );
  const { Items } = await documents.send(
    new QueryCommand({
      TableName: TABLES.directory,
      KeyConditionExpression: "#p = :p",
      ExpressionAttributeNames: { "#p": A.partition },
      ExpressionAttributeValues: { ":p": PARTITION },
    }),
  );
  const answered = (Items ?? []).map((item) => [...(item[A.sort] as Uint8Array)]);
  expect(answered).toEqual(sorted);
});
