/**
 * Measures one query on one design: warm-up runs first (JIT, sockets, engine caches), then timed
 * runs, as many as fit a time budget within [minRuns, maxRuns]. Capacity, calls and round trips
 * are recorded on every run; capacity must not vary (it is deterministic), so a change is an error.
 */
import type { BenchContext } from "./bench-context.js";
import { percentile } from "./percentile.js";
import type { BenchQuery } from "./query-mix.js";
import { type Design, runQuery, type SearchResponse } from "./query-runner.js";
import { criticalPathRoundTrips } from "./round-trips.js";

interface CallStats {
  readonly rcu: number;
  readonly calls: number;
  readonly roundTrips: number;
}

export interface RunResult extends CallStats {
  readonly ms: number;
  readonly response: SearchResponse;
}

export interface Measurement extends CallStats {
  readonly runs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface RunPlan {
  readonly warmup: number;
  readonly minRuns: number;
  readonly maxRuns: number;
  /** Timed runs stop once this much time was spent on them (after minRuns). */
  readonly budgetMs: number;
}

/** One run: its latency and what the recorder saw during it. */
export async function timedRun(context: BenchContext, query: BenchQuery, design: Design): Promise<RunResult> {
  context.recorder.take();
  const start = performance.now();
  const response = await runQuery(context, query, design);
  const ms = performance.now() - start;
  const calls = context.recorder.take();
  return {
    ms,
    response,
    rcu: calls.reduce((sum, call) => sum + call.rcu, 0),
    calls: calls.length,
    roundTrips: criticalPathRoundTrips(calls),
  };
}

/**
 * Runs `run` through `plan`: its warm-up, then timed runs (at least minRuns, at most maxRuns, and
 * no more once budgetMs was spent on them). `run(timed)` returns its own latency in ms; the timed
 * runs' latencies are returned.
 */
export async function sampleLatencies(
  plan: RunPlan,
  run: (timed: boolean) => Promise<number>,
): Promise<number[]> {
  for (let i = 0; i < plan.warmup; i++) await run(false);
  const samples: number[] = [];
  let spent = 0;
  while (samples.length < plan.maxRuns && (samples.length < plan.minRuns || spent < plan.budgetMs)) {
    const ms = await run(true);
    samples.push(ms);
    spent += ms;
  }
  return samples;
}

export async function measure(
  context: BenchContext,
  query: BenchQuery,
  design: Design,
  plan: RunPlan,
  onRun: () => void = () => {},
): Promise<Measurement> {
  let first: CallStats | undefined;
  let roundTrips = 0;
  const samples = await sampleLatencies(plan, async (timed) => {
    const run = await timedRun(context, query, design);
    onRun();
    if (!timed) return run.ms;
    first ??= run;
    if (run.rcu !== first.rcu || run.calls !== first.calls) {
      throw new Error(
        `${design} "${query.name}": capacity or calls changed between runs (${first.rcu}/${first.calls} then ${run.rcu}/${run.calls})`,
      );
    }
    // Round trips depend on timing only if calls overlap by chance; report the worst seen.
    roundTrips = Math.max(roundTrips, run.roundTrips);
    return run.ms;
  });
  if (!first) throw new Error("measure: no run");
  return {
    rcu: first.rcu,
    calls: first.calls,
    roundTrips,
    runs: samples.length,
    p50Ms: percentile(samples, 50),
    p99Ms: percentile(samples, 99),
  };
}
