/**
 * The benchmark's result: the JSON written by `--out` (its shape is fixed) and the same as
 * text tables, with each benchmark target checked against it.
 */
import type { BundleResult } from "./bundles.js";
import type { BenchRoute, QueryKind } from "./query-mix.js";

export interface QueryReport {
  readonly name: string;
  readonly kind: QueryKind;
  readonly route: BenchRoute;
  readonly body: Readonly<Record<string, unknown>>;
  /** Companies the key may read, and those the search's scope covers (1 when it names a company). */
  readonly keyCompanies: number;
  readonly scopeCompanies: number;
  readonly rcu: number;
  readonly rcuLowerBound: number;
  /** The floor's page part. */
  readonly pageRcu: number;
  /** Name queries only (candidate-floor.ts): one ideal Query of the rarest gram's entries. */
  readonly candidateRcu?: number | null;
  /** The naive yardstick's figures: absent when it was left out (`--no-naive`). */
  readonly naiveRcu?: number;
  readonly calls: number;
  readonly roundTrips: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly naiveP50Ms?: number;
  readonly naiveP99Ms?: number;
}

export interface BenchReport {
  readonly dataset: Readonly<Record<string, unknown>>;
  readonly engine: string;
  readonly queries: readonly QueryReport[];
  readonly bundles: readonly BundleResult[];
}

const TARGETS = {
  floorFactor: 1.25,
  naiveRcuFactor: 10,
  naiveP50Factor: 5,
  bundleBytes: 450 * 1024,
  importMs: 80,
  /** The ingest: a batch step of up to 13 minutes, whose cold start no partner waits for. */
  batchBundleBytes: 1536 * 1024,
} as const;

/**
 * Functions that answer no request: their bundle may hold the S3 client and the load's full Zod,
 * and their cold import has no target.
 */
export const BATCH_FUNCTIONS: ReadonlySet<string> = new Set(["ingest-step"]);

export const bundleTargetOf = (name: string) =>
  BATCH_FUNCTIONS.has(name) ? TARGETS.batchBundleBytes : TARGETS.bundleBytes;

const MB = 1024 * 1024;
/** Bytes billed by an eventually consistent read: 0.5 RCU per 4 KB, so 8 KB per RCU. */
const billedBytes = (rcu: number) => rcu * 8192;
/** The round-trip target: ⌈bytes read / 1 MB⌉ + 2, bytes read taken as the bytes billed. */
export const roundTripBound = (rcu: number) => Math.ceil(billedBytes(rcu) / MB) + 2;

export interface TargetCheck {
  readonly target: string;
  readonly subject: string;
  readonly ok: boolean;
  readonly detail: string;
}

const ratio = (a: number, b: number) => (b === 0 ? Number.POSITIVE_INFINITY : a / b);
const x = (value: number) => `${value.toFixed(2)}×`;

function checkTargets(report: BenchReport): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const q of report.queries) {
    const overFloor = ratio(q.rcu, q.rcuLowerBound);
    checks.push({
      target: `rcu ≤ ${TARGETS.floorFactor}× floor`,
      subject: q.name,
      ok: overFloor <= TARGETS.floorFactor,
      detail: `${q.rcu} vs floor ${q.rcuLowerBound} = ${x(overFloor)}`,
    });
    if ((q.kind === "name" || q.kind === "unfiltered") && q.naiveRcu !== undefined) {
      const rcuGain = ratio(q.naiveRcu, q.rcu);
      checks.push({
        target: `naive rcu ≥ ${TARGETS.naiveRcuFactor}× rcu`,
        subject: q.name,
        ok: rcuGain >= TARGETS.naiveRcuFactor,
        detail: `${q.naiveRcu} / ${q.rcu} = ${x(rcuGain)}`,
      });
      const speedup = ratio(q.naiveP50Ms ?? Number.NaN, q.p50Ms);
      checks.push({
        target: `naive p50 ≥ ${TARGETS.naiveP50Factor}× p50`,
        subject: q.name,
        ok: speedup >= TARGETS.naiveP50Factor,
        detail: `${q.naiveP50Ms} ms / ${q.p50Ms} ms = ${x(speedup)}`,
      });
    }
    const bound = roundTripBound(q.rcu);
    checks.push({
      target: "round trips ≤ ⌈MB read⌉ + 2",
      subject: q.name,
      ok: q.roundTrips <= bound,
      detail: `${q.roundTrips} vs ${bound}`,
    });
  }
  for (const b of report.bundles) {
    const target = bundleTargetOf(b.function);
    checks.push({
      target: `bundle ≤ ${target / 1024} KB (SDK bundled)`,
      subject: b.function,
      ok: b.bytes <= target,
      detail: `${(b.bytes / 1024).toFixed(1)} KB`,
    });
    if (BATCH_FUNCTIONS.has(b.function)) continue;
    checks.push({
      target: `cold import < ${TARGETS.importMs} ms`,
      subject: b.function,
      ok: b.importMs < TARGETS.importMs,
      detail: `${b.importMs} ms`,
    });
  }
  return checks;
}

/** Checks as a table, headed by how many were met. */
export function formatChecks(checks: readonly TargetCheck[]): string {
  const met = checks.filter((check) => check.ok).length;
  const rows = table(
    ["target", "subject", "result", "detail"],
    checks.map((c) => [c.target, c.subject, c.ok ? "met" : "MISSED", c.detail]),
  );
  return `targets: ${met} of ${checks.length} met\n\n${rows}`;
}

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `${"-".repeat(w + 1)}-` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/** A figure to one decimal, a dash when there is none (the naive yardstick left out). */
/** `value` to `digits` decimals, as the reports give figures. */
export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export const ms = (value: number | undefined) => (value === undefined ? "–" : value.toFixed(1));
export const num = (value: number | undefined) =>
  value === undefined ? "–" : String(Math.round(value * 10) / 10);
const optionalX = (a: number | undefined, b: number) => (a === undefined ? "–" : x(ratio(a, b)));

export const bundlesTable = (bundles: readonly BundleResult[]) =>
  table(
    ["function", "bytes", "KB", "cold import ms"],
    bundles.map((b) => [b.function, String(b.bytes), (b.bytes / 1024).toFixed(1), ms(b.importMs)]),
  );

/** Markdown tables (they read well in a terminal and paste into docs/performance.md as they are). */
export function formatReport(report: BenchReport): string {
  const queries = table(
    [
      "query",
      "kind",
      "rcu",
      "floor",
      "×floor",
      "naive rcu",
      "naive/rcu",
      "calls",
      "round trips",
      "p50 ms",
      "p99 ms",
      "naive p50",
      "naive p99",
      "naive/p50",
    ],
    report.queries.map((q) => [
      q.name,
      q.kind,
      num(q.rcu),
      num(q.rcuLowerBound),
      x(ratio(q.rcu, q.rcuLowerBound)),
      num(q.naiveRcu),
      optionalX(q.naiveRcu, q.rcu),
      String(q.calls),
      `${q.roundTrips} (≤${roundTripBound(q.rcu)})`,
      ms(q.p50Ms),
      ms(q.p99Ms),
      ms(q.naiveP50Ms),
      ms(q.naiveP99Ms),
      optionalX(q.naiveP50Ms, q.p50Ms),
    ]),
  );
  return [
    `engine: ${report.engine}; dataset: ${JSON.stringify(report.dataset)}`,
    "",
    queries,
    "",
    bundlesTable(report.bundles),
    "",
    formatChecks(checkTargets(report)),
    "",
  ].join("\n");
}
