/**
 * The journal of a load: before a chunk's writes go out, the keys they create, the keys they stamp
 * superseded and the locations they rewrite are written under the load's generation. A load that
 * dies is undone from it; a load that committed removes what it superseded from it.
 */

import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Deadline } from "../port.js";
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
  type WriteRequest,
} from "./batch.js";
import { compress, decompress } from "./codec.js";
import { journalPartition, journalSort, LOCATION_SORT, locationPartition, seqOfJournal } from "./layout.js";
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

const locationKeys = (ids: readonly string[]): ItemKey[] =>
  ids.map((id) => ({ p: locationPartition(id), s: LOCATION_SORT }));

/** Sets the superseded stamp `x` of an item to `gen`, or removes a stamp of `gen`. */
function stampUpdate(table: string, key: ItemKey, gen: number, remove: boolean) {
  const common = { TableName: table, Key: { [A.partition]: key.p, [A.sort]: key.s } };
  const values = { ":gen": gen };
  if (remove)
    return new UpdateCommand({
      ...common,
      UpdateExpression: "REMOVE #x",
      ConditionExpression: "#x = :gen",
      ExpressionAttributeNames: { "#x": A.supersededAt },
      ExpressionAttributeValues: values,
    });
  return new UpdateCommand({
    ...common,
    UpdateExpression: "SET #x = :gen",
    ConditionExpression: "attribute_exists(#p) AND (attribute_not_exists(#x) OR #x = :gen)",
    ExpressionAttributeNames: { "#x": A.supersededAt, "#p": A.partition },
    ExpressionAttributeValues: values,
  });
}

/** The writes that put back the locations a generation rewrote: the value before it, or none. */
function locationRestores(locations: ReadonlyMap<KeyText, Item>, gen: number): WriteRequest[] {
  const restores: WriteRequest[] = [];
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
  return restores;
}

export class Journal {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async write(gen: number, seq: number, entry: JournalEntry): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.table,
        Item: { [A.partition]: journalPartition(gen), [A.sort]: journalSort(seq), [A.data]: compress(entry) },
      }),
    );
  }

  /**
   * A generation's journal entries with their keys, a page of `ENTRIES_PER_PAGE` at a time: a
   * million-record load journals thousands of entries, and holding them all at once doubled the
   * loader's memory.
   */
  private async *entries(gen: number) {
    const pages = queryPages(this.client, {
      TableName: this.table,
      ConsistentRead: true,
      Limit: ENTRIES_PER_PAGE,
      KeyConditionExpression: "#p = :p",
      ExpressionAttributeNames: { "#p": A.partition },
      ExpressionAttributeValues: { ":p": journalPartition(gen) },
    });
    for await (const page of pages)
      for (const item of page)
        yield { key: keyOf(item), entry: decompress<JournalEntry>(bytesOf(item[A.data])) };
  }

  /** The highest sequence number journaled under `gen`, or -1 when none is. */
  async lastSeq(gen: number): Promise<number> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.table,
        ConsistentRead: true,
        Limit: 1,
        ScanIndexForward: false,
        KeyConditionExpression: "#p = :p",
        ExpressionAttributeNames: { "#p": A.partition },
        ExpressionAttributeValues: { ":p": journalPartition(gen) },
      }),
    );
    const last = Items?.[0];
    return last ? seqOfJournal(bytesOf(last[A.sort])) : -1;
  }

  /** Sets or removes the superseded stamp; an item that is gone (or already changed) is left as it is. */
  async stamp(keys: readonly ItemKey[], gen: number, remove: boolean): Promise<void> {
    await inParallel(keys, STAMPS_IN_FLIGHT, async (key) => {
      try {
        await this.client.send(stampUpdate(this.table, key, gen, remove));
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        if (!remove)
          throw new Error(`item ${keyText(key)} to supersede is missing or superseded by another load`);
      }
    });
  }

  private locations(entry: JournalEntry) {
    return batchGet(this.client, this.table, locationKeys(entry.locations), true);
  }

  /**
   * Undoes a generation that never committed: its items go, stamps and locations are restored.
   * Entry by entry, each deleted once undone: false when `deadline` came first (call again).
   */
  async undo(gen: number, deadline: Deadline = () => false): Promise<boolean> {
    let goOn = true;
    for await (const { key, entry } of this.entries(gen)) {
      // One entry at least per call: each call makes progress, however early its deadline.
      if (!goOn) return false;
      await batchWrite(
        this.client,
        this.table,
        entry.puts.map((text) => ({ delete: keyOfText(text) })),
      );
      await this.stamp(entry.stamps.map(keyOfText), gen, true);
      await batchWrite(this.client, this.table, locationRestores(await this.locations(entry), gen));
      await batchWrite(this.client, this.table, [{ delete: key }]);
      goOn = !deadline();
    }
    return true;
  }

  /**
   * After a commit: the versions the generation superseded go, and so do locations it deleted.
   * False when `deadline` came first (call again: done entries are gone from the journal).
   */
  async cleanUp(gen: number, deadline: Deadline = () => false): Promise<boolean> {
    let goOn = true;
    for await (const { key, entry } of this.entries(gen)) {
      if (!goOn) return false;
      const locations = await this.locations(entry);
      const deleted = [...locations].filter(([, item]) => item[A.gen] === gen && item[A.data] === undefined);
      await batchWrite(this.client, this.table, [
        ...entry.stamps.map((text) => ({ delete: keyOfText(text) })),
        ...deleted.map(([text]) => ({ delete: keyOfText(text) })),
      ]);
      await batchWrite(this.client, this.table, [{ delete: key }]);
      goOn = !deadline();
    }
    return true;
  }
}

export const journal = (client: DynamoDBDocumentClient, table: string): Journal => new Journal(client, table);
