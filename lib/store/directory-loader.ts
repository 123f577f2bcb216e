/**
 * Writes a validated data file into the directory table: BatchWriteItem in batches of 25, several
 * at once, retrying UnprocessedItems with backoff.
 *
 * Loading is an upsert. A person already stored keeps the employments this file does not mention
 * (the file's records replace those with the same id); a company's entry blocks are rebuilt from
 * the entries already stored merged with the file's. Loading files one after another, or the same
 * file again, gives one consistent directory. Run one load at a time per table: two loads touching
 * one company at once could each rebuild its blocks without the other's entries.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DataFile, SourceEmployee } from "../directory/source.js";
import { orderKeyOfBytes } from "./binary-keys.js";
import {
  type BlockFamily,
  blockItems,
  bundleItems,
  companyPartition,
  type DirectoryItem,
  employmentEntry,
  FAMILY,
  itemBytes,
  type PersonRecords,
  personEntries,
  recordItem,
} from "./directory-items.js";
import { type DirectoryRepository, directoryRepository } from "./directory-repository.js";
import type { PackedEntry } from "./entry-blocks.js";
import { DIRECTORY_ATTR as A } from "./tables.js";

const BATCH_WRITE_LIMIT = 25;
const MAX_ATTEMPTS = 10;

export interface LoadProgress {
  written: number;
  total: number;
}

export interface LoadOptions {
  /** Batches in flight at once. */
  concurrency?: number;
  onProgress?: (progress: LoadProgress) => void;
  /** First retry delay of UnprocessedItems; each further retry doubles it (capped at 5 s). */
  retryBaseMs?: number;
}

/** Each person of the file with its records, merged over what is already stored for them. */
export function personRecords(
  data: DataFile,
  stored: ReadonlyMap<string, PersonRecords> = new Map(),
): PersonRecords[] {
  const byPerson = new Map<string, Map<string, SourceEmployee>>();
  for (const person of data.persons) {
    byPerson.set(person.id, new Map((stored.get(person.id)?.employees ?? []).map((r) => [r.id, r])));
  }
  for (const record of data.employees) {
    if (record.personId !== null) byPerson.get(record.personId)?.set(record.id, record);
  }
  return data.persons.map((person) => ({
    person,
    employees: [...(byPerson.get(person.id)?.values() ?? [])],
  }));
}

/** Entries of one family per company, keyed by their order key so newer ones replace older. */
type CompanyEntries = Map<string, Map<string, PackedEntry>>;

function addEntry(target: CompanyEntries, companyId: string, entry: PackedEntry): void {
  const entries = target.get(companyId) ?? new Map<string, PackedEntry>();
  target.set(companyId, entries);
  entries.set(orderKeyOfBytes(entry.key), entry);
}

/** Every item a file adds, with the entries of each company merged over the stored ones. */
export async function directoryItems(
  data: DataFile,
  stored: Pick<DirectoryRepository, "blocks"> & { persons?: ReadonlyMap<string, PersonRecords> } = {
    blocks: async () => [],
  },
): Promise<{ puts: DirectoryItem[]; deletes: DirectoryItem[] }> {
  const persons = personRecords(data, stored.persons);
  // By id, the last of a repeated id winning, as a later load would.
  const unlinked = [
    ...new Map(data.employees.filter((record) => record.personId === null).map((r) => [r.id, r])).values(),
  ];
  const fresh: Record<BlockFamily, CompanyEntries> = {
    [FAMILY.employmentBlocks]: new Map(),
    [FAMILY.personBlocks]: new Map(),
  };
  const puts: DirectoryItem[] = [];
  for (const records of persons) {
    puts.push(...bundleItems(records));
    for (const record of records.employees) {
      const item = recordItem(record, records.person);
      puts.push(item);
      addEntry(fresh[FAMILY.employmentBlocks], record.companyId, employmentEntry(record, itemBytes(item)));
    }
    for (const [companyId, entry] of personEntries(records))
      addEntry(fresh[FAMILY.personBlocks], companyId, entry);
  }
  for (const record of unlinked) {
    const item = recordItem(record, undefined);
    puts.push(item);
    addEntry(fresh[FAMILY.employmentBlocks], record.companyId, employmentEntry(record, itemBytes(item)));
  }

  const deletes: DirectoryItem[] = [];
  for (const family of [FAMILY.employmentBlocks, FAMILY.personBlocks] as const) {
    for (const [companyId, entries] of fresh[family]) {
      const old = await stored.blocks(companyId, family);
      const merged = new Map<string, PackedEntry>();
      for (const block of old)
        for (const entry of block.entries) merged.set(orderKeyOfBytes(entry.key), entry);
      for (const [order, entry] of entries) merged.set(order, entry);
      const blocks = blockItems(companyId, family, [...merged.values()]);
      puts.push(...blocks);
      const kept = new Set(blocks.map((item) => orderKeyOfBytes(item[A.sort] as Uint8Array)));
      for (const block of old) {
        if (!kept.has(orderKeyOfBytes(block.sort))) {
          deletes.push({ [A.partition]: companyPartition(companyId), [A.sort]: block.sort });
        }
      }
    }
  }
  return { puts, deletes };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function writeBatch(
  client: DynamoDBDocumentClient,
  tableName: string,
  requests: Record<string, unknown>[],
  retryBaseMs: number,
): Promise<void> {
  let pending = requests;
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed`);
    if (attempt > 0) await sleep(Math.min(5_000, retryBaseMs * 2 ** attempt) * (0.5 + Math.random() / 2));
    const result = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
    pending = (result.UnprocessedItems?.[tableName] ?? []) as Record<string, unknown>[];
  }
}

async function writeAll(
  client: DynamoDBDocumentClient,
  tableName: string,
  requests: Record<string, unknown>[],
  options: LoadOptions,
): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_WRITE_LIMIT)
    batches.push(requests.slice(i, i + BATCH_WRITE_LIMIT));
  let next = 0;
  let written = 0;
  const worker = async () => {
    for (let batch = batches[next++]; batch; batch = batches[next++]) {
      await writeBatch(client, tableName, batch, options.retryBaseMs ?? 50);
      written += batch.length;
      options.onProgress?.({ written, total: requests.length });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
}

export async function loadDirectory(
  client: DynamoDBDocumentClient,
  tableName: string,
  data: DataFile,
  options: LoadOptions = {},
): Promise<{ persons: number; employees: number; items: number }> {
  const repository = directoryRepository(client, tableName);
  const persons = await repository.persons(data.persons.map((person) => person.id));
  const { puts, deletes } = await directoryItems(data, { blocks: repository.blocks, persons });
  // Blocks are written before the ones they replace are deleted: a search in between may see an
  // entry twice (the repository drops the repeat), never miss one.
  await writeAll(
    client,
    tableName,
    puts.map((Item) => ({ PutRequest: { Item } })),
    options,
  );
  if (deletes.length > 0) {
    await writeAll(
      client,
      tableName,
      deletes.map((Key) => ({ DeleteRequest: { Key } })),
      { concurrency: options.concurrency ?? 8, retryBaseMs: options.retryBaseMs ?? 50 },
    );
  }
  return { persons: data.persons.length, employees: data.employees.length, items: puts.length };
}
