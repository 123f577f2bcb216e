/**
 * What `npm run directory -- repair` rebuilds, as a load: every derived item of a company or a
 * scope partition visible at the load's generation (order blocks and indexes, name postings,
 * census, marker: sort keys from 0x08 on) is superseded, damaged or not, so the load's derive
 * writes them all again from the entries (derive-orders.ts, derive-grams.ts, derive-scopes.ts).
 */
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { SourceEmployee } from "../../../directory/source.js";
import { orderKeyParts } from "../../binary-keys.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  betweenQuery,
  bytesOf,
  companyItemVisible,
  companyOfPartition,
  companyPartition,
  decompress,
  FAMILY,
  genOf,
  gramCensusGenOf,
  type Item,
  inParallel,
  isCompanyPartition,
  isGramCensusSort,
  keyOf,
  keyText,
  orderOfSort,
  type PartitionKey,
  personEntryItems,
  personOrder,
  queryPages,
  recordEntryItems,
  recordItem,
  type SortKey,
  supersededAt,
  visibleAt,
  Writes,
} from "../model/index.js";
import { type ChunkContext, loadAt } from "./chunk-context.js";
import { writeInPieces } from "./derive-orders.js";
import type { ChunkWriter } from "./load-chunk.js";

/** Sort keys of a partition's derived items: blocks (0x08, 0x09) to postings markers (0x0f). */
const DERIVED = { low: Uint8Array.of(0x08) as SortKey, high: Uint8Array.of(0x0f, 0xff) as SortKey };

/** The generation of a derived item. */
const derivedGen = (s: SortKey): number => (isGramCensusSort(s) ? gramCensusGenOf(s) : genOf(s));

/** Supersedes every derived item of partition `p` visible at the load's generation. */
export async function supersedeDerived(context: ChunkContext, writer: ChunkWriter, p: PartitionKey) {
  writer.forgetBlocks();
  const pages = queryPages(context.client, betweenQuery(context.table, { p, ...DERIVED }, true));
  for await (const page of pages) {
    const writes = new Writes(context.gen);
    for (const item of page) {
      const key = keyOf(item);
      const gen = derivedGen(key.s);
      if (visibleAt(gen, supersededAt(item), context)) writes.supersede([key], gen);
    }
    await writeInPieces(writer, writes);
  }
}

/** Every company with an item in the table: a Scan of partition keys (it reads the whole table). */
export async function storedCompanies(context: Pick<ChunkContext, "client" | "table">): Promise<string[]> {
  const companies = new Set<string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await context.client.send(
      new ScanCommand({
        TableName: context.table,
        ProjectionExpression: "#p",
        ExpressionAttributeNames: { "#p": A.partition },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const p = bytesOf(item[A.partition]) as PartitionKey;
      if (isCompanyPartition(p)) companies.add(companyOfPartition(p));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return [...companies].sort();
}

const isPersonEntry = (s: Uint8Array) => s[0] === FAMILY.personKey || (s[0] ?? 0) >= FAMILY.personNames;

/** Sort keys of a company's records and entries: families 0x01 to 0x07. */
const ENTRIES = { low: Uint8Array.of(0x01) as SortKey, high: Uint8Array.of(0x07, 0xff) as SortKey };

/** What a company's entries rebuild writes, keeps as they are, and could not heal. */
interface EntryWork {
  /** The items the records and bundles call for, by key. */
  readonly items: Map<string, Item>;
  /** Keys left as they are: the items of a record whose person has no bundle. */
  readonly kept: Set<string>;
  /** Persons with records here but no visible bundle: their entries are left as they are. */
  readonly orphans: Set<string>;
  readonly unhealed: string[];
}

type Found = Awaited<ReturnType<ChunkContext["reads"]["bundle"]>>;

/** A record item as repair finds it: the record (a source), its generation and its entries'. */
interface StoredRecord {
  readonly gen: number;
  readonly entries: number;
  readonly record: SourceEmployee;
}

/** A record item's `e` is part of its source; one that is no generation up to the item's reads as the item's. */
function storedRecord(item: Item): StoredRecord {
  const gen = genOf(bytesOf(item[A.sort]));
  const e = item[A.entriesGen];
  const entries = typeof e === "number" && Number.isInteger(e) && e >= 0 && e <= gen ? e : gen;
  return { gen, entries, record: decompress<SourceEmployee>(bytesOf(item[A.data])) };
}

const add = (work: EntryWork, items: readonly Item[]) => {
  for (const item of items) work.items.set(keyText(keyOf(item)), item);
};

/**
 * The record items and key and names entries of each record, with its person's order key as `q`;
 * the entries at the generation the record's `e` names.
 */
function recordItems(work: EntryWork, records: readonly StoredRecord[], bundles: ReadonlyMap<string, Found>) {
  for (const { gen, entries, record } of records) {
    const bundle = record.personId ? bundles.get(record.personId) : undefined;
    const person = bundle?.bundle.person ? personOrder(bundle.bundle.person) : null;
    const items = [recordItem(record, gen, person, entries), ...recordEntryItems(record, entries)];
    if (record.personId && !person) {
      work.unhealed.push(`record ${record.id} links to person ${record.personId}, who has no visible bundle`);
      work.orphans.add(record.personId);
      for (const item of items) work.kept.add(keyText(keyOf(item)));
    } else add(work, items);
  }
}

/** Any other visible entry is superseded. */
function strayWrites(work: EntryWork, visible: readonly Item[], writes: Writes) {
  for (const item of visible) {
    const key = keyOf(item);
    const text = keyText(key);
    const orphan = isPersonEntry(key.s) && work.orphans.has(orderKeyParts(orderOfSort(key.s)).id);
    if (!work.items.has(text) && !work.kept.has(text) && !orphan) writes.supersede([key], genOf(key.s));
  }
}

/**
 * A company's record items and entries written again from what the records hold (their `d`) and
 * their persons' bundles, at the generations they carry: rewritten where they are (a damaged one
 * overwritten, a missing one put back, one stored the same left; undone, each is put back as it
 * was, rewrites.ts); any other visible entry is superseded. What it cannot rebuild: the items of a
 * record whose person has no visible bundle (it holds the person), left as they are. Returns
 * those, as messages.
 */
export async function rebuildEntries(
  context: ChunkContext,
  writer: ChunkWriter,
  companyId: string,
): Promise<string[]> {
  const p = companyPartition(companyId);
  const at = loadAt(context);
  const stored = new Map<string, Item>();
  const pages = queryPages(context.client, betweenQuery(context.table, { p, ...ENTRIES }, true));
  for await (const page of pages) for (const item of page) stored.set(keyText(keyOf(item)), item);
  const visible = [...stored.values()].filter((item) => companyItemVisible(item, at));
  const records = visible.filter((item) => bytesOf(item[A.sort])[0] === FAMILY.record).map(storedRecord);
  const persons = [...new Set(records.flatMap(({ record }) => (record.personId ? [record.personId] : [])))];
  const bundles = new Map(
    await inParallel(persons, 32, async (id) => [id, await context.reads.bundle(id, at)] as const),
  );
  const work: EntryWork = { items: new Map(), kept: new Set(), orphans: new Set(), unhealed: [] };
  recordItems(work, records, bundles);
  for (const found of bundles.values()) {
    if (!found?.bundle.person) continue;
    const here = found.bundle.employees.filter((record) => record.companyId === companyId);
    add(work, personEntryItems(found.bundle.person, here, found.entries));
  }
  const writes = new Writes(context.gen);
  strayWrites(work, visible, writes);
  for (const [text, item] of work.items) writes.rewrite(item, stored.get(text));
  await writeInPieces(writer, writes);
  return work.unhealed;
}
