/** Pricing a page of employee records: one run, or one by one. */
import fc from "fast-check";
import { pageReadPlan, readRcu } from "../../lib/store/page-reads.js";

describe("readRcu", () => {
  it("bills at least one 4 KB unit, halved, and every further started unit", () => {
    expect([0, 1, 4096, 4097, 8192, 1_000_000].map(readRcu)).toEqual([0.5, 0.5, 0.5, 1, 1, 122.5]);
  });
});

describe("pageReadPlan", () => {
  const sizes = (n: number, bytes = 500) => Array.from({ length: n }, () => bytes);

  it("reads a page of adjacent records as one run", () => {
    expect(pageReadPlan(sizes(100), [10, 11, 12, 13])).toEqual({ kind: "run", length: 4 });
  });

  it("reads records close together as a run, the ones between included", () => {
    // 10 records of 500 bytes span 5,000 bytes: 1 RCU as a run, 1.5 one by one.
    expect(pageReadPlan(sizes(100), [0, 4, 9])).toEqual({ kind: "run", length: 10 });
  });

  it("reads scattered records one by one", () => {
    expect(pageReadPlan(sizes(2000), [0, 500, 1999])).toEqual({ kind: "each" });
  });

  it("prices large records as several units each", () => {
    // Two 20 KB records far apart: 2.5 RCU each alone, the run between them far more.
    const big = sizes(50, 20_000);
    expect(pageReadPlan(big, [0, 49])).toEqual({ kind: "each" });
  });

  it("never chooses the dearer way", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 100, max: 50_000 }), { minLength: 1, maxLength: 300 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 60 }),
        (recordSizes, picks) => {
          const page = [...new Set(picks.map((p) => p % recordSizes.length))].sort((a, b) => a - b);
          const first = page[0] ?? 0;
          const last = page.at(-1) ?? 0;
          const run = readRcu(recordSizes.slice(first, last + 1).reduce((a, b) => a + b, 0));
          const each = page.reduce((sum, i) => sum + readRcu(recordSizes[i] ?? 0), 0);
          const plan = pageReadPlan(recordSizes, page);
          expect(plan.kind === "run" ? run : each).toBe(Math.min(run, each));
          if (plan.kind === "run") expect(plan.length).toBe(last - first + 1);
        },
      ),
    );
  });

  it("takes the run on a tie: one request rather than a batch", () => {
    // Two records of exactly 4 KB: one unit each one by one, two units as a run.
    expect(pageReadPlan([4096, 4096], [0, 1])).toEqual({ kind: "run", length: 2 });
  });

  it("has nothing to read for an empty page", () => {
    expect(pageReadPlan(sizes(10), [])).toEqual({ kind: "each" });
  });
});
