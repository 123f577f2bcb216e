/**
 * A DynamoDB directory on a suite's tables, loaded through the real load use case. Tests read right
 * after loading, so the manifest is never cached, and nothing searches during a load, so
 * superseded versions are removed at once.
 */
import type { DataFile } from "../../lib/directory/source.js";
import { loadData } from "../../lib/load/load-file.js";
import { type DynamoDirectory, dynamoDirectory } from "../../lib/store/dynamo/index.js";
import type { OrderBlockSizes } from "../../lib/store/dynamo/structures/index.js";
import type { WriterOptions } from "../../lib/store/dynamo/write/index.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import type { EngineContext } from "./engines.js";
import { tableItems } from "./table-items.js";

/**
 * Order blocks a tenth of the writer's default (counted-order.ts BLOCK_ENTRIES: 256, 512, 64), so
 * a suite crosses as many blocks with a tenth of the records: 80 keys make 3 blocks.
 */
export const TENTH_ORDER_BLOCKS: OrderBlockSizes = { target: 26, max: 52, min: 7 };

/** `writer` sizes what the load writes (blocks of orders and postings) for a test, if need be. */
export function directoryOn(context: EngineContext, writer: WriterOptions = {}): DynamoDirectory {
  return dynamoDirectory(documentClientFor(context.client), context.tables.directory, {
    reader: { manifestTtlMs: 0 },
    writer: { graceMs: 0, ...writer },
  });
}

/** The suite's directory made exactly `data` (a snapshot load). */
export async function loadedDirectory(
  context: EngineContext,
  data: DataFile,
  writer: WriterOptions = {},
): Promise<DynamoDirectory> {
  const directory = directoryOn(context, writer);
  await loadData(data, directory, "snapshot");
  return directory;
}

/**
 * `data` merged into the suite's directory: what it held stays (the companies of earlier runs of a
 * property, which a key of this run may not read). A load of new companies costs about as much as
 * a first load; a snapshot would supersede and remove everything held before.
 */
export async function mergedDirectory(context: EngineContext, data: DataFile): Promise<DynamoDirectory> {
  const directory = directoryOn(context);
  await loadData(data, directory, "merge");
  return directory;
}

/**
 * The suite's table emptied, then `data` loaded into it: a first load, for tests that ask many
 * random directories and are about searching them, not replacing one. A tiny directory costs
 * about 150 calls so, against about 1,100 as a snapshot over the last one (every version of the
 * last directory superseded, stamped and cleaned up). Replacing loads have suites of their own.
 */
export async function freshDirectory(context: EngineContext, data: DataFile): Promise<DynamoDirectory> {
  await tableItems(documentClientFor(context.client), context.tables.directory).wipe();
  return loadedDirectory(context, data);
}
