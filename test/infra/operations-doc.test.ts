/** docs/operations.md states the stage configuration; this keeps its tables true to infra/config.ts. */
import { readFileSync } from "node:fs";
import { stageDefaults } from "../../infra/config.js";

const doc = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");

/** The dev, sandbox and prod cells of the table row whose first cell starts with `label`. */
function stageCells(label: string): string[] {
  const row = doc.split("\n").find((line) => line.startsWith(`| ${label}`));
  if (!row) throw new Error(`no row ${label} in docs/operations.md`);
  return row
    .split("|")
    .slice(1, -1)
    .map((cell) => cell.trim())
    .slice(-3);
}

const stages = ["dev", "sandbox", "prod"].map((stage) => stageDefaults(stage));

describe("docs/operations.md against infra/config.ts", () => {
  it("gives each stage's alarm thresholds", () => {
    expect(stageCells("`search-5xx-rate`")).toEqual(
      stages.map((c) => `≥ ${c.alarms.serverErrorRatePercent} %`),
    );
    expect(stageCells("`search-p99-latency`")).toEqual(
      stages.map((c) => `≥ ${c.alarms.p99LatencyMs / 1000} s`),
    );
    expect(stageCells("`search-5xx-count`")).toEqual(stages.map((c) => `≥ ${c.alarms.serverErrors}`));
    expect(stageCells("`authorizer-errors`")).toEqual(stages.map((c) => `≥ ${c.alarms.authorizerFailures}`));
    expect(stageCells("`<route>-errors`")).toEqual(stages.map((c) => `≥ ${c.alarms.lambdaErrors}`));
    expect(stageCells("`<route>-throttles`")).toEqual(stages.map((c) => `≥ ${c.alarms.lambdaThrottles}`));
    expect(stageCells("`directory-table-read-throttles`")).toEqual(
      stages.map((c) => `≥ ${c.alarms.dynamoReadThrottles}`),
    );
    expect(stageCells("`ingest-dead-letters`")).toEqual(
      stages.map((c) => `≥ ${c.alarms.ingestDeadLetterAgeSeconds} s`),
    );
    expect(stageCells("`directory-table-write-throttles`")).toEqual(
      stages.map((c) => `≥ ${c.alarms.dynamoWriteThrottles}`),
    );
    expect(stageCells("`directory-table-system-errors`")).toEqual(
      stages.map((c) => `≥ ${c.alarms.dynamoSystemErrors}`),
    );
    expect(stageCells("`waf-blocked-spike`")).toEqual(stages.map((c) => `≥ ${c.alarms.wafBlockedRequests}`));
    expect(stageCells("`canary-greeting`")).toEqual(
      stages.map((c) => `< ${c.alarms.canarySuccessPercent} %`),
    );
    expect(stageCells("`ingest-executions-failed`")).toEqual(
      stages.map((c) => `≥ ${c.alarms.ingestFailedExecutions}`),
    );
    expect(stageCells("`ingest-executions-timed-out`")).toEqual(
      stages.map((c) => `≥ ${c.alarms.ingestFailedExecutions}`),
    );
    expect(stageCells("`ingest-executions-aborted`")).toEqual(
      stages.map((c) => `≥ ${c.alarms.ingestFailedExecutions}`),
    );
    for (const config of stages) {
      const { datapointsToAlarm, evaluationPeriods, periodMinutes, minRequestsForErrorRate } = config.alarms;
      expect(doc).toContain(`${datapointsToAlarm} of the last ${evaluationPeriods} one-minute periods`);
      expect(periodMinutes).toBe(1);
      expect(doc).toContain(`once there are ${minRequestsForErrorRate} requests in a period`);
      expect(doc).toContain(`count over ${config.alarms.countWindowMinutes} minutes`);
    }
  });

  it("gives each stage's limits", () => {
    expect(stageCells("Stage throttle")).toEqual(
      stages.map((c) => `${c.stageThrottle.rateLimit}, ${c.stageThrottle.burstLimit}`),
    );
    expect(stageCells("Reserved concurrency, each route function")).toEqual(
      stages.map((c) => `${c.routeFunction.reservedConcurrency}`),
    );
    expect(stageCells("Reserved concurrency, authorizer")).toEqual(
      stages.map((c) => `${c.authorizerFunction.reservedConcurrency}`),
    );
    expect(stageCells("Reserved concurrency, ingest")).toEqual(
      stages.map((c) => `${c.ingestFunction.reservedConcurrency}`),
    );
    for (const config of stages) expect(config.ipRateLimit.windowSeconds).toBe(60);
    expect(stageCells("WAF limit per IP address")).toEqual(
      stages.map((c) => `${c.ipRateLimit.requests} a minute`),
    );
  });

  it("gives each stage's authorizer cache TTL", () => {
    expect(stageCells("Authorizer cache TTL")).toEqual(stages.map((c) => `${c.authorizerCacheTtlSeconds} s`));
  });

  it("gives each stage's 5xx and p99 thresholds in the stage table too", () => {
    expect(stageCells("5xx-rate alarm threshold")).toEqual(
      stages.map((c) => `${c.alarms.serverErrorRatePercent} %`),
    );
    expect(stageCells("p99 latency alarm threshold")).toEqual(
      stages.map((c) => `${c.alarms.p99LatencyMs} ms`),
    );
  });
});
