/**
 * hotCompany (issue 17): one company searched again and again in one process, as a warm Lambda
 * serves a partner polling it. The reader has the service's own options (the manifest cached for
 * a second, not for the whole run as the other measurements have it), so the manifest re-reads
 * are part of what is measured, and so is whatever else a reader keeps between requests.
 */
import { dynamoDirectoryReader } from "../store/dynamo/reader.js";
import type { BenchContext } from "./bench-context.js";
import type { Progress } from "./progress.js";
import type { BenchQuery } from "./query-mix.js";
import { runQuery } from "./query-runner.js";

export interface HotCompanyReport {
  /** Measured requests, after the warm-up ones. */
  readonly requests: number;
  readonly rcuPerRequestAfterWarmup: number;
}

const HOT_COMPANY_PLAN = { warmup: 5, requests: 50 } as const;

export async function runHotCompany(
  context: BenchContext,
  query: BenchQuery,
  progress: Progress,
  plan: { warmup: number; requests: number } = HOT_COMPANY_PLAN,
): Promise<HotCompanyReport> {
  const service = { ...context, directory: dynamoDirectoryReader(context.client, context.directoryTable) };
  progress.start(`hot company: ${query.name}`.padEnd(52), plan.warmup + plan.requests);
  for (let i = 0; i < plan.warmup; i++) {
    await runQuery(service, query, "real");
    progress.update(i + 1);
  }
  context.recorder.take();
  for (let i = 0; i < plan.requests; i++) {
    await runQuery(service, query, "real");
    progress.update(plan.warmup + i + 1);
  }
  const rcu = context.recorder.take().reduce((sum, call) => sum + call.rcu, 0);
  progress.finish();
  return { requests: plan.requests, rcuPerRequestAfterWarmup: rcu / plan.requests };
}
