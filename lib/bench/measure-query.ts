/**
 * One query of a profile measured and reported: the real design (and the naive yardstick unless it
 * was left out) run and timed, the answers compared, the floor and its parts computed from the page
 * the search returned. Both profiles report their queries this way.
 */
import type { Principal } from "../auth/principal.js";
import type { BenchContext } from "./bench-context.js";
import { type Measurement, measure, type RunPlan, timedRun } from "./measure.js";
import type { Progress } from "./progress.js";
import { queryCandidateUnits, queryFloor } from "./query-floor.js";
import { type BenchQuery, EMPLOYEES_ROUTE } from "./query-mix.js";
import { assertSameAnswer, type SearchResponse } from "./query-runner.js";
import { type QueryReport, round } from "./report.js";

export interface QueryPlans {
  readonly real: RunPlan;
  /** null: the naive yardstick is left out (`--no-naive`). */
  readonly naive: RunPlan | null;
}

/** Companies the search's scope covers: the one named (an employees search always names one), else the key's. */
export function scopeCompanies(query: BenchQuery, principal: Principal): number {
  return query.route === EMPLOYEES_ROUTE || query.body.companyId !== undefined ? 1 : principal.companies.size;
}

function queryReport(
  context: BenchContext,
  query: BenchQuery,
  response: SearchResponse,
  real: Measurement,
  naive: Measurement | null,
): QueryReport {
  const { dataset, principal } = context;
  const floor = queryFloor(dataset, principal.companies, query, response);
  return {
    name: query.name,
    kind: query.kind,
    route: query.route,
    body: query.body,
    keyCompanies: principal.companies.size,
    scopeCompanies: scopeCompanies(query, principal),
    rcu: real.rcu,
    rcuLowerBound: floor.total,
    pageRcu: floor.page,
    ...(query.kind === "name"
      ? { candidateRcu: queryCandidateUnits(dataset, principal.companies, query) }
      : {}),
    ...(naive ? { naiveRcu: naive.rcu } : {}),
    calls: real.calls,
    roundTrips: real.roundTrips,
    p50Ms: round(real.p50Ms),
    p99Ms: round(real.p99Ms),
    ...(naive ? { naiveP50Ms: round(naive.p50Ms), naiveP99Ms: round(naive.p99Ms) } : {}),
  };
}

/** Measures `query` with `context.principal` as the key; `label` heads its progress bar. */
export async function measureQuery(
  context: BenchContext,
  query: BenchQuery,
  plans: QueryPlans,
  progress: Progress,
  label: string,
): Promise<QueryReport> {
  // In runs: the answer checks, then each design's warm-up and minimum runs. Runs past the
  // minimum (while the time budget lasts) keep the bar at the end of their phase.
  const checks = plans.naive ? 2 : 1;
  const realEnd = checks + plans.real.warmup + plans.real.minRuns;
  const total = realEnd + (plans.naive ? plans.naive.warmup + plans.naive.minRuns : 0);
  progress.start(label.padEnd(52), total);
  let runs = 0;
  const tick = (phaseEnd: number) => () => {
    runs = Math.min(runs + 1, phaseEnd);
    progress.update(runs);
  };

  // The first runs double as the check that the yardstick answers exactly what the search does,
  // and as the first warm-up of each design.
  const real = await timedRun(context, query, "real");
  if (plans.naive) assertSameAnswer(query, real.response, (await timedRun(context, query, "naive")).response);
  runs = checks;
  progress.update(runs);

  const realStats = await measure(context, query, "real", plans.real, tick(realEnd));
  runs = realEnd;
  const naiveStats = plans.naive ? await measure(context, query, "naive", plans.naive, tick(total)) : null;
  progress.finish();
  return queryReport(context, query, real.response, realStats, naiveStats);
}
