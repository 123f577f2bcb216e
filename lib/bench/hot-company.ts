/**
 * hotCompany: one company searched again and again in one process, as a warm Lambda
 * serves a partner polling it. The reader is built as a route function builds it
 * (serviceDirectoryReader: the manifest cached for a second, not for the whole run as the other
 * measurements have it), so the manifest re-reads are part of what is measured, and so is
 * whatever else the service's reader keeps between requests.
 */
import { serviceDirectoryReader } from "../store/directory-from-env.js";
import type { BenchContext } from "./bench-context.js";
import { timedRun } from "./measure.js";
import type { Progress } from "./progress.js";
import type { BenchQuery } from "./query-mix.js";

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
): Promise<HotCompanyReport> {
  const { warmup, requests } = HOT_COMPANY_PLAN;
  const service = { ...context, directory: serviceDirectoryReader(context.client, context.directoryTable) };
  progress.start(`hot company: ${query.name}`.padEnd(52), warmup + requests);
  let rcu = 0;
  for (let i = 0; i < warmup + requests; i++) {
    const run = await timedRun(service, query, "real");
    if (i >= warmup) rcu += run.rcu;
    progress.update(i + 1);
  }
  progress.finish();
  return { requests, rcuPerRequestAfterWarmup: rcu / requests };
}
