/**
 * The scale profile: a Zipf-sized directory (by default a million records over 1,000
 * companies), loaded as the queries profile loads it; the scale mix measured under keys of 1, 50
 * and every company; one company searched again and again; the mix again in a process limited
 * like a 1,024 MB Lambda; and a full sync of everything the widest key may read.
 */
import type { Engine } from "../local/engines.js";
import { type BenchContext, benchPrincipal } from "./bench-context.js";
import { type ProfileOptions, runProfile } from "./bench-session.js";
import { assertSkewed, type Dataset, recordsPerCompany } from "./dataset.js";
import { runFullSync } from "./full-sync.js";
import { runHotCompany } from "./hot-company.js";
import { runLimited } from "./limited-run.js";
import { measureQuery } from "./measure-query.js";
import { EMPLOYEES_ROUTE } from "./query-mix.js";
import type { QueryReport } from "./report.js";
import { companiesBySize, scaleKeys } from "./scale-keys.js";
import { type ScaleQuery, scaleMix } from "./scale-mix.js";
import type { ScaleKeyReport, ScaleReport } from "./scale-result.js";
import { measureScaleWrites } from "./scale-writes.js";

export interface ScaleOptions extends ProfileOptions {
  /** Each part's figures as soon as they are measured (a long run's partial results). */
  readonly onMeasured?: (part: string, figures: unknown) => void;
}

function keyReport(key: readonly string[], recordCounts: ReadonlyMap<string, number>): ScaleKeyReport {
  return { companies: key.length, records: key.reduce((sum, id) => sum + (recordCounts.get(id) ?? 0), 0) };
}

async function measureMix(context: BenchContext, queries: readonly ScaleQuery[], options: ScaleOptions) {
  const reports: QueryReport[] = [];
  for (const [i, query] of queries.entries()) {
    const keyed = { ...context, principal: benchPrincipal(query.key) };
    const label = `measuring ${i + 1}/${queries.length} ${query.name}, key of ${query.key.length}`;
    const report = await measureQuery(keyed, query, options, options.progress, label);
    options.onMeasured?.("query", report);
    reports.push(report);
  }
  return reports;
}

type Measured = Omit<ScaleReport, "profile" | "dataset" | "engine" | "bundles">;

/** The profile's keys: 1, 50 and every company, from the dataset's company sizes. */
function keysOf(dataset: Dataset) {
  const recordCounts = recordsPerCompany(dataset.data.employees);
  const ranked = companiesBySize(dataset.summary.companyIds, recordCounts);
  return { recordCounts, ranked, keys: scaleKeys(ranked) };
}

async function measureScale(context: BenchContext, engine: Engine, options: ScaleOptions): Promise<Measured> {
  const { dataset } = context;
  const { progress, onMeasured } = options;
  const { recordCounts, ranked, keys } = keysOf(dataset);
  const [oneCompany, widest] = [keys[0] ?? [], keys.at(-1) ?? []];
  const queries = scaleMix(dataset, keys);
  const reports = await measureMix(context, queries, options);
  const hotQuery = queries.find((query) => query.route === EMPLOYEES_ROUTE && query.kind === "unfiltered");
  if (!hotQuery) throw new Error("scale mix: no first page of the largest company's employees");
  const hotCompany = await runHotCompany(
    { ...context, principal: benchPrincipal(oneCompany) },
    hotQuery,
    progress,
  );
  onMeasured?.("hotCompany", hotCompany);
  const table = context.directoryTable;
  const job = { endpoint: engine.endpoint, table, asOf: context.asOf.toISOString(), queries };
  const limitedProcess = await runLimited(job, progress);
  onMeasured?.("limitedProcess", limitedProcess);
  const fullSync = await runFullSync({ ...context, principal: benchPrincipal(widest) }, progress);
  onMeasured?.("fullSync", fullSync);
  progress.start("measuring writes".padEnd(52), 1);
  context.beforeWrites();
  const changes = await measureScaleWrites({ endpoint: engine.endpoint, table }, dataset, keys, ranked);
  progress.finish();
  const writes = { fullLoad: { ...context.load, records: dataset.data.employees.length }, ...changes };
  onMeasured?.("writes", writes);
  const keyReports = keys.map((key) => keyReport(key, recordCounts));
  return { keys: keyReports, queries: reports, hotCompany, limitedProcess, fullSync, writes };
}

export async function runScaleBenchmark(options: ScaleOptions): Promise<ScaleReport> {
  // The keys' scopes are kept before the dataset is loaded, as a snapshot: the load derives them.
  const load = { scopes: (dataset: Dataset) => keysOf(dataset).keys, mode: "snapshot" as const };
  const run = await runProfile(
    { ...options, load, engineOnDisk: true },
    (context, engine) => measureScale(context, engine, options),
    (dataset) => assertSkewed(dataset.summary),
  );
  return {
    profile: "scale",
    dataset: run.dataset,
    engine: options.engine,
    ...(options.engine === "dynalite" ? { engineStorage: "disk" as const } : {}),
    ...run.measured,
    bundles: run.bundles,
  };
}
