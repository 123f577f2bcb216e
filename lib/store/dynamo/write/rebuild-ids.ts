/**
 * What a whole `repair` does to the id index: every visible location's record and every visible
 * bundle holding its person gets its entry, of the generation of their entries; any other visible entry is
 * superseded. One Scan of the table (a whole repair reads it for its companies anyway); the
 * expected entries are held by key, about 100 bytes an id.
 */
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  bundleGenOf,
  bundlePartOf,
  companyItemVisible,
  genOf,
  type Item,
  type ItemKey,
  idEntryItem,
  idOfPartition,
  isIdsPartition,
  isLocationPartition,
  isPersonPartition,
  type KeyText,
  keyOf,
  keyText,
  supersededAt,
  visibleAt,
  Writes,
} from "../model/index.js";
import { locationAt } from "../read/index.js";
import { type ChunkContext, loadAt } from "./chunk-context.js";
import { writeInPieces } from "./derive-orders.js";
import type { ChunkWriter } from "./load-chunk.js";

/** The id entry an item calls for, if any: a visible location's record, a visible bundle's person. */
function wanted(item: Item, at: ReturnType<typeof loadAt>): Item | undefined {
  const { p, s } = keyOf(item);
  if (isLocationPartition(p)) {
    const seen = locationAt(item, at);
    return seen && idEntryItem("employee", idOfPartition(p), seen.value.entries);
  }
  if (!isPersonPartition(p) || bundlePartOf(s) !== 0 || item[A.hasPerson] !== 1) return undefined;
  const gen = bundleGenOf(s);
  const entries = item[A.entriesGen];
  return visibleAt(gen, supersededAt(item), at) && typeof entries === "number"
    ? idEntryItem("person", idOfPartition(p), entries)
    : undefined;
}

/** The id entries the table calls for, and those visible, by key. */
class IdTally {
  private readonly at: ReturnType<typeof loadAt>;
  readonly want = new Map<KeyText, Item>();
  readonly have = new Map<KeyText, { key: ItemKey; gen: number }>();
  /** Id entries stored but not visible (few): what a rewrite of their key replaces. */
  readonly hidden = new Map<KeyText, Item>();
  constructor(at: ReturnType<typeof loadAt>) {
    this.at = at;
  }

  add(item: Item): void {
    const key = keyOf(item);
    if (!isIdsPartition(key.p)) {
      const entry = wanted(item, this.at);
      if (entry) this.want.set(keyText(keyOf(entry)), entry);
      return;
    }
    if (companyItemVisible(item, this.at)) this.have.set(keyText(key), { key, gen: genOf(key.s) });
    else this.hidden.set(keyText(key), item);
  }
}

export async function rebuildIdIndex(context: ChunkContext, writer: ChunkWriter): Promise<void> {
  const tally = new IdTally(loadAt(context));
  let start: Record<string, unknown> | undefined;
  do {
    const page = await context.client.send(
      new ScanCommand({ TableName: context.table, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    for (const item of page.Items ?? []) tally.add(item);
    start = page.LastEvaluatedKey;
  } while (start);
  const writes = new Writes(context.gen);
  // At the generation of the entries they index: rewritten where they are (rewrites.ts).
  for (const [text, item] of tally.want)
    if (!tally.have.has(text)) writes.rewrite(item, tally.hidden.get(text));
  for (const [text, { key, gen }] of tally.have) if (!tally.want.has(text)) writes.supersede([key], gen);
  await writeInPieces(writer, writes);
}
