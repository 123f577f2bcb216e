import type { QueryReport } from "../../lib/bench/report.js";
import type { ScaleReport } from "../../lib/bench/scale-result.js";
import { checkScaleTargets } from "../../lib/bench/scale-targets.js";

function query(overrides: Partial<QueryReport> & Pick<QueryReport, "name" | "kind">): QueryReport {
  return {
    route: "/v1/persons/search",
    body: {},
    keyCompanies: 1_000,
    scopeCompanies: 1_000,
    rcu: 30,
    rcuLowerBound: 30,
    pageRcu: 25,
    calls: 2,
    roundTrips: 2,
    p50Ms: 10,
    p99Ms: 20,
    ...overrides,
  };
}

function report(overrides: Partial<ScaleReport> = {}): ScaleReport {
  return {
    profile: "scale",
    dataset: {},
    engine: "dynalite",
    keys: [],
    queries: [],
    hotCompany: { requests: 50, rcuPerRequestAfterWarmup: 1 },
    limitedProcess: {
      maxOldSpaceMb: 1024,
      queries: [],
      worst: { name: "persons: no filter", keyCompanies: 1_000, runs: 5, p99Ms: 1_000 },
      heapBeforeMb: 20,
      heapAfterMb: 276,
      heapGrowthMb: 256,
      peakRssMb: 300,
    },
    fullSync: { scopeCompanies: 1_000, persons: 10, pages: 1, returnedBytes: 1, rcu: 15, recordsRcu: 10 },
    writes: {
      fullLoad: { mode: "snapshot", records: 10, wcu: 100, writeCalls: 10, rcu: 50, seconds: 1 },
      oneRecordChange: { wcu: 20, writeCalls: 8, rcu: 30, seconds: 0.1 },
      scopeChange: { companies: 51, wcu: 40, writeCalls: 9, rcu: 60, seconds: 0.2 },
    },
    ...overrides,
    bundles: [],
  };
}

const checksOf = (r: ScaleReport) => checkScaleTargets(r).map((c) => [c.target, c.subject, c.ok]);

describe("checkScaleTargets", () => {
  it("bounds unfiltered, page and range searches by their page, with at most 3 round trips, at the edge", () => {
    const queries = [
      query({ name: "a", kind: "unfiltered", rcu: 42.5, pageRcu: 25, roundTrips: 3 }),
      query({ name: "b", kind: "range", rcu: 42.75, pageRcu: 25, roundTrips: 4, keyCompanies: 1 }),
      query({ name: "c", kind: "exact", rcu: 500, pageRcu: 0.5, roundTrips: 9 }),
    ];
    expect(checksOf(report({ queries })).slice(0, 4)).toEqual([
      ["rcu ≤ 1.5 × page rcu + 5", "a (key of 1000)", true],
      ["round trips ≤ 3", "a (key of 1000)", true],
      ["rcu ≤ 1.5 × page rcu + 5", "b (key of 1)", false],
      ["round trips ≤ 3", "b (key of 1)", false],
    ]);
    // Exact queries have no target of their own.
    expect(checkScaleTargets(report({ queries })).some((c) => c.subject.startsWith("c "))).toBe(false);
  });

  it("compares the widest key's paged queries with the same query over 50 companies", () => {
    const queries = [
      query({ name: "persons: no filter", kind: "unfiltered", keyCompanies: 50, rcu: 40 }),
      query({ name: "persons: no filter", kind: "unfiltered", keyCompanies: 1_000, rcu: 65 }),
      query({ name: "persons: deep page", kind: "page", keyCompanies: 50, rcu: 40 }),
      query({ name: "persons: deep page", kind: "page", keyCompanies: 1_000, rcu: 65.5 }),
      query({ name: "persons: last name", kind: "name", keyCompanies: 50, rcu: 40, candidateRcu: null }),
      query({ name: "persons: last name", kind: "name", keyCompanies: 1_000, rcu: 400, candidateRcu: null }),
    ];
    const wider = checkScaleTargets(report({ queries })).filter((c) => c.target.startsWith("rcu over"));
    expect(wider.map((c) => [c.subject, c.ok, c.detail])).toEqual([
      ["persons: no filter", true, "65 vs 65 (40 over 50)"],
      ["persons: deep page", false, "65.5 vs 65 (40 over 50)"],
    ]);
  });

  it("makes no key comparison when the directory has no more than 50 companies", () => {
    const queries = [query({ name: "p", kind: "unfiltered", keyCompanies: 50 })];
    expect(checkScaleTargets(report({ queries })).some((c) => c.target.startsWith("rcu over"))).toBe(false);
  });

  it("bounds names of 3+ characters by their candidates and page, shorter ones by 100 RCU and 1 s", () => {
    const queries = [
      query({ name: "long", kind: "name", body: { lastName: "smit" }, rcu: 27, candidateRcu: 1 }),
      query({ name: "longer", kind: "name", body: { lastName: "smit" }, rcu: 27.5, candidateRcu: 1 }),
      query({ name: "short", kind: "name", body: { firstName: "A" }, rcu: 100, candidateRcu: 900 }),
      query({ name: "both", kind: "name", body: { firstName: "ann", lastName: "ＳＭ" }, rcu: 100.5 }),
      query({ name: "slow", kind: "name", body: { lastName: "ﬁ" }, rcu: 2, p99Ms: 1_000.5 }),
    ];
    expect(checksOf(report({ queries })).filter(([target]) => String(target).startsWith("name"))).toEqual([
      ["name of 3+: rcu ≤ 2 × candidate rcu + page rcu", "long (key of 1000)", true],
      ["name of 3+: rcu ≤ 2 × candidate rcu + page rcu", "longer (key of 1000)", false],
      ["name of 1 or 2: rcu ≤ 100", "short (key of 1000)", true],
      ["name of 1 or 2: p99 ≤ 1000 ms", "short (key of 1000)", true],
      ["name of 1 or 2: rcu ≤ 100", "both (key of 1000)", false],
      ["name of 1 or 2: p99 ≤ 1000 ms", "both (key of 1000)", true],
      ["name of 1 or 2: rcu ≤ 100", "slow (key of 1000)", true],
      ["name of 1 or 2: p99 ≤ 1000 ms", "slow (key of 1000)", false],
    ]);
  });

  it("checks the full sync, the hot company and the limited process at their bounds", () => {
    expect(checksOf(report()).map(([, , ok]) => ok)).toEqual([true, true, true, true]);
    const over = report({
      fullSync: { scopeCompanies: 1_000, persons: 10, pages: 1, returnedBytes: 1, rcu: 15.5, recordsRcu: 10 },
      hotCompany: { requests: 50, rcuPerRequestAfterWarmup: 1.01 },
      limitedProcess: {
        maxOldSpaceMb: 1024,
        worst: { name: "persons: no filter", keyCompanies: 1_000, runs: 5, p99Ms: 1_000.1 },
        heapBeforeMb: 20,
        heapAfterMb: 276.1,
        heapGrowthMb: 256.1,
      },
    });
    expect(checksOf(over)).toEqual([
      ["full sync: rcu ≤ 1.5 × records rcu", "1 pages over 1000 companies", false],
      ["hot company: ≤ 1 rcu a request after warm-up", "50 requests", false],
      ["worst p99 ≤ 1000 ms (1024 MB heap)", "persons: no filter (key of 1000)", false],
      ["heap growth ≤ 256 MB (1024 MB heap)", "the query mix", false],
    ]);
  });

  it("counts a limited process that failed (out of memory) as missing both of its targets", () => {
    const failed = report({ limitedProcess: { maxOldSpaceMb: 1024, failed: "exit 134" } });
    const limited = checkScaleTargets(failed).slice(-2);
    expect(limited.map((c) => [c.ok, c.detail])).toEqual([
      [false, "failed: exit 134"],
      [false, "failed: exit 134"],
    ]);
  });
});
