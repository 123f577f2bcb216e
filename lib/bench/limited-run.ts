/**
 * The worst request of the scale mix in a process limited like a 1,024 MB Lambda: limited-child.ts
 * in a child Node (bench-child.ts, as the loads profile runs its load) with
 * `--max-old-space-size=1024 --expose-gc`, reading the engine over its endpoint. A child that fails, or dies out of memory,
 * is reported as such (a missed target), not thrown: the run's other figures stand.
 */
import { runInChild } from "./bench-child.js";
import type { LimitedJob, LimitedQueryResult, LimitedResult } from "./limited-child.js";
import type { RunPlan } from "./measure.js";
import type { Progress } from "./progress.js";

const LIMITED_HEAP_MB = 1024;

/**
 * Warm runs per query: at least 20, up to 200 while 10 s last. A p99 needs 100 runs or more to be
 * other than the slowest: with 3 s and 100 at most, a single stall of 1.3 to 1.6 s (seen twice at
 * 100,000 records on queries whose other runs took 50 to 80 ms; dynalite serves from the bench's
 * own multi-gigabyte heap) ended a fast query's runs early and became its p99.
 */
const LIMITED_PLAN: RunPlan = { warmup: 1, minRuns: 20, maxRuns: 200, budgetMs: 10_000 };

export interface LimitedProcessReport {
  readonly maxOldSpaceMb: number;
  readonly queries?: readonly LimitedQueryResult[];
  /** The query with the highest p99. */
  readonly worst?: LimitedQueryResult;
  readonly heapBeforeMb?: number;
  readonly heapAfterMb?: number;
  readonly heapGrowthMb?: number;
  readonly peakRssMb?: number;
  /** Why the process gave no figures (an exception, or its exit: out of memory is a crash). */
  readonly failed?: string;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export async function runLimited(
  job: Omit<LimitedJob, "plan">,
  progress: Progress,
): Promise<LimitedProcessReport> {
  progress.start(`queries again, in a ${LIMITED_HEAP_MB} MB heap`.padEnd(52), job.queries.length);
  const message = await runInChild<LimitedResult>({
    script: new URL("./limited-child.ts", import.meta.url),
    nodeOptions: [`--max-old-space-size=${LIMITED_HEAP_MB}`, "--expose-gc"],
    job: { ...job, plan: LIMITED_PLAN } satisfies LimitedJob,
    onDone: (done) => progress.update(done),
  });
  progress.finish();
  if (!message.ok) return { maxOldSpaceMb: LIMITED_HEAP_MB, failed: message.error };
  const { queries, heapBeforeBytes, heapAfterBytes, peakRssKb } = message.result;
  const worst = queries.reduce<LimitedQueryResult | undefined>(
    (slowest, query) => (slowest === undefined || query.p99Ms > slowest.p99Ms ? query : slowest),
    undefined,
  );
  return {
    maxOldSpaceMb: LIMITED_HEAP_MB,
    queries,
    ...(worst ? { worst } : {}),
    heapBeforeMb: mb(heapBeforeBytes),
    heapAfterMb: mb(heapAfterBytes),
    heapGrowthMb: mb(heapAfterBytes - heapBeforeBytes),
    peakRssMb: mb(peakRssKb * 1024),
  };
}
