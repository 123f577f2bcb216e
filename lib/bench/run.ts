/**
 * The queries profile: dataset, engine, loading both designs, the query mix measured on both,
 * the floors, and the bundles. Returns the report; the CLI prints and writes it.
 */
import type { EngineName } from "../local/engines.js";
import { withLoadedBench } from "./bench-session.js";
import { measureBundles } from "./bundles.js";
import { buildDataset, type DatasetOptions, datasetReport } from "./dataset.js";
import type { RunPlan } from "./measure.js";
import { measureQuery, round } from "./measure-query.js";
import type { Progress } from "./progress.js";
import { queryMix } from "./query-mix.js";
import type { BenchReport, QueryReport } from "./report.js";

export interface BenchOptions {
  readonly dataset: DatasetOptions;
  readonly engine: EngineName;
  readonly real: RunPlan;
  /** null: the naive yardstick is left out (`--no-naive`). */
  readonly naive: RunPlan | null;
  readonly bundles: boolean;
  readonly progress: Progress;
}

/**
 * Run counts: the real design is fast, so many runs while a 3 s budget lasts; the naive one reads
 * every record of every company in scope (about 9 s a run for a persons search on 100k records
 * on dynalite), so the minimum of 3. The answer-check runs already warmed both up. The whole 100k
 * run takes about 5 minutes on 2 cores.
 */
export const DEFAULT_PLANS: { real: RunPlan; naive: RunPlan } = {
  real: { warmup: 2, minRuns: 5, maxRuns: 200, budgetMs: 3_000 },
  naive: { warmup: 0, minRuns: 3, maxRuns: 30, budgetMs: 3_000 },
};

export async function bundlesWithProgress(progress: Progress) {
  progress.start("bundling and cold imports".padEnd(52), 1);
  const result = await measureBundles({
    onBundle: (done, total) => {
      if (done === 1) progress.start("bundling and cold imports".padEnd(52), total);
      progress.update(done);
    },
  });
  progress.finish();
  return result;
}

export async function runBenchmark(options: BenchOptions): Promise<BenchReport> {
  const { progress } = options;
  const started = performance.now();
  progress.start("generating dataset".padEnd(52), options.dataset.records);
  const dataset = buildDataset(options.dataset);
  progress.finish();

  const session = { engine: options.engine, naive: options.naive !== null, progress };
  const queries = await withLoadedBench(dataset, session, async (context) => {
    const mix = queryMix(dataset);
    const reports: QueryReport[] = [];
    for (const [i, query] of mix.entries()) {
      const label = `measuring ${i + 1}/${mix.length} ${query.name}`;
      reports.push(await measureQuery(context, query, options, progress, label));
    }
    return reports;
  });
  const bundles = options.bundles ? await bundlesWithProgress(progress) : [];
  return {
    dataset: { ...datasetReport(dataset.summary), benchSeconds: round((performance.now() - started) / 1000) },
    engine: options.engine,
    queries,
    bundles,
  };
}
