/**
 * The scale profile's result (scale-result.ts) as text tables, with the scale targets checked
 * (scale-targets.ts).
 */

import type { WriteFigures } from "./capacity-recorder.js";
import type { LimitedProcessReport } from "./limited-run.js";
import { bundlesTable, formatChecks, ms, num, type QueryReport, table } from "./report.js";
import type { ScaleReport } from "./scale-result.js";
import { checkScaleTargets } from "./scale-targets.js";

const thousands = (value: number) => value.toLocaleString("en-US");

/** Blank for a query with no name filter. */
const candidateCell = (units: number | null | undefined) =>
  units === undefined || units === null ? "" : num(units);

function queriesTable(queries: readonly QueryReport[]): string {
  return table(
    [
      "query",
      "key",
      "scope",
      "kind",
      "rcu",
      "floor",
      "page rcu",
      "candidate rcu",
      "naive rcu",
      "calls",
      "round trips",
      "p50 ms",
      "p99 ms",
    ],
    queries.map((q) => [
      q.name,
      String(q.keyCompanies),
      String(q.scopeCompanies),
      q.kind,
      num(q.rcu),
      num(q.rcuLowerBound),
      num(q.pageRcu),
      candidateCell(q.candidateRcu),
      num(q.naiveRcu),
      String(q.calls),
      String(q.roundTrips),
      ms(q.p50Ms),
      ms(q.p99Ms),
    ]),
  );
}

function writesTable(writes: ScaleReport["writes"]): string {
  const row = (name: string, figures: WriteFigures) => [
    name,
    num(figures.wcu),
    thousands(figures.writeCalls),
    num(figures.rcu),
    String(figures.seconds),
  ];
  return table(
    ["write", "wcu", "write calls", "rcu", "seconds"],
    [
      row(
        `full load, ${thousands(writes.fullLoad.records)} records (${writes.fullLoad.mode})`,
        writes.fullLoad,
      ),
      row("one record changed (merge)", writes.oneRecordChange),
      row(`a key's scope given one more company (${writes.scopeChange.companies})`, writes.scopeChange),
    ],
  );
}

function limitedLines(limited: LimitedProcessReport): string[] {
  if (limited.failed !== undefined) return [`${limited.maxOldSpaceMb} MB process: FAILED: ${limited.failed}`];
  const rows = table(
    ["query (again, in a limited process)", "key", "runs", "p99 ms"],
    (limited.queries ?? []).map((q) => [q.name, String(q.keyCompanies), String(q.runs), ms(q.p99Ms)]),
  );
  const heap = `heap after gc: ${limited.heapBeforeMb} MB before the first request, ${limited.heapAfterMb} MB after the last (growth ${limited.heapGrowthMb} MB); peak RSS ${limited.peakRssMb} MB`;
  return [rows, "", heap];
}

export function formatScaleReport(report: ScaleReport): string {
  const { fullSync: sync, hotCompany: hot } = report;
  const keys = report.keys.map((key) => `${key.companies} (${thousands(key.records)} records)`).join(", ");
  return [
    `engine: ${report.engine}${report.engineStorage ? ` (table on ${report.engineStorage})` : ""}; dataset: ${JSON.stringify(report.dataset)}`,
    `keys, in companies: ${keys}`,
    "",
    queriesTable(report.queries),
    "",
    `hot company: ${hot.requests} requests after warm-up, ${num(hot.rcuPerRequestAfterWarmup)} RCU a request`,
    `full sync over ${sync.scopeCompanies} companies: ${thousands(sync.persons)} persons in ${thousands(sync.pages)} pages, ` +
      `${thousands(sync.returnedBytes)} bytes returned, ${num(sync.rcu)} RCU (records ${num(sync.recordsRcu)} RCU)`,
    "",
    ...limitedLines(report.limitedProcess),
    "",
    writesTable(report.writes),
    "",
    ...(report.bundles.length > 0 ? [bundlesTable(report.bundles), ""] : []),
    formatChecks(checkScaleTargets(report)),
    "",
  ].join("\n");
}
