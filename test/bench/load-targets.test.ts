import { FIRST_LOAD, type LoadCaseReport, type LoadsReport } from "../../lib/bench/load-bench.js";
import { CASE } from "../../lib/bench/load-cases.js";
import { LOAD_TARGETS, loadChecks } from "../../lib/bench/load-targets.js";

const RECORDS = 10_000;

const loadCase = (name: string, figures: Partial<LoadCaseReport>): LoadCaseReport => ({
  name,
  mode: "merge",
  lines: 1,
  fileBytes: 100,
  deletedBySnapshot: 0,
  wcu: 0,
  writeCalls: 0,
  itemsWritten: 0,
  rcu: 0,
  readCalls: 0,
  seconds: 1,
  startRssMb: 100,
  peakRssMb: 200,
  ...figures,
});

const reportOf = (cases: LoadCaseReport[], records = RECORDS): LoadsReport => ({
  profile: "loads",
  dataset: { records, companies: 1, persons: records / 2, seed: 1, generator: "test" },
  engine: "dynalite",
  cases,
  benchSeconds: 1,
});

/** Every case at its bound, or one past it. */
function casesAt(past: number): LoadCaseReport[] {
  const t = LOAD_TARGETS;
  return [
    loadCase(FIRST_LOAD, { wcu: RECORDS * t.firstLoadWcuPerRecord + past }),
    loadCase(CASE.changed, { wcu: t.contactWcu + past, rcu: t.oneRecordRcu + past }),
    ...[CASE.renamed, CASE.moved, CASE.deleted].map((name) =>
      loadCase(name, { wcu: t.identityWcu + past, rcu: t.oneRecordRcu + past }),
    ),
    loadCase(CASE.relinked, { wcu: 1_000, rcu: t.oneRecordRcu + past }),
    loadCase(CASE.unchanged, { wcu: 12 + past, writeCalls: 12, itemsWritten: 12 }),
    loadCase(CASE.dropping, { wcu: 100 * t.droppedWcuPerRecord + past, deletedBySnapshot: 100 }),
  ];
}

describe("loadChecks", () => {
  it("checks each case against its bound: met at the bound", () => {
    const checks = loadChecks(reportOf(casesAt(0)));
    expect(checks).toHaveLength(1 + 1 + 3 + 5 + 1 + 1);
    expect(checks.filter((check) => !check.ok)).toEqual([]);
  });

  it("misses each one past its bound, saying by how much", () => {
    const checks = loadChecks(reportOf(casesAt(1)));
    expect(checks.filter((check) => check.ok)).toEqual([]);
    expect(checks.find((check) => check.subject === CASE.dropping)?.detail).toBe(
      "30 WCU a record, 100 dropped",
    );
    expect(checks.find((check) => check.subject === FIRST_LOAD)?.detail).toBe("12 WCU a record");
  });

  it("counts a no-change load's batch or large write as more than its lease", () => {
    const unchanged = (figures: Partial<LoadCaseReport>) =>
      loadChecks(reportOf([loadCase(CASE.unchanged, figures)]))[0]?.ok;
    expect(unchanged({ wcu: 3, writeCalls: 3, itemsWritten: 3 })).toBe(true);
    expect(unchanged({ wcu: 4, writeCalls: 3, itemsWritten: 4 })).toBe(false);
    expect(unchanged({ wcu: 4, writeCalls: 3, itemsWritten: 3 })).toBe(false);
  });

  it("checks the first load's memory from a million records only", () => {
    const first = loadCase(FIRST_LOAD, { wcu: 0, peakRssMb: LOAD_TARGETS.millionRecordRssMb + 1 });
    expect(loadChecks(reportOf([first])).map((check) => check.target)).toEqual(["≤ 12 WCU a record"]);
    const million = loadChecks(reportOf([first], 1_000_000));
    expect(million.map((check) => [check.target, check.ok])).toEqual([
      ["≤ 12 WCU a record", true],
      ["peak RSS ≤ 1024 MB", false],
    ]);
  });

  it("leaves out cases the report does not hold (a run of the first load only)", () => {
    expect(loadChecks(reportOf([]))).toEqual([]);
  });
});
