/**
 * The loads profile of the benchmark (`npm run bench -- --profile loads`): what loads write and
 * how much memory they take. A directory of one company with N records is loaded from a file
 * streamed to disk, then the cases of load-cases.ts are applied to it in order, each one a real
 * `loadFile` in a child process (load-child.ts) whose DynamoDB calls report their consumed
 * capacity. After each load the table's items are counted; at the end the final state is loaded
 * once into an empty table, whose item count must equal the one after all the loads.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";
import { type DemoSummary, demoDataByRecord, writesOf } from "../directory/demo-data.js";
import type { LoadMode } from "../load/change-lines.js";
import type { EngineName } from "../local/engines.js";
import { createTables } from "../store/create-tables.js";
import type { DirectoryState } from "../store/memory/memory-directory.js";
import { startBenchEngine } from "./bench-engine.js";
import { buildDataset } from "./dataset.js";
import { loadCases, stateLines } from "./load-cases.js";
import type { LoadChildResult } from "./load-child.js";
import { runLoadInChild } from "./load-run.js";
import type { Progress } from "./progress.js";
import { round } from "./report.js";

export interface LoadsBenchOptions {
  /** Employee records of the one company. */
  readonly records: number;
  readonly seed: number;
  readonly engine: EngineName;
  /** Only the first load (its peak RSS): no cases, no dataset held in memory, no count of items. */
  readonly rssOnly: boolean;
  readonly progress: Progress;
  /** Each load's figures as soon as it is measured (a long run's partial results). */
  readonly onCase?: (report: LoadCaseReport) => void;
}

export interface LoadCaseReport {
  readonly name: string;
  readonly mode: LoadMode;
  /** Lines of the load file. */
  readonly lines: number;
  readonly fileBytes: number;
  readonly deletedBySnapshot: number;
  readonly wcu: number;
  readonly writeCalls: number;
  readonly itemsWritten: number;
  readonly rcu: number;
  readonly readCalls: number;
  readonly seconds: number;
  readonly startRssMb: number;
  readonly peakRssMb: number;
  /** Items in the table after the load (its superseded versions removed); not counted with `rssOnly`. */
  readonly itemsStored?: number;
}

export interface LoadsReport {
  readonly profile: "loads";
  readonly dataset: {
    readonly records: number;
    readonly companies: 1;
    readonly persons: number;
    readonly seed: number;
    readonly generator: string;
  };
  readonly engine: EngineName;
  readonly cases: readonly LoadCaseReport[];
  /** Items after every case, and after loading that final state once into an empty table. */
  readonly storage?: { readonly afterAllLoads: number; readonly finalStateLoadedOnce: number };
  readonly benchSeconds: number;
}

/** The first case: the whole file into an empty table. */
export const FIRST_LOAD = "first load, empty table (merge)";
/** The last case: the final state loaded once, into an empty table of its own. */
const FINAL_ONCE = "final state once, empty table (merge)";

/** Lines, newline-terminated. */
function* terminated(lines: Iterable<string>): Generator<string> {
  for (const line of lines) yield `${line}\n`;
}

async function writeFileOf(path: string, texts: Iterable<string>): Promise<number> {
  await pipeline(Readable.from(writesOf(texts)), createWriteStream(path));
  return (await stat(path)).size;
}

/** Every item of the table (a COUNT scan; uninstrumented, so not part of any case). */
async function countItems(client: DynamoDBClient, table: string): Promise<number> {
  let count = 0;
  let start: Record<string, never> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: table, Select: "COUNT", ConsistentRead: true, ExclusiveStartKey: start }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey as typeof start;
  } while (start);
  return count;
}

function stateOf(records: number, seed: number): DirectoryState {
  const { data } = buildDataset({ records, companies: 1, seed });
  return {
    persons: new Map(data.persons.map((person) => [person.id, person])),
    employees: new Map(data.employees.map((employee) => [employee.id, employee])),
  };
}

/** What the cases of one run share: the engine, its control client, the scratch folder. */
interface LoadsRun {
  readonly options: LoadsBenchOptions;
  readonly engine: Awaited<ReturnType<typeof startBenchEngine>>;
  readonly control: DynamoDBClient;
  readonly dir: string;
}

/** One load in a child process, and its figures. */
async function measured(
  run: LoadsRun,
  load: { name: string; table: string; mode: LoadMode; file: string; fileBytes: number },
): Promise<LoadCaseReport> {
  const { name, table, mode, file, fileBytes } = load;
  const result: LoadChildResult = await runLoadInChild({ endpoint: run.engine.endpoint, table, file, mode });
  const report: LoadCaseReport = {
    name,
    mode,
    lines: result.changes,
    fileBytes,
    deletedBySnapshot: result.deletedBySnapshot,
    wcu: result.wcu,
    writeCalls: result.writeCalls,
    itemsWritten: result.itemsWritten,
    rcu: result.rcu,
    readCalls: result.readCalls,
    seconds: round(result.seconds, 2),
    startRssMb: round(result.startRssKb / 1024),
    peakRssMb: round(result.maxRssKb / 1024),
    // A count scan of a million-record table takes longer than its load on the local engines.
    ...(run.options.rssOnly ? {} : { itemsStored: await countItems(run.control, table) }),
  };
  run.options.onCase?.(report);
  return report;
}

async function freshTable(run: LoadsRun, prefix: string): Promise<string> {
  const tables = { directory: `${prefix}-directory`, keys: `${prefix}-keys` };
  await createTables(run.control, tables);
  return tables.directory;
}

/** The planned cases on `table` after the first load, then their final state once into an empty table. */
async function laterCases(
  run: LoadsRun,
  table: string,
  cases: LoadCaseReport[],
): Promise<LoadsReport["storage"]> {
  const { progress, records, seed } = run.options;
  const planned = loadCases(stateOf(records, seed));
  progress.start("load cases".padEnd(52), planned.length + 1);
  for (const [i, load] of planned.entries()) {
    const file = join(run.dir, `case-${i + 1}.ndjson`);
    const fileBytes = await writeFileOf(file, terminated(load.lines()));
    cases.push(await measured(run, { name: load.name, table, mode: load.mode, file, fileBytes }));
    progress.update(i + 1);
  }
  const final = planned.at(-1)?.next;
  let storage: LoadsReport["storage"];
  if (final) {
    const file = join(run.dir, "final.ndjson");
    const fileBytes = await writeFileOf(file, terminated(stateLines(final)));
    const afterAllLoads = cases.at(-1)?.itemsStored ?? 0;
    const onceTable = await freshTable(run, "once");
    const once = await measured(run, { name: FINAL_ONCE, table: onceTable, mode: "merge", file, fileBytes });
    cases.push(once);
    storage = { afterAllLoads, finalStateLoadedOnce: once.itemsStored ?? 0 };
  }
  progress.finish();
  return storage;
}

export async function runLoadsBenchmark(options: LoadsBenchOptions): Promise<LoadsReport> {
  const { progress } = options;
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), "loads-bench-"));
  const engine = await startBenchEngine(options.engine);
  const run: LoadsRun = { options, engine, control: engine.client(), dir };
  try {
    const summary: DemoSummary = { persons: 0, employees: 0 };
    const demo = { companies: 1, employees: options.records, seed: options.seed };
    const file = join(dir, "directory.ndjson");
    progress.start("writing the file".padEnd(52), 1);
    const fileBytes = await writeFileOf(file, demoDataByRecord(demo, "ndjson", summary));
    progress.finish();

    const table = await freshTable(run, "loads");
    progress.start(`first load: ${summary.persons + summary.employees} lines`.padEnd(52), 1);
    const first = { name: FIRST_LOAD, table, mode: "merge" as const, file, fileBytes };
    const cases = [await measured(run, first)];
    progress.finish();
    const storage = options.rssOnly ? undefined : await laterCases(run, table, cases);
    return {
      profile: "loads",
      dataset: {
        records: summary.employees,
        companies: 1,
        persons: summary.persons,
        seed: options.seed,
        generator: "lib/directory/demo-data.ts",
      },
      engine: options.engine,
      cases,
      ...(storage ? { storage } : {}),
      benchSeconds: round((performance.now() - started) / 1000),
    };
  } finally {
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
