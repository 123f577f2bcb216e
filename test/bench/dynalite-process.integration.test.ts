/**
 * The bench's dynalite in a process of its own: it answers over its endpoint, in memory or with
 * its table in a folder on disk, and stop() ends it and removes the folder.
 */
import { existsSync } from "node:fs";
import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { startDynaliteProcess } from "../../lib/bench/dynalite-process.js";
import { createTables } from "../../lib/store/create-tables.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../lib/store/tables.js";

const TABLES = { directory: "t-directory", keys: "t-keys" };

async function useEngine(
  onDisk: boolean,
): Promise<{ folder: string | undefined; existed: boolean; answered: number }> {
  const engine = await startDynaliteProcess(onDisk);
  const { folder } = engine;
  try {
    const client = engine.client();
    await createTables(client, TABLES);
    const documents = documentClientFor(client);
    const p = Uint8Array.of(1, 2);
    for (let s = 0; s < 5; s += 1)
      await documents.send(
        new PutCommand({
          TableName: TABLES.directory,
          Item: { [A.partition]: p, [A.sort]: Uint8Array.of(s) },
        }),
      );
    let answered = 0;
    for (let i = 0; i < 20; i += 1) {
      const { Items } = await documents.send(
        new QueryCommand({
          TableName: TABLES.directory,
          KeyConditionExpression: "#p = :p",
          ExpressionAttributeNames: { "#p": A.partition },
          ExpressionAttributeValues: { ":p": p },
          Limit: 1,
        }),
      );
      answered += Items?.length ?? 0;
    }
    return { folder, existed: folder !== undefined && existsSync(folder), answered };
  } finally {
    await engine.stop();
  }
}

test("on disk: answers, then stop() ends the process and removes its folder", async () => {
  const { folder, existed, answered } = await useEngine(true);
  expect(answered).toBe(20);
  expect(existed).toBe(true);
  expect(existsSync(folder as string)).toBe(false);
}, 60_000);

test("in memory: answers, with no folder", async () => {
  const { folder, answered } = await useEngine(false);
  expect(answered).toBe(20);
  expect(folder).toBeUndefined();
}, 60_000);
