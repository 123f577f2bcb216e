/**
 * Writes a validated data file into the directory table: BatchWriteItem in batches of 25, several
 * at once, retrying UnprocessedItems with backoff. Writing the same file again puts the same items
 * under the same keys, so a reload leaves the tables as they were.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DataFile } from "../directory/source.js";
import { type DirectoryItem, employeeItem, personItem } from "./directory-items.js";

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

export function directoryItems(data: DataFile): DirectoryItem[] {
  const personCreatedAt = new Map(data.persons.map((person) => [person.id, person.createdAt]));
  return [
    ...data.persons.map(personItem),
    ...data.employees.map((record) =>
      employeeItem(record, record.personId === null ? undefined : personCreatedAt.get(record.personId)),
    ),
  ];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function writeBatch(
  client: DynamoDBDocumentClient,
  tableName: string,
  items: DirectoryItem[],
  retryBaseMs: number,
): Promise<void> {
  let pending: Record<string, unknown>[] = items.map((item) => ({ PutRequest: { Item: item } }));
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed`);
    if (attempt > 0) await sleep(Math.min(5_000, retryBaseMs * 2 ** attempt) * (0.5 + Math.random() / 2));
    const result = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
    pending = (result.UnprocessedItems?.[tableName] ?? []) as Record<string, unknown>[];
  }
}

export async function loadDirectory(
  client: DynamoDBDocumentClient,
  tableName: string,
  data: DataFile,
  options: LoadOptions = {},
): Promise<{ persons: number; employees: number; items: number }> {
  const items = directoryItems(data);
  const batches: DirectoryItem[][] = [];
  for (let i = 0; i < items.length; i += BATCH_WRITE_LIMIT)
    batches.push(items.slice(i, i + BATCH_WRITE_LIMIT));

  let next = 0;
  let written = 0;
  const worker = async () => {
    for (let batch = batches[next++]; batch; batch = batches[next++]) {
      await writeBatch(client, tableName, batch, options.retryBaseMs ?? 50);
      written += batch.length;
      options.onProgress?.({ written, total: items.length });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  return { persons: data.persons.length, employees: data.employees.length, items: items.length };
}
