/**
 * The journal of a load: before a chunk's writes go out, the keys they create, the keys they stamp
 * superseded and the locations they rewrite are written under the load's generation. A load that
 * dies is undone from it; a load that committed removes what it superseded from it.
 */

import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { DIRECTORY_ATTR as A } from "../tables.js";
import {
  batchGet,
  batchWrite,
  bytesOf,
  type Item,
  type ItemKey,
  inParallel,
  type KeyText,
  keyOf,
  keyOfText,
  keyText,
  queryPages,
} from "./batch.js";
import { compress, decompress } from "./codec.js";
import { journalPartition, journalSort, LOCATION_SORT, locationPartition } from "./layout.js";
import { storedLocation } from "./load-plan.js";

export interface JournalEntry {
  /** Items written at the load's generation. */
  readonly puts: KeyText[];
  /** Items of earlier generations stamped superseded by the load. */
  readonly stamps: KeyText[];
  /** Record ids whose location item the load rewrote. */
  readonly locations: string[];
}

const STAMPS_IN_FLIGHT = 16;
const ENTRIES_PER_PAGE = 8;

export function journal(client: DynamoDBDocumentClient, table: string) {
  const write = (gen: number, seq: number, entry: JournalEntry) =>
    client.send(
      new PutCommand({
        TableName: table,
        Item: { [A.partition]: journalPartition(gen), [A.sort]: journalSort(seq), [A.data]: compress(entry) },
      }),
    );

  /**
   * A generation's journal entries with their keys, a page of `ENTRIES_PER_PAGE` at a time: a
   * million-record load journals thousands of entries, and holding them all at once doubled the
   * loader's memory.
   */
  async function* entries(gen: number) {
    const pages = queryPages(client, {
      TableName: table,
      ConsistentRead: true,
      Limit: ENTRIES_PER_PAGE,
      KeyConditionExpression: "#p = :p",
      ExpressionAttributeNames: { "#p": A.partition },
      ExpressionAttributeValues: { ":p": journalPartition(gen) },
    });
    for await (const page of pages)
      for (const item of page)
        yield {
          key: keyOf(item),
          entry: decompress<JournalEntry>(bytesOf(item[A.data])),
        };
  }

  /** Sets or removes the superseded stamp; an item that is gone (or already changed) is left as it is. */
  const stamp = (keys: readonly ItemKey[], gen: number, remove: boolean) =>
    inParallel(keys, STAMPS_IN_FLIGHT, async (key) => {
      try {
        await client.send(
          new UpdateCommand({
            TableName: table,
            Key: { [A.partition]: key.p, [A.sort]: key.s },
            UpdateExpression: remove ? "REMOVE #x" : "SET #x = :gen",
            ConditionExpression: remove
              ? "#x = :gen"
              : "attribute_exists(#p) AND (attribute_not_exists(#x) OR #x = :gen)",
            ExpressionAttributeNames: remove
              ? { "#x": A.supersededAt }
              : { "#x": A.supersededAt, "#p": A.partition },
            ExpressionAttributeValues: { ":gen": gen },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        if (!remove)
          throw new Error(`item ${keyText(key)} to supersede is missing or superseded by another load`);
      }
    });

  const locationKeys = (ids: readonly string[]) =>
    ids.map((id) => ({ p: locationPartition(id), s: LOCATION_SORT }));

  /** Undoes a generation that never committed: its items go, stamps and locations are restored. */
  const undo = async (gen: number) => {
    for await (const { key, entry } of entries(gen)) {
      await batchWrite(
        client,
        table,
        entry.puts.map((text) => ({ delete: keyOfText(text) })),
      );
      await stamp(entry.stamps.map(keyOfText), gen, true);
      const locations = await batchGet(client, table, locationKeys(entry.locations), true);
      const restores: ({ put: Item } | { delete: ItemKey })[] = [];
      for (const [text, item] of locations) {
        const stored = storedLocation(item);
        if (stored.gen !== gen) continue;
        const restored = stored.previous && {
          [A.partition]: item[A.partition],
          [A.sort]: item[A.sort],
          [A.gen]: stored.previous.gen,
          [A.data]: stored.previous.data,
        };
        restores.push(restored ? { put: restored } : { delete: keyOfText(text) });
      }
      await batchWrite(client, table, restores);
      await batchWrite(client, table, [{ delete: key }]);
    }
  };

  /** After a commit: the versions the generation superseded go, and so do locations it deleted. */
  const cleanUp = async (gen: number) => {
    for await (const { key, entry } of entries(gen)) {
      const locations = await batchGet(client, table, locationKeys(entry.locations), true);
      const deleted = [...locations].filter(([, item]) => item[A.gen] === gen && item[A.data] === undefined);
      await batchWrite(client, table, [
        ...entry.stamps.map((text) => ({ delete: keyOfText(text) })),
        ...deleted.map(([text]) => ({ delete: keyOfText(text) })),
      ]);
      await batchWrite(client, table, [{ delete: key }]);
    }
  };

  return { write, stamp, undo, cleanUp };
}
