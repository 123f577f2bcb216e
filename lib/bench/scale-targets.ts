/**
 * The scale targets, checked on a scale report. Each is a bound the store must meet on a million
 * records whatever the key's scope; the report says met or missed with the figures, and a miss
 * does not fail the run (as the queries profile's targets).
 */
import type { LimitedProcessReport } from "./limited-run.js";
import type { QueryReport, TargetCheck } from "./report.js";
import type { ScaleReport } from "./scale-result.js";
import { hasShortFragment } from "./short-fragments.js";

const SCALE_TARGETS = {
  /** unfiltered, page and range searches: rcu ≤ 1.5 × pageRcu + 5, in at most 3 round trips. */
  pageFactor: 1.5,
  slackRcu: 5,
  roundTrips: 3,
  /** The same query over every company: at most 1.5× its 50-company figure plus 5. */
  widerKeyFactor: 1.5,
  comparedKey: 50,
  /** Name fragments of 3+ characters: rcu ≤ 2 × candidateRcu + pageRcu. */
  candidateFactor: 2,
  /** Name queries with a fragment of 1 or 2 characters: at most this many RCU and this p99. */
  shortRcu: 100,
  shortP99Ms: 1_000,
  /** Full sync: rcu ≤ 1.5 × recordsRcu. */
  syncFactor: 1.5,
  hotRcuPerRequest: 1,
  /** The worst request in a 1,024 MB process. */
  p99Ms: 1_000,
  heapGrowthMb: 256,
} as const;

const T = SCALE_TARGETS;
const PAGED_KINDS: ReadonlySet<string> = new Set(["unfiltered", "page", "range"]);
/** Bounds like 1.5 × 37.5 + 5 to two decimals, with no float noise. */
const n = (value: number) => String(Math.round(value * 100) / 100);
const subject = (q: QueryReport) => `${q.name} (key of ${q.keyCompanies})`;

function pagedChecks(q: QueryReport): TargetCheck[] {
  const bound = T.pageFactor * q.pageRcu + T.slackRcu;
  return [
    {
      target: `rcu ≤ ${T.pageFactor} × page rcu + ${T.slackRcu}`,
      subject: subject(q),
      ok: q.rcu <= bound,
      detail: `${n(q.rcu)} vs ${n(bound)} (page ${n(q.pageRcu)})`,
    },
    {
      target: `round trips ≤ ${T.roundTrips}`,
      subject: subject(q),
      ok: q.roundTrips <= T.roundTrips,
      detail: String(q.roundTrips),
    },
  ];
}

/** Each paged query of the widest key against the same query of the 50-company key. */
function widerKeyChecks(queries: readonly QueryReport[]): TargetCheck[] {
  const widest = Math.max(...queries.map((q) => q.keyCompanies));
  if (widest <= T.comparedKey) return [];
  return queries
    .filter((q) => PAGED_KINDS.has(q.kind) && q.keyCompanies === widest)
    .flatMap((q) => {
      const narrow = queries.find((p) => p.name === q.name && p.keyCompanies === T.comparedKey);
      if (!narrow) return [];
      const bound = T.widerKeyFactor * narrow.rcu + T.slackRcu;
      return [
        {
          target: `rcu over ${widest} companies ≤ ${T.widerKeyFactor} × over ${T.comparedKey} + ${T.slackRcu}`,
          subject: q.name,
          ok: q.rcu <= bound,
          detail: `${n(q.rcu)} vs ${n(bound)} (${n(narrow.rcu)} over ${T.comparedKey})`,
        },
      ];
    });
}

/** A name query with a fragment of 1 or 2 characters: a bound of its own, whatever the scope. */
function shortNameChecks(q: QueryReport): TargetCheck[] {
  return [
    {
      target: `name of 1 or 2: rcu ≤ ${T.shortRcu}`,
      subject: subject(q),
      ok: q.rcu <= T.shortRcu,
      detail: `${n(q.rcu)} (candidates ${n(q.candidateRcu ?? 0)}, page ${n(q.pageRcu)})`,
    },
    {
      target: `name of 1 or 2: p99 ≤ ${T.shortP99Ms} ms`,
      subject: subject(q),
      ok: q.p99Ms <= T.shortP99Ms,
      detail: `${q.p99Ms} ms`,
    },
  ];
}

function nameCheck(q: QueryReport): TargetCheck[] {
  if (q.kind !== "name") return [];
  if (hasShortFragment(q.body)) return shortNameChecks(q);
  if (q.candidateRcu === undefined || q.candidateRcu === null) return [];
  const bound = T.candidateFactor * q.candidateRcu + q.pageRcu;
  return [
    {
      target: `name of 3+: rcu ≤ ${T.candidateFactor} × candidate rcu + page rcu`,
      subject: subject(q),
      ok: q.rcu <= bound,
      detail: `${n(q.rcu)} vs ${n(bound)} (candidates ${n(q.candidateRcu)}, page ${n(q.pageRcu)})`,
    },
  ];
}

function limitedChecks(limited: LimitedProcessReport): TargetCheck[] {
  const target = (what: string) => `${what} (${limited.maxOldSpaceMb} MB heap)`;
  if (limited.failed !== undefined) {
    const failed = { subject: "the query mix", ok: false, detail: `failed: ${limited.failed}` };
    return [
      { target: target(`worst p99 ≤ ${T.p99Ms} ms`), ...failed },
      { target: target(`heap growth ≤ ${T.heapGrowthMb} MB`), ...failed },
    ];
  }
  const worst = limited.worst;
  const growth = limited.heapGrowthMb ?? Number.NaN;
  return [
    {
      target: target(`worst p99 ≤ ${T.p99Ms} ms`),
      subject: worst ? `${worst.name} (key of ${worst.keyCompanies})` : "the query mix",
      ok: worst !== undefined && worst.p99Ms <= T.p99Ms,
      detail: worst ? `${worst.p99Ms} ms` : "no query ran",
    },
    {
      target: target(`heap growth ≤ ${T.heapGrowthMb} MB`),
      subject: "the query mix",
      ok: growth <= T.heapGrowthMb,
      detail: `${growth} MB (${limited.heapBeforeMb} → ${limited.heapAfterMb} MB after gc)`,
    },
  ];
}

export function checkScaleTargets(report: ScaleReport): TargetCheck[] {
  const { fullSync: sync, hotCompany: hot } = report;
  const syncBound = T.syncFactor * sync.recordsRcu;
  return [
    ...report.queries.filter((q) => PAGED_KINDS.has(q.kind)).flatMap(pagedChecks),
    ...widerKeyChecks(report.queries),
    ...report.queries.flatMap(nameCheck),
    {
      target: `full sync: rcu ≤ ${T.syncFactor} × records rcu`,
      subject: `${sync.pages} pages over ${sync.scopeCompanies} companies`,
      ok: sync.rcu <= syncBound,
      detail: `${n(sync.rcu)} vs ${n(syncBound)} (records ${n(sync.recordsRcu)})`,
    },
    {
      target: `hot company: ≤ ${T.hotRcuPerRequest} rcu a request after warm-up`,
      subject: `${hot.requests} requests`,
      ok: hot.rcuPerRequestAfterWarmup <= T.hotRcuPerRequest,
      detail: n(hot.rcuPerRequestAfterWarmup),
    },
    ...limitedChecks(report.limitedProcess),
  ];
}
