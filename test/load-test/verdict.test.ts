import { formatLoadReport } from "../../lib/load-test/report.js";
import {
  answeredEveryKind,
  failed,
  type KindTally,
  type MemorySample,
  memoryFlat,
  memorySkipped,
  noTransportErrors,
  rateLimitedOnlyThrottledKey,
  throttleHeld,
  unexpectedStatuses,
} from "../../lib/load-test/verdict.js";

const tally = (
  name: string,
  key: string,
  expected: number[],
  statuses: Record<number, number>,
): KindTally => ({
  name,
  key,
  expected,
  statuses,
});

const MB = 2 ** 20;
const samples = (heapsMb: number[], rssMb = 500): MemorySample[] =>
  heapsMb.map((heap, index) => ({ atSeconds: index * 2, heapUsed: heap * MB, rss: rssMb * MB }));

describe("load-test verdict", () => {
  it("fails on any status a kind does not expect, naming it", () => {
    const ok = [
      tally("search", "generous", [200], { 200: 10 }),
      tally("bad limit", "generous", [400], { 400: 3 }),
    ];
    expect(unexpectedStatuses(ok).ok).toBe(true);
    const wrong = [...ok, tally("greeting", "generous", [200], { 200: 9, 500: 1 })];
    expect(unexpectedStatuses(wrong)).toMatchObject({ ok: false, detail: "greeting: 1× 500" });
    // A count of zero is not a response.
    expect(unexpectedStatuses([tally("x", "generous", [200], { 200: 1, 503: 0 })]).ok).toBe(true);
  });

  it("allows 429 only on the throttled key", () => {
    const throttled = tally("t", "throttled", [200, 429], { 200: 5, 429: 5 });
    expect(rateLimitedOnlyThrottledKey([throttled], "throttled").ok).toBe(true);
    const other = tally("search", "generous", [200, 429], { 429: 2 });
    expect(rateLimitedOnlyThrottledKey([throttled, other], "throttled")).toMatchObject({
      ok: false,
      detail: "search: 2× 429",
    });
  });

  describe("throttle held", () => {
    const expectation = { rateLimit: 5, burstLimit: 10, durationSeconds: 20, sentRate: 10 };
    const run = (accepted: number, limited: number) =>
      throttleHeld(
        [tally("t", "throttled", [200, 429], { 200: accepted, 429: limited })],
        "throttled",
        expectation,
      );

    it("holds between 80% of rate × duration and burst + rate × (duration + 1)", () => {
      expect(run(80, 100).ok).toBe(true);
      expect(run(115, 80).ok).toBe(true);
      expect(run(79, 100).ok).toBe(false);
      expect(run(116, 80).ok).toBe(false);
    });

    it("fails when a key sending faster than its rate never saw a 429", () => {
      expect(run(100, 0).ok).toBe(false);
      expect(
        throttleHeld([tally("t", "throttled", [200], { 200: 100 })], "throttled", {
          ...expectation,
          sentRate: 5,
        }).ok,
      ).toBe(true);
    });

    it("counts only the throttled key", () => {
      const detail = throttleHeld(
        [
          tally("t", "throttled", [200, 429], { 200: 100, 429: 3 }),
          tally("g", "generous", [200], { 200: 999 }),
        ],
        "throttled",
        expectation,
      ).detail;
      expect(detail).toBe("100 accepted (allowed 80–115), 3 rate limited");
    });
  });

  it("fails on any connection error or timeout", () => {
    expect(noTransportErrors(0, 0).ok).toBe(true);
    expect(noTransportErrors(1, 0).ok).toBe(false);
    expect(noTransportErrors(0, 1).ok).toBe(false);
  });

  it("fails when a kind of request was never answered", () => {
    expect(answeredEveryKind([tally("a", "generous", [200], { 200: 1 })]).ok).toBe(true);
    expect(answeredEveryKind([tally("a", "generous", [200], {})])).toMatchObject({
      ok: false,
      detail: "never answered: a",
    });
  });

  describe("memory flat", () => {
    it("ignores warm-up and noise, and holds when the heap levels off", () => {
      expect(memoryFlat(samples([20, 60, 41, 43, 40, 55, 42, 41, 44, 42, 40, 41])).ok).toBe(true);
    });

    it("fails on steady growth after warm-up", () => {
      const growing = samples(Array.from({ length: 12 }, (_, index) => 40 + index * 4));
      expect(memoryFlat(growing)).toMatchObject({ ok: false });
    });

    it("fails on RSS growth even with a flat heap", () => {
      const heap = samples(Array(12).fill(40));
      const rss = heap.map((sample, index) => ({ ...sample, rss: (500 + index * 20) * MB }));
      expect(memoryFlat(rss).ok).toBe(false);
      expect(memoryFlat(heap).ok).toBe(true);
    });

    it("allows 10% of a large heap, or 8 MB of a small one", () => {
      const big = [400, 400, 400, 400, 400, 400, 430, 430];
      expect(memoryFlat(samples(big, 2000)).ok).toBe(true);
      const small = [30, 30, 30, 30, 30, 30, 39, 39];
      expect(memoryFlat(samples(small)).ok).toBe(false);
    });

    it("judges a server it did not start by its RSS alone, and says so", () => {
      const rssOnly = (rssMb: number[]) =>
        rssMb.map((rss, index) => ({ atSeconds: index * 2, rss: rss * MB }));
      const flat = memoryFlat(rssOnly([300, 320, 310, 311, 310, 312, 311, 310]));
      expect(flat).toMatchObject({
        ok: true,
        detail: expect.stringMatching(/^RSS .*not visible from outside\)$/),
      });
      expect(memoryFlat(rssOnly([300, 310, 310, 320, 330, 340, 350, 360])).ok).toBe(false);
    });

    it("skips the check when the memory cannot be read: neither a pass nor a failure", () => {
      const skipped = memorySkipped("the server's pid is not known");
      expect(skipped).toEqual({
        name: "memory flat",
        ok: false,
        skipped: true,
        detail: "skipped: the server's pid is not known",
      });
      expect(failed(skipped)).toBe(false);
      expect(failed(memoryFlat(samples([40])))).toBe(true);
      expect(failed(noTransportErrors(0, 0))).toBe(false);
      const report = formatLoadReport({
        server: "s",
        dataset: { records: 1, persons: 1, companies: 1 },
        durationSeconds: 8,
        connections: 1,
        throughput: { requestsPerSecond: 1, total: 8 },
        latencyMs: { p50: 1, p90: 1, p99: 1, max: 1 },
        kinds: [tally("a", "k", [200], { 200: 8 })],
        memory: [],
        checks: [noTransportErrors(0, 0), skipped],
      });
      expect(report).toMatch(
        /^PASS {2}no connection errors.*\nSKIP {2}memory flat: skipped: the server's pid is not known$/m,
      );
    });

    it("refuses to judge from too few samples", () => {
      expect(memoryFlat(samples([40, 40, 40]))).toMatchObject({
        ok: false,
        detail: expect.stringMatching(/run longer/),
      });
    });
  });
});
