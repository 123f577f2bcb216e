/** The per-stage configuration and the pure helpers of infra/, without synthesizing anything. */
import { RemovalPolicy } from "aws-cdk-lib";
import fc from "fast-check";
import { stageConfig } from "../../infra/config.js";
import { accessLogFormat } from "../../infra/constructs/access-log.js";
import { decimalGreaterThan, MAX_BODY_BYTES } from "../../infra/constructs/body-size-guard.js";
import { DEPLOYED_STAGES } from "../../lib/stages.js";
import { renderAccessLog } from "./template-helpers.js";

describe("stageConfig", () => {
  it("refuses stages that cannot be deployed", () => {
    expect(() => stageConfig("local")).toThrow(/unknown stage "local"/);
    expect(() => stageConfig("production")).toThrow(/dev, sandbox, prod/);
  });

  it.each(DEPLOYED_STAGES)("%s: draft routes only in dev, sane limits", (stage) => {
    const config = stageConfig(stage);
    expect(config.draftRoutes).toBe(stage === "dev");
    expect(config.routeFunction.timeoutSeconds).toBeLessThan(29);
    expect(config.authorizerFunction.timeoutSeconds).toBeLessThan(29);
    expect(config.authorizerCacheTtlSeconds).toBeGreaterThanOrEqual(0);
    expect(config.authorizerCacheTtlSeconds).toBeLessThanOrEqual(3600);
    expect(config.retryAfterSeconds.throttled).toBeGreaterThan(0);
    expect(config.alarms.datapointsToAlarm).toBeLessThanOrEqual(config.alarms.evaluationPeriods);
  });

  it("protects prod's data", () => {
    const prod = stageConfig("prod");
    expect(prod.tables).toEqual({ removalPolicy: RemovalPolicy.RETAIN, deletionProtection: true });
    expect(prod.terminationProtection).toBe(true);
    expect(prod.createAlarmTopic).toBe(true);
  });
});

describe("decimalGreaterThan", () => {
  it("matches exactly the decimal numbers above the limit", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 2 ** 40 }),
        fc.nat({ max: 2 ** 40 }),
        fc.nat({ max: 3 }),
        (limit, value, zeros) => {
          const regex = new RegExp(decimalGreaterThan(limit));
          expect(regex.test("0".repeat(zeros) + String(value))).toBe(value > limit);
        },
      ),
    );
    // Near the limit, where an off-by-one would hide.
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 40 }), fc.integer({ min: -1000, max: 1000 }), (limit, delta) => {
        const value = Math.max(0, limit + delta);
        expect(new RegExp(decimalGreaterThan(limit)).test(String(value))).toBe(value > limit);
      }),
    );
  });

  it("handles the 1 MiB boundary and refuses non-numbers", () => {
    const regex = new RegExp(decimalGreaterThan(MAX_BODY_BYTES));
    expect(regex.test("1048576")).toBe(false);
    expect(regex.test("1048577")).toBe(true);
    expect(regex.test("")).toBe(false);
    expect(regex.test("1e9")).toBe(false);
    expect(regex.test("-5")).toBe(false);
    expect(decimalGreaterThan(MAX_BODY_BYTES).length).toBeLessThan(512); // WAF's regex limit
  });
});

describe("accessLogFormat", () => {
  it("is one JSON object per request once API Gateway fills the variables", () => {
    expect(renderAccessLog(accessLogFormat("search"))).toMatchObject({ api: "search", status: 200 });
  });
});
