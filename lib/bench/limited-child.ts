/**
 * The scale profile's requests in a process limited like a 1,024 MB Lambda (started by
 * limited-run.ts with `--max-old-space-size=1024 --expose-gc`): each query of the mix timed over
 * warm, repeated runs through the real use cases, with one reader for all of them and the
 * service's own options, as a warm function keeps it; and the heap after a forced collection
 * before the first request and after the last. Receives one LimitedJob over IPC, reports each
 * query done, answers once and exits.
 */
import { dynamoDirectoryReader } from "../store/dynamo/reader.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { benchClient } from "./bench-client.js";
import { benchPrincipal } from "./bench-context.js";
import type { RunPlan } from "./measure.js";
import { peakRssKb } from "./peak-rss.js";
import { percentile } from "./percentile.js";
import type { BenchQuery } from "./query-mix.js";
import { searchReal } from "./query-runner.js";

export interface LimitedJob {
  readonly endpoint: string;
  readonly table: string;
  /** ISO instant every search is answered as of. */
  readonly asOf: string;
  readonly plan: RunPlan;
  readonly queries: readonly (BenchQuery & { readonly key: readonly string[] })[];
}

export interface LimitedQueryResult {
  readonly name: string;
  readonly keyCompanies: number;
  readonly runs: number;
  readonly p99Ms: number;
}

export interface LimitedResult {
  readonly queries: readonly LimitedQueryResult[];
  /** heapUsed after a forced collection, before the first request and after the last. */
  readonly heapBeforeBytes: number;
  readonly heapAfterBytes: number;
  readonly peakRssKb: number;
}

export type LimitedAnswer = { ok: true; result: LimitedResult } | { ok: false; error: string };
/** The answer, or how many queries are done so far. */
export type LimitedMessage = LimitedAnswer | { done: number };

/** Latencies of `run` over the plan's warm-up, then as many runs as its budget allows. */
async function sample(run: () => Promise<unknown>, plan: RunPlan): Promise<number[]> {
  for (let i = 0; i < plan.warmup; i++) await run();
  const samples: number[] = [];
  let spent = 0;
  while (samples.length < plan.maxRuns && (samples.length < plan.minRuns || spent < plan.budgetMs)) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
    spent += samples.at(-1) ?? 0;
  }
  return samples;
}

function collectedHeap(): number {
  if (!gc) throw new Error("the limited process needs --expose-gc");
  gc();
  return process.memoryUsage().heapUsed;
}

async function main(job: LimitedJob): Promise<LimitedResult> {
  const client = benchClient(job.endpoint);
  const directory = dynamoDirectoryReader(documentClientFor(client), job.table);
  const asOf = new Date(job.asOf);
  try {
    const heapBeforeBytes = collectedHeap();
    const queries: LimitedQueryResult[] = [];
    for (const query of job.queries) {
      const principal = benchPrincipal(query.key);
      const samples = await sample(() => searchReal(query, principal, directory, asOf), job.plan);
      const p99Ms = Math.round(percentile(samples, 99) * 10) / 10;
      queries.push({ name: query.name, keyCompanies: query.key.length, runs: samples.length, p99Ms });
      process.send?.({ done: queries.length } satisfies LimitedMessage);
    }
    return { queries, heapBeforeBytes, heapAfterBytes: collectedHeap(), peakRssKb: peakRssKb() };
  } finally {
    client.destroy();
  }
}

const answer = (message: LimitedAnswer) => process.send?.(message, () => process.disconnect());

process.once("message", (job: LimitedJob) => {
  main(job).then(
    (result) => answer({ ok: true, result }),
    (error: unknown) => answer({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});
