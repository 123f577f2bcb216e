/**
 * The bench's dynalite in a process of its own: it answers over its endpoint, in memory or with
 * its table in a folder on disk, and stop() ends it and removes the folder after Queries that
 * stopped early. dynalite ends those iterators through `return()`, which abstract-level's lack
 * (lib/local/dynalite-iterators.ts): an iterator left open on disk keeps the folder from going.
 */
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { startDynaliteProcess } from "../../lib/bench/dynalite-process.js";
import { createTables } from "../../lib/store/create-tables.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../lib/store/tables.js";

const folders = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith("bench-dynalite-")));
const TABLES = { directory: "t-directory", keys: "t-keys" };

async function useEngine(onDisk: boolean): Promise<{ during: Set<string>; answered: number }> {
  const engine = await startDynaliteProcess(onDisk);
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
    // Each stops at its Limit with items left: an iterator dynalite does not close.
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
    return { during: folders(), answered };
  } finally {
    await engine.stop();
  }
}

test("on disk: answers, then stop() ends the process and removes its folder", async () => {
  const before = folders();
  const { during, answered } = await useEngine(true);
  expect(answered).toBe(20);
  expect([...during].filter((name) => !before.has(name))).toHaveLength(1);
  expect([...folders()].filter((name) => !before.has(name))).toEqual([]);
}, 60_000);

test("in memory: answers and leaves no folder", async () => {
  const before = folders();
  const { during, answered } = await useEngine(false);
  expect(answered).toBe(20);
  expect([...during].filter((name) => !before.has(name))).toEqual([]);
}, 60_000);
