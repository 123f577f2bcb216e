/**
 * Everything a measured query needs: the dataset loaded into the real tables and (unless left out)
 * the naive ones on one engine, the real repository and the naive client both over one
 * instrumented client, and a principal that may read every company of the dataset.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { OPERATIONS } from "../auth/operations.js";
import type { Principal } from "../auth/principal.js";
import { keepScopes } from "../load/keep-scopes.js";
import { type LoadFileOptions, loadData } from "../load/load-file.js";
import { instrumentClient } from "../observability/dynamo-capacity.js";
import { createTables } from "../store/create-tables.js";
import { dynamoDirectory, dynamoDirectoryReader } from "../store/dynamo/index.js";
import { documentClientFor } from "../store/dynamo-client.js";
import type { DirectoryReader } from "../store/port.js";
import type { TableId } from "../store/tables.js";
import { CapacityRecorder, type WriteFigures, writeFigures } from "./capacity-recorder.js";
import type { Dataset } from "./dataset.js";
import { createNaiveTables, loadNaive, type NaiveTables } from "./naive-tables.js";
import { type SavedLoadFolder, savedLoad } from "./saved-load.js";

export interface BenchContext {
  readonly dataset: Dataset;
  readonly principal: Principal;
  readonly recorder: CapacityRecorder;
  /** The real repository over the instrumented client. */
  readonly directory: DirectoryReader;
  /** Its table: a reader with the service's own options (manifest cached 1 s) reads it too. */
  readonly directoryTable: string;
  /** The instrumented client both designs read through. */
  readonly client: DynamoDBDocumentClient;
  /** The naive yardstick's tables; null when it was left out (`--no-naive`). */
  readonly naiveTables: NaiveTables | null;
  /** Fixed, so derived fields (membership, coverage) do not change between runs. */
  readonly asOf: Date;
  /** The dataset's load into the empty directory (its scopes kept first): what it wrote and took. */
  readonly load: WriteFigures & { readonly mode: "merge" | "snapshot" };
  /** Called before measurements write to the tables: a kept load no longer holds just the dataset. */
  readonly beforeWrites: () => void;
}

export interface OpenBenchOptions {
  /** Items written so far of the real tables, then of the naive ones. */
  onDirectoryProgress?: (written: number, total: number) => void;
  onNaiveProgress?: (written: number, total: number) => void;
  /** Whether to create and load the naive yardstick (default true). */
  naive?: boolean;
  /** Scopes kept before the load (keys' company lists), so the load derives their orders. */
  scopes?: readonly (readonly string[])[];
  /** How the dataset is loaded (default merge). */
  mode?: "merge" | "snapshot";
  /** The load kept in a folder, going on from where it stood (saved-load.ts); `stop` suspends it. */
  saved?: { readonly folder: SavedLoadFolder; readonly stop: AbortSignal };
}

const BENCH_AS_OF = new Date("2026-07-01T00:00:00Z");

/** A key that may run both searches over `companies`. */
export function benchPrincipal(companies: Iterable<string>): Principal {
  return {
    keyId: "bench",
    partner: "benchmark",
    operations: new Set(OPERATIONS),
    companies: new Set(companies),
  };
}

/**
 * Creates fresh tables named with `prefix` and loads the dataset into both designs. `loader` writes;
 * the directory's load through it is measured (`load`: capacity and time; the loader stays
 * instrumented). `reader` is instrumented here and serves the searches.
 */
export async function openBench(
  loader: DynamoDBClient,
  reader: DynamoDBClient,
  dataset: Dataset,
  prefix: string,
  options: OpenBenchOptions = {},
): Promise<BenchContext> {
  const tables: Record<TableId, string> = { directory: `${prefix}-directory`, keys: `${prefix}-keys` };
  const naiveTables: NaiveTables = {
    employees: `${prefix}-naive-employees`,
    persons: `${prefix}-naive-persons`,
  };
  const naive = options.naive ?? true;
  await createTables(loader, tables);
  if (naive) await createNaiveTables(loader, naiveTables);
  const writer = documentClientFor(loader);
  const total = dataset.data.persons.length + dataset.data.employees.length;
  const mode = options.mode ?? "merge";
  const target = dynamoDirectory(writer, tables.directory, { writer: { graceMs: 0 } });
  const onProgress: LoadFileOptions["onProgress"] = ({ phase, changes }) => {
    if (phase === "applied") options.onDirectoryProgress?.(changes, total);
  };
  const figures = options.saved
    ? await savedLoad(options.saved.folder, loader, target, {
        dataset,
        mode,
        ...(options.scopes ? { scopes: options.scopes } : {}),
        onProgress,
        stop: options.saved.stop,
      })
    : await writeFigures(loader, async () => {
        if (options.scopes) await keepScopes(target, options.scopes);
        await loadData(dataset.data, target, mode, { onProgress });
      });
  const load = { mode, ...figures };
  if (naive) await loadNaive(writer, naiveTables, dataset.data, options.onNaiveProgress);

  // The manifest is read once and kept (no load runs during the bench): a search's figures are its
  // own reads. In service it is one strongly consistent GetItem (1 RCU) per process a second.
  // No answer cache: each query is run several times and every run must read what a search reads
  // (the cache would answer the second run from memory, at 0 RCU). What the cache saves a search
  // asked again is measured apart, with the service's defaults.
  const directory = dynamoDirectoryReader(documentClientFor(reader), tables.directory, {
    manifestTtlMs: Number.POSITIVE_INFINITY,
    maxReadAgeMs: Number.POSITIVE_INFINITY,
    answerCacheBytes: 0,
  });
  await directory.employees({
    filter: { companies: new Set([dataset.summary.companyIds[0] ?? ""]) },
    created: {},
    offset: 0,
    limit: 1,
  });
  const recorder = new CapacityRecorder();
  instrumentClient(reader, recorder);
  const client = documentClientFor(reader);
  return {
    dataset,
    principal: benchPrincipal(dataset.summary.companyIds),
    recorder,
    directory,
    directoryTable: tables.directory,
    client,
    naiveTables: naive ? naiveTables : null,
    asOf: BENCH_AS_OF,
    load,
    beforeWrites: () => options.saved?.folder.markWritten(),
  };
}
