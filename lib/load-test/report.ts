/** The load test's report: what ran, per kind of request its statuses, and each check. */
import type { Check, KindTally, MemorySample } from "./verdict.js";

export interface LoadReport {
  /** Which server was driven: its own (and its engine), or a running one (and its URL). */
  server: string;
  dataset: { records: number; persons: number; companies: number };
  durationSeconds: number;
  connections: number;
  throughput: { requestsPerSecond: number; total: number };
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  kinds: KindTally[];
  memory: MemorySample[];
  checks: Check[];
}

export function formatLoadReport(report: LoadReport): string {
  const { dataset, throughput, latencyMs } = report;
  const width = Math.max(...report.kinds.map((kind) => kind.name.length));
  const lines = [
    `server: ${report.server}`,
    `dataset: ${dataset.records} employee records, ${dataset.persons} persons, ${dataset.companies} companies`,
    `load: ${report.durationSeconds} s, ${report.connections} connections + the throttled key's; ${throughput.total} requests, ${throughput.requestsPerSecond.toFixed(0)} req/s (mixed)`,
    `latency (mixed): p50 ${latencyMs.p50} ms, p90 ${latencyMs.p90} ms, p99 ${latencyMs.p99} ms, max ${latencyMs.max} ms`,
    "",
    `${"request".padEnd(width)}  expected  statuses`,
    ...report.kinds.map((kind) => {
      const seen = Object.entries(kind.statuses)
        .map(([status, count]) => `${status}×${count}`)
        .join(" ");
      return `${kind.name.padEnd(width)}  ${kind.expected.join("/").padEnd(8)}  ${seen || "(none)"}`;
    }),
    "",
    ...report.checks.map(
      (check) => `${check.skipped ? "SKIP" : check.ok ? "PASS" : "FAIL"}  ${check.name}: ${check.detail}`,
    ),
  ];
  return lines.join("\n");
}
