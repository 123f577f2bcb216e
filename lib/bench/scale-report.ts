/**
 * The scale profile's result: the JSON written by `--out` (the fields of its queries, `fullSync`
 * and `hotCompany` are fixed) and the same as text tables, with the scale targets checked
 * (scale-targets.ts).
 */

import type { WriteFigures } from "./capacity-recorder.js";
import type { FullSyncReport } from "./full-sync.js";
import type { HotCompanyReport } from "./hot-company.js";
import type { LimitedProcessReport } from "./limited-run.js";
import { type BenchReport, bundlesTable, formatChecks, ms, num, type QueryReport, table } from "./report.js";
import { checkScaleTargets } from "./scale-targets.js";
import type { ScaleWritesReport } from "./scale-writes.js";

/** A key of the run: how many companies it may read and how many records they hold. */
export interface ScaleKeyReport {
  readonly companies: number;
  readonly records: number;
}

/** The queries profile's report (its queries carry the scale fields), and the scale profile's parts. */
export interface ScaleReport extends BenchReport {
  readonly profile: "scale";
  /** Where dynalite kept the table: on disk in this profile (absent on DynamoDB Local, in its JVM). */
  readonly engineStorage?: "disk";
  readonly keys: readonly ScaleKeyReport[];
  readonly hotCompany: HotCompanyReport;
  /** The mix again in a process limited like a 1,024 MB Lambda: the worst p99 and the heap's growth. */
  readonly limitedProcess: LimitedProcessReport;
  readonly fullSync: FullSyncReport;
  /** The writes measured: the full load (a snapshot into the empty directory), one record, one scope change. */
  readonly writes: ScaleWritesReport & {
    readonly fullLoad: WriteFigures & { mode: string; records: number };
  };
}

const thousands = (value: number) => value.toLocaleString("en-US");

/** Blank for a query with no name filter; none for a fragment too short for a trigram. */
const candidateCell = (units: number | null | undefined) =>
  units === undefined ? "" : units === null ? "none (< 3)" : num(units);

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
