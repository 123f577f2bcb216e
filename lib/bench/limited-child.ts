/**
 * The scale profile's requests in a process limited like a 1,024 MB Lambda (started by
 * limited-run.ts with `--max-old-space-size=1024 --expose-gc`): each query of the mix timed over
 * warm, repeated runs through the real use cases, on one reader with the service's options but
 * no answer cache (every timed request reads); then each query once through the reader a route
 * function builds (serviceDirectoryReader, its cache on); and the heap after a forced collection
 * before the first request and after the last. Receives one LimitedJob
 * over IPC, reports each query done, answers once and exits.
 */
import { serviceDirectoryReader } from "../store/directory-from-env.js";
import { dynamoDirectoryReader } from "../store/dynamo/index.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { answerParent, reportDone } from "./bench-child.js";
import { benchClient } from "./bench-client.js";
import { benchPrincipal } from "./bench-context.js";
import { type RunPlan, sampleLatencies } from "./measure.js";
import { peakRssKb } from "./peak-rss.js";
import { percentile } from "./percentile.js";
import { searchReal } from "./query-runner.js";
import type { ScaleQuery } from "./scale-mix.js";

export interface LimitedJob {
  readonly endpoint: string;
  readonly table: string;
  /** ISO instant every search is answered as of. */
  readonly asOf: string;
  readonly plan: RunPlan;
  readonly queries: readonly ScaleQuery[];
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

function collectedHeap(): number {
  if (!gc) throw new Error("the limited process needs --expose-gc");
  gc();
  return process.memoryUsage().heapUsed;
}

async function main(job: LimitedJob): Promise<LimitedResult> {
  const client = benchClient(job.endpoint);
  const documents = documentClientFor(client);
  // Timed on a reader that keeps no answers: a repeated request would otherwise be a cache hit,
  // and the target is the worst request, one that reads.
  const timed = dynamoDirectoryReader(documents, job.table, { answerCacheBytes: 0 });
  // The service's reader is then asked every query once, so the heap after holds what a warm
  // function keeps (its answer cache) too.
  const service = serviceDirectoryReader(documents, job.table);
  const asOf = new Date(job.asOf);
  try {
    const heapBeforeBytes = collectedHeap();
    const queries: LimitedQueryResult[] = [];
    for (const query of job.queries) {
      const principal = benchPrincipal(query.key);
      const samples = await sampleLatencies(job.plan, async () => {
        const start = performance.now();
        await searchReal(query, principal, timed, asOf);
        return performance.now() - start;
      });
      const p99Ms = Math.round(percentile(samples, 99) * 10) / 10;
      queries.push({ name: query.name, keyCompanies: query.key.length, runs: samples.length, p99Ms });
      reportDone(queries.length);
    }
    for (const query of job.queries) await searchReal(query, benchPrincipal(query.key), service, asOf);
    return { queries, heapBeforeBytes, heapAfterBytes: collectedHeap(), peakRssKb: peakRssKb() };
  } finally {
    client.destroy();
  }
}

process.once("message", (job: LimitedJob) => answerParent(main(job)));
