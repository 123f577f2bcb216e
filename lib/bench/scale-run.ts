/**
 * The scale profile (issue 17): a Zipf-sized directory (by default a million records over 1,000
 * companies), loaded as the queries profile loads it; the scale mix measured under keys of 1, 50
 * and every company; one company searched again and again; the mix again in a process limited
 * like a 1,024 MB Lambda; and a full sync of everything the widest key may read.
 */
import type { Engine, EngineName } from "../local/engines.js";
import { type BenchContext, benchPrincipal } from "./bench-context.js";
import { withLoadedBench } from "./bench-session.js";
import { assertSkewed, buildDataset, type DatasetOptions, datasetReport } from "./dataset.js";
import { runFullSync } from "./full-sync.js";
import { runHotCompany } from "./hot-company.js";
import { runLimited } from "./limited-run.js";
import { measureQuery, type QueryPlans, round } from "./measure-query.js";
import type { Progress } from "./progress.js";
import { EMPLOYEES_ROUTE } from "./query-mix.js";
import type { QueryReport } from "./report.js";
import { bundlesWithProgress } from "./run.js";
import { companiesBySize, scaleKeys } from "./scale-keys.js";
import { type ScaleQuery, scaleMix } from "./scale-mix.js";
import type { ScaleKeyReport, ScaleReport } from "./scale-report.js";

export interface ScaleOptions extends QueryPlans {
  readonly dataset: DatasetOptions;
  readonly engine: EngineName;
  readonly bundles: boolean;
  readonly progress: Progress;
  /** Each part's figures as soon as they are measured (a long run's partial results). */
  readonly onMeasured?: (part: string, figures: unknown) => void;
}

function keyReport(context: BenchContext, key: readonly string[]): ScaleKeyReport {
  const companies = new Set(key);
  let records = 0;
  for (const record of context.dataset.data.employees) if (companies.has(record.companyId)) records += 1;
  return { companies: key.length, records };
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

async function measureScale(context: BenchContext, engine: Engine, options: ScaleOptions): Promise<Measured> {
  const { dataset } = context;
  const { progress, onMeasured } = options;
  const keys = scaleKeys(companiesBySize(dataset.summary.companyIds, dataset.data.employees));
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
  const keyReports = keys.map((key) => keyReport(context, key));
  return { keys: keyReports, queries: reports, hotCompany, limitedProcess, fullSync };
}

export async function runScaleBenchmark(options: ScaleOptions): Promise<ScaleReport> {
  const { progress } = options;
  const started = performance.now();
  progress.start("generating dataset".padEnd(52), options.dataset.records);
  const dataset = buildDataset(options.dataset);
  progress.finish();
  assertSkewed(dataset.summary);

  const session = { engine: options.engine, naive: options.naive !== null, progress };
  const measured = await withLoadedBench(dataset, session, (context, engine) =>
    measureScale(context, engine, options),
  );
  const bundles = options.bundles ? await bundlesWithProgress(progress) : [];
  const benchSeconds = round((performance.now() - started) / 1000);
  return {
    profile: "scale",
    dataset: { ...datasetReport(dataset.summary), benchSeconds },
    engine: options.engine,
    ...measured,
    bundles,
  };
}
