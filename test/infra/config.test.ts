/** The per-stage configuration and the pure helpers of infra/, without synthesizing anything. */
import { RemovalPolicy } from "aws-cdk-lib";
import fc from "fast-check";
import { STAGE_SETTINGS, stageDefaults } from "../../infra/config.js";
import { accessLogFormat } from "../../infra/constructs/access-log.js";
import { decimalGreaterThan, MAX_BODY_BYTES } from "../../infra/constructs/body-size-guard.js";
import { stageEnvironment } from "../../infra/stage-environment.js";
import { addStage, createApp } from "../../infra/stage-stacks.js";
import { DEPLOYED_STAGES, THROTTLE_TIERS } from "../../lib/stages.js";
import { settingsFor } from "./stage-settings.js";
import { runOutdir } from "./synth.js";
import { renderAccessLog } from "./template-helpers.js";

describe("stageDefaults", () => {
  it("refuses stages that cannot be deployed", () => {
    expect(() => stageDefaults("local")).toThrow(/unknown stage "local"/);
    expect(() => stageDefaults("production")).toThrow(/dev, sandbox, prod/);
  });

  it.each(DEPLOYED_STAGES)("%s: draft routes only in dev, sane limits", (stage) => {
    const config = stageDefaults(stage);
    expect(config.draftRoutes).toBe(stage === "dev");
    expect(config.routeFunction.timeoutSeconds).toBeLessThan(29);
    expect(config.authorizerFunction.timeoutSeconds).toBeLessThan(29);
    expect(config.authorizerCacheTtlSeconds).toBeGreaterThanOrEqual(0);
    expect(config.authorizerCacheTtlSeconds).toBeLessThanOrEqual(60);
    expect(config.retryAfterSeconds.throttled).toBeGreaterThan(0);
    expect(config.alarms.datapointsToAlarm).toBeLessThanOrEqual(config.alarms.evaluationPeriods);
  });

  it.each(DEPLOYED_STAGES)(
    "%s: limits that only bite on a flood, never on one partner within its tier",
    (stage) => {
      const config = stageDefaults(stage);
      const tiers = Object.values(THROTTLE_TIERS);
      const fastestRate = Math.max(...tiers.map((tier) => tier.rateLimit));
      const largestBurst = Math.max(...tiers.map((tier) => tier.burstLimit));
      expect(config.stageThrottle.rateLimit).toBeGreaterThanOrEqual(fastestRate);
      expect(config.stageThrottle.burstLimit).toBeGreaterThanOrEqual(largestBurst);
      expect(config.ipRateLimit.requests / config.ipRateLimit.windowSeconds).toBeGreaterThanOrEqual(
        fastestRate,
      );
      // WAF's bounds for a rate-based rule.
      expect(config.ipRateLimit.requests).toBeGreaterThanOrEqual(10);
      for (const sizing of [config.routeFunction, config.authorizerFunction]) {
        expect(Number.isInteger(sizing.reservedConcurrency)).toBe(true);
        expect(sizing.reservedConcurrency).toBeGreaterThan(0);
      }
      expect(config.alarms.serverErrors).toBeGreaterThanOrEqual(1);
      expect(config.alarms.authorizerFailures).toBeGreaterThanOrEqual(1);
    },
  );

  it("pins each stage to its own account, when pinned", () => {
    const pinned = Object.values(STAGE_SETTINGS)
      .map((settings) => settings.account)
      .filter((account) => account !== undefined);
    for (const account of pinned) expect(account).toMatch(/^\d{12}$/);
    expect(new Set(pinned).size).toBe(pinned.length);
  });

  it("protects prod's data", () => {
    const prod = stageDefaults("prod");
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

describe("stageEnvironment: one account per stage", () => {
  const PINNED = { stage: "prod", account: "111111111111", region: "eu-west-1" } as const;
  const UNPINNED = { stage: "dev", account: undefined, region: undefined } as const;

  it("binds a stage to its account and region, with or without credentials", () => {
    expect(stageEnvironment(PINNED, {})).toEqual({ account: "111111111111", region: "eu-west-1" });
    expect(stageEnvironment(PINNED, { cliAccount: "111111111111", region: "us-east-1" })).toEqual({
      account: "111111111111",
      region: "eu-west-1",
    });
  });

  it("refuses the CLI's credentials for another account, naming both", () => {
    expect(() => stageEnvironment(PINNED, { cliAccount: "222222222222" })).toThrow(
      /stage prod deploys only to account 111111111111, but the CLI's credentials are for account 222222222222/,
    );
  });

  it("synthesizes a stage without an account only when no account is known, environment-agnostic", () => {
    expect(stageEnvironment(UNPINNED, { region: "eu-west-1" })).toEqual({
      account: undefined,
      region: "eu-west-1",
    });
    expect(() => stageEnvironment(UNPINNED, { cliAccount: "222222222222" })).toThrow(
      /stage dev has no account: .*STAGE_SETTINGS\.dev\.account in infra\/config\.ts/,
    );
  });
});

describe("addStage", () => {
  const saved = process.env.CDK_DEFAULT_ACCOUNT;
  afterEach(() => {
    if (saved === undefined) delete process.env.CDK_DEFAULT_ACCOUNT;
    else process.env.CDK_DEFAULT_ACCOUNT = saved;
  });

  it.each(DEPLOYED_STAGES)(
    "%s: refuses the CLI's account unless it is the stage's, before building anything",
    (stage) => {
      const foreign = "999999999999";
      process.env.CDK_DEFAULT_ACCOUNT = foreign;
      const app = createApp(runOutdir());
      expect(() => addStage(app, stage, settingsFor(stage))).toThrow(
        new RegExp(`stage ${stage} .*account ${foreign}`),
      );
      expect(app.node.children).toHaveLength(0);
    },
  );

  it("refuses an alarm email that is not an address", () => {
    delete process.env.CDK_DEFAULT_ACCOUNT;
    expect(() =>
      addStage(createApp(runOutdir()), "prod", {
        ...settingsFor("prod"),
        alarmEmail: "arn:aws:sns:eu-west-1:1:x",
        env: {},
      }),
    ).toThrow(/alarmEmail "arn:aws:sns:eu-west-1:1:x" is not an email address/);
  });
});
