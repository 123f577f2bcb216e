/**
 * The loads profile's targets (docs/performance.md, "Loads"): what one load may write and read,
 * by case, checked on a report (pure). How a cost grows with the company (≤ 1.5× from 10,000 to
 * 100,000 records) takes two runs: compare their reports.
 */
import { FIRST_LOAD, type LoadCaseReport, type LoadsReport } from "./load-bench.js";
import { CASE } from "./load-cases.js";
import type { TargetCheck } from "./report.js";

export const LOAD_TARGETS = {
  firstLoadWcuPerRecord: 12,
  contactWcu: 30,
  identityWcu: 100,
  oneRecordRcu: 200,
  droppedWcuPerRecord: 30,
  /** Peak RSS of a first load, checked from a million records. */
  millionRecordRssMb: 1024,
} as const;

const MILLION = 1_000_000;
const one = (value: number) => String(Math.round(value * 10) / 10);

export function loadChecks(report: LoadsReport): TargetCheck[] {
  const byName = new Map(report.cases.map((c) => [c.name, c]));
  const checks: TargetCheck[] = [];
  const check = (
    target: string,
    name: string,
    ok: (c: LoadCaseReport) => boolean,
    detail: (c: LoadCaseReport) => string,
  ) => {
    const c = byName.get(name);
    if (c) checks.push({ target, subject: name, ok: ok(c), detail: detail(c) });
  };
  const t = LOAD_TARGETS;
  const { records } = report.dataset;
  check(
    `≤ ${t.firstLoadWcuPerRecord} WCU a record`,
    FIRST_LOAD,
    (c) => c.wcu / records <= t.firstLoadWcuPerRecord,
    (c) => `${one(c.wcu / records)} WCU a record`,
  );
  if (records >= MILLION)
    check(
      `peak RSS ≤ ${t.millionRecordRssMb} MB`,
      FIRST_LOAD,
      (c) => c.peakRssMb <= t.millionRecordRssMb,
      (c) => `${one(c.peakRssMb)} MB`,
    );
  check(
    `≤ ${t.contactWcu} WCU`,
    CASE.changed,
    (c) => c.wcu <= t.contactWcu,
    (c) => `${one(c.wcu)} WCU`,
  );
  for (const name of [CASE.renamed, CASE.moved, CASE.deleted])
    check(
      `≤ ${t.identityWcu} WCU`,
      name,
      (c) => c.wcu <= t.identityWcu,
      (c) => `${one(c.wcu)} WCU`,
    );
  for (const name of [CASE.changed, CASE.renamed, CASE.moved, CASE.relinked, CASE.deleted])
    check(
      `≤ ${t.oneRecordRcu} RCU`,
      name,
      (c) => c.rcu <= t.oneRecordRcu,
      (c) => `${one(c.rcu)} RCU`,
    );
  // Its lease's writes are single items of under 1 KB; anything else is a batch or bigger.
  check(
    "writes nothing but its lease",
    CASE.unchanged,
    (c) => c.itemsWritten === c.writeCalls && c.wcu <= c.writeCalls,
    (c) => `${one(c.wcu)} WCU in ${c.writeCalls} single-item writes`,
  );
  check(
    `≤ ${t.droppedWcuPerRecord} WCU a dropped record`,
    CASE.dropping,
    (c) => c.deletedBySnapshot > 0 && c.wcu / c.deletedBySnapshot <= t.droppedWcuPerRecord,
    (c) => `${one(c.wcu / Math.max(1, c.deletedBySnapshot))} WCU a record, ${c.deletedBySnapshot} dropped`,
  );
  return checks;
}
