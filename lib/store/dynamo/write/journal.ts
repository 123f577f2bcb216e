/**
 * The journal of a load: before a chunk's writes go out, the keys they create, the keys they stamp
 * superseded and the locations they rewrite are written under the load's generation. A load that
 * dies is undone from it; a load that committed removes what it superseded from it.
 */

import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import type { Deadline } from "../../port.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  batchGet,
  batchWrite,
  bytesOf,
  compress,
  decompress,
  type Item,
  type ItemKey,
  inParallel,
  journalPartition,
  journalSort,
  type KeyText,
  keyOf,
  keyOfText,
  keyText,
  LOCATION_SORT,
  locationPartition,
  queryPages,
  sendConditional,
  seqOfJournal,
  storedLocation,
} from "../model/index.js";
import { type JournaledRewrite, undoneRewrite } from "./rewrites.js";

export interface JournalEntry {
  /** Items written at the load's generation. */
  readonly puts: KeyText[];
  /** Items of earlier generations stamped superseded by the load. */
  readonly stamps: KeyText[];
  /** Items of earlier generations the load replaced without a stamp (absent in older entries). */
  readonly replaced?: KeyText[];
  /** Record ids whose location item the load rewrote. */
  readonly locations: string[];
  /** Items a repair rewrote where they are, each with the item it replaced (absent in older entries). */
  readonly rewrites?: JournaledRewrite[];
}

const STAMPS_IN_FLIGHT = 16;
const ENTRIES_PER_PAGE = 8;

const locationKeys = (ids: readonly string[]): ItemKey[] =>
  ids.map((id) => ({ p: locationPartition(id), s: LOCATION_SORT }));

/**
 * Sets the superseded stamp `x` of an item to `gen`, or removes a stamp of `gen`. A stamp may
 * replace only one of a generation after `since` (the committed one when the load began) and
 * before `gen`: those never published, so abandoned. A paused loader that wakes can thus never
 * overwrite the stamp of a load after it.
 */
function stampUpdate(table: string, key: ItemKey, gen: number, remove: boolean, since: number) {
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
    ConditionExpression:
      "attribute_exists(#p) AND (attribute_not_exists(#x) OR #x = :gen OR (#x > :since AND #x < :gen))",
    ExpressionAttributeNames: { "#x": A.supersededAt, "#p": A.partition },
    ExpressionAttributeValues: { ...values, ":since": since },
  });
}

/**
 * A write of a location item by the load of generation `gen`: its new value (over the value it
 * read, of generation `read`, or none when it read none; or its own), the value before put back by
 * its undo, or its own value deleted (`emptyOnly`: only while it holds no record, as its clean-up
 * does).
 */
export type LocationWrite =
  | { readonly put: Item; readonly read: number | undefined }
  | { readonly restore: Item }
  | { readonly delete: ItemKey; readonly emptyOnly?: boolean };

function locationCommand(table: string, gen: number, write: LocationWrite) {
  const names = { "#g": A.gen };
  const values = { ":gen": gen };
  if ("put" in write)
    return new PutCommand({
      TableName: table,
      Item: write.put,
      // Its own generation too: a put the SDK retries may have landed already.
      ConditionExpression:
        write.read === undefined ? "attribute_not_exists(#g) OR #g = :gen" : "#g = :read OR #g = :gen",
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: write.read === undefined ? values : { ...values, ":read": write.read },
    });
  if ("restore" in write)
    return new PutCommand({
      TableName: table,
      Item: write.restore,
      ConditionExpression: "#g = :gen",
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
  return new DeleteCommand({
    TableName: table,
    Key: { [A.partition]: write.delete.p, [A.sort]: write.delete.s },
    ConditionExpression: write.emptyOnly ? "#g = :gen AND attribute_not_exists(#d)" : "#g = :gen",
    ExpressionAttributeNames: write.emptyOnly ? { ...names, "#d": A.data } : names,
    ExpressionAttributeValues: values,
  });
}

/**
 * Location writes of generation `gen`, each conditioned on the generation the item holds: a
 * location is one item, not a version, so this is what fences a load that lost its lease (a later
 * load's value, or its deletion, is never overwritten, put back or deleted by it). Returns how many
 * conditions failed.
 */
export async function writeLocations(
  client: DynamoDBDocumentClient,
  table: string,
  gen: number,
  writes: readonly LocationWrite[],
): Promise<number> {
  return sendConditional(
    client,
    writes.map((write) => locationCommand(table, gen, write)),
    STAMPS_IN_FLIGHT,
  );
}

/** The writes that put back the locations a generation rewrote: the value before it, or none. */
function locationRestores(locations: ReadonlyMap<KeyText, Item>, gen: number): LocationWrite[] {
  const restores: LocationWrite[] = [];
  for (const [text, item] of locations) {
    const stored = storedLocation(item);
    if (stored.gen !== gen) continue;
    const restored = stored.previous && {
      [A.partition]: item[A.partition],
      [A.sort]: item[A.sort],
      [A.gen]: stored.previous.gen,
      [A.data]: stored.previous.data,
    };
    restores.push(restored ? { restore: restored } : { delete: keyOfText(text) });
  }
  return restores;
}

export class Journal {
  private readonly client: DynamoDBDocumentClient;
  private readonly table: string;

  constructor(client: DynamoDBDocumentClient, table: string) {
    this.client = client;
    this.table = table;
  }

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

  /**
   * Sets or removes the superseded stamp (`since`: the generation committed when the load began);
   * an item that is gone (or already changed) is left as it is.
   */
  async stamp(keys: readonly ItemKey[], gen: number, remove: boolean, since = gen - 1): Promise<void> {
    await inParallel(keys, STAMPS_IN_FLIGHT, async (key) => {
      try {
        await this.client.send(stampUpdate(this.table, key, gen, remove, since));
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
   * Undoes a generation that never committed: its items go, stamps and locations are restored, the
   * items it rewrote are put back. Entry by entry, each deleted once undone: false when `deadline`
   * came first (call again). `keepLast`: the last entry is undone but kept, for a loader that lost
   * its lease may still be sending that entry's writes (it journals before it writes): the next
   * undo goes over it again. Its rewrites are dropped from it: a later load may rewrite the same
   * keys, and a late rewrite of the lost loader lands only over the item it read.
   */
  async undo(gen: number, deadline: Deadline = () => false, keepLast = false): Promise<boolean> {
    const last = keepLast ? await this.lastSeq(gen) : -1;
    let goOn = true;
    for await (const { key, entry } of this.entries(gen)) {
      // One entry at least per call: each call makes progress, however early its deadline.
      if (!goOn) return false;
      const rewrites = entry.rewrites ?? [];
      await batchWrite(this.client, this.table, [
        ...entry.puts.map((text) => ({ delete: keyOfText(text) })),
        ...rewrites.map(undoneRewrite),
      ]);
      await this.stamp(entry.stamps.map(keyOfText), gen, true);
      // A restore whose location a later load rewrote meanwhile is refused, and rightly left.
      await writeLocations(this.client, this.table, gen, locationRestores(await this.locations(entry), gen));
      const seq = seqOfJournal(key.s);
      if (seq !== last) await batchWrite(this.client, this.table, [{ delete: key }]);
      else if (rewrites.length > 0) await this.write(gen, seq, { ...entry, rewrites: [] });
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
      await batchWrite(
        this.client,
        this.table,
        [...entry.stamps, ...(entry.replaced ?? [])].map((text) => ({ delete: keyOfText(text) })),
      );
      await writeLocations(
        this.client,
        this.table,
        gen,
        deleted.map(([text]) => ({ delete: keyOfText(text), emptyOnly: true })),
      );
      await batchWrite(this.client, this.table, [{ delete: key }]);
      goOn = !deadline();
    }
    return true;
  }
}

export const journal = (client: DynamoDBDocumentClient, table: string): Journal => new Journal(client, table);
