/**
 * The queries profile: dataset, engine, loading both designs, the query mix measured on both,
 * the floors, and the bundles. Returns the report; the CLI prints and writes it.
 */
import { type ProfileOptions, runProfile } from "./bench-session.js";
import type { RunPlan } from "./measure.js";
import { measureQuery } from "./measure-query.js";
import { queryMix } from "./query-mix.js";
import type { BenchReport, QueryReport } from "./report.js";

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

export async function runBenchmark(options: ProfileOptions): Promise<BenchReport> {
  const run = await runProfile(options, async (context) => {
    const mix = queryMix(context.dataset);
    const reports: QueryReport[] = [];
    for (const [i, query] of mix.entries()) {
      const label = `measuring ${i + 1}/${mix.length} ${query.name}`;
      reports.push(await measureQuery(context, query, options, options.progress, label));
    }
    return reports;
  });
  return { dataset: run.dataset, engine: options.engine, queries: run.measured, bundles: run.bundles };
}
