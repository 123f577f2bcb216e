/**
 * The whole benchmark: dataset, engine, loading both designs, the query mix measured on both,
 * the floors, and the bundles. Returns the report; the CLI prints and writes it.
 */
import type { EngineName } from "../local/engines.js";
import { benchClient } from "./bench-client.js";
import { type BenchContext, openBench } from "./bench-context.js";
import { startBenchEngine } from "./bench-engine.js";
import { measureBundles } from "./bundles.js";
import { buildDataset, type DatasetOptions } from "./dataset.js";
import { measure, type RunPlan, timedRun } from "./measure.js";
import type { Progress } from "./progress.js";
import { queryFloor } from "./query-floor.js";
import { type BenchQuery, queryMix } from "./query-mix.js";
import { assertSameAnswer } from "./query-runner.js";
import type { BenchReport, QueryReport } from "./report.js";

export interface BenchOptions {
  readonly dataset: DatasetOptions;
  readonly engine: EngineName;
  readonly real: RunPlan;
  readonly naive: RunPlan;
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

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

async function measureQuery(
  context: BenchContext,
  query: BenchQuery,
  options: BenchOptions,
  index: number,
  count: number,
): Promise<QueryReport> {
  const { progress } = options;
  const label = `measuring ${index + 1}/${count} ${query.name}`;
  // In runs: the two answer checks, then each design's warm-up and minimum runs. Runs past the
  // minimum (while the time budget lasts) keep the bar at the end of their phase.
  const realEnd = 2 + options.real.warmup + options.real.minRuns;
  const total = realEnd + options.naive.warmup + options.naive.minRuns;
  progress.start(label.padEnd(52), total);
  let runs = 0;
  const tick = (phaseEnd: number) => () => {
    runs = Math.min(runs + 1, phaseEnd);
    progress.update(runs);
  };

  // The first runs double as the check that the yardstick answers exactly what the search does,
  // and as the first warm-up of each design.
  const real = await timedRun(context, query, "real");
  const naive = await timedRun(context, query, "naive");
  runs = 2;
  progress.update(runs);
  assertSameAnswer(query, real.response, naive.response);
  const floor = queryFloor(context.dataset, context.principal.companies, query, real.response);

  const realStats = await measure(context, query, "real", options.real, tick(realEnd));
  runs = realEnd;
  const naiveStats = await measure(context, query, "naive", options.naive, tick(total));
  progress.finish();
  return {
    name: query.name,
    kind: query.kind,
    route: query.route,
    body: query.body,
    rcu: realStats.rcu,
    rcuLowerBound: floor.total,
    naiveRcu: naiveStats.rcu,
    calls: realStats.calls,
    roundTrips: realStats.roundTrips,
    p50Ms: round(realStats.p50Ms),
    p99Ms: round(realStats.p99Ms),
    naiveP50Ms: round(naiveStats.p50Ms),
    naiveP99Ms: round(naiveStats.p99Ms),
  };
}

async function bundlesWithProgress(progress: BenchOptions["progress"]) {
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

  const engine = await startBenchEngine(options.engine);
  const reader = benchClient(engine.endpoint);
  try {
    let phase = "";
    const loadProgress = (label: string) => (written: number, total: number) => {
      if (phase !== label) {
        phase = label;
        progress.start(label.padEnd(52), total);
      }
      progress.update(written);
      if (written === total) progress.finish();
    };
    const context = await openBench(engine.client(), reader, dataset, "bench", {
      onDirectoryProgress: loadProgress("loading real tables"),
      onNaiveProgress: loadProgress("loading naive tables"),
    });
    const queries = queryMix(dataset);
    const reports: QueryReport[] = [];
    for (const [i, query] of queries.entries()) {
      reports.push(await measureQuery(context, query, options, i, queries.length));
    }
    const bundles = options.bundles ? await bundlesWithProgress(progress) : [];
    const { summary } = dataset;
    return {
      dataset: {
        records: summary.records,
        companies: summary.companies,
        seed: summary.seed,
        persons: summary.persons,
        unlinkedRecords: summary.unlinked,
        generator: "lib/directory/demo-data.ts",
        benchSeconds: round((performance.now() - started) / 1000),
      },
      engine: options.engine,
      queries: reports,
      bundles,
    };
  } finally {
    reader.destroy();
    await engine.stop();
  }
}
