/**
 * The one per-stage configuration of the deployed service. Everything that differs between dev,
 * sandbox and prod lives here, typed, so a stack never branches on a stage name itself.
 * Throttle tiers and draft routes come from lib/ (shared with the local server), not copied.
 */
import { RemovalPolicy } from "aws-cdk-lib";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { draftRoutesEnabled } from "../lib/routes.js";
import {
  DEPLOYED_STAGES,
  type DeployedStage,
  THROTTLE_TIERS,
  type Throttle,
  type ThrottleTier,
} from "../lib/stages.js";
import { type AlarmThresholds, PROD_ALARMS } from "./alarm-thresholds.js";
import {
  type CustomDomains,
  type DeploymentSettings,
  resolveSettings,
  type SettingOverrides,
  SettingsError,
} from "./deployment-settings.js";

export interface FunctionSizing {
  readonly memoryMb: number;
  /** Must stay below API Gateway's 29 s integration timeout (checked by the function construct). */
  readonly timeoutSeconds: number;
  /**
   * Reserved concurrency: the most instances the function may run at once, set aside from the
   * account's regional quota (which must keep 100 unreserved; see docs/operations.md).
   */
  readonly reservedConcurrency: number;
}

/** The ingest's step function (infra/constructs/ingest.ts): not behind API Gateway. */
interface IngestSizing {
  /** Holds the ids a load keeps in memory: about 20 million 16-byte ids for a 10M-record snapshot. */
  readonly memoryMb: number;
  /** Each invocation watches its remaining time and returns well before this. */
  readonly timeoutSeconds: number;
  /** Executions of different files wait for the one lease anyway: a few instances are enough. */
  readonly reservedConcurrency: number;
}

/** What happens to the inbox's objects over time (days), and to the bucket with the stack. */
export interface InboxSettings {
  readonly removalPolicy: RemovalPolicy;
  /** A replaced or deleted object's old versions. */
  readonly noncurrentVersionDays: number;
  /** Files under the load prefixes (merge/, snapshot/, changes/): the inbox is not their archive. */
  readonly inputDays: number;
  /** What the loader carries between steps (work/): a finished or abandoned load's is garbage. */
  readonly workDays: number;
  /** Reports (reports/): a year of loads, and some. */
  readonly reportDays: number;
}

/** WAF's per-IP limit: requests from one address over a sliding window, across both APIs. */
export interface IpRateLimit {
  readonly requests: number;
  /** One of WAF's evaluation windows; also the `Retry-After` of its 429. */
  readonly windowSeconds: 60 | 120 | 300 | 600;
}

export interface StageConfig {
  readonly stage: DeployedStage;
  /**
   * The one AWS account this stage deploys to (STAGE_SETTINGS or `-c account`). A synth for another
   * account is refused, and the stacks are bound to this one (infra/stage-environment.ts).
   */
  readonly account: string | undefined;
  /** The stage's region (STAGE_SETTINGS or `-c region`); unset in dev, where the CLI's is used. */
  readonly region: string | undefined;
  /** sandbox and prod: partners use them, so they synthesize only with every deployment setting. */
  readonly release: boolean;
  /** Whether the draft search routes (functions and methods) are deployed in this stage. */
  readonly draftRoutes: boolean;
  /** One usage plan per tier; the keys CLI puts each key's API Gateway key in its tier's plan. */
  readonly throttleTiers: Readonly<Record<ThrottleTier, Throttle>>;
  /**
   * Default throttle of every method of both API stages, over all keys together: above the
   * fastest tier, so it only bites when the stage as a whole is flooded (429 rate_limited).
   */
  readonly stageThrottle: Throttle;
  /** WAF's per-IP rate rule: blocked requests get 429 `{"error":"rate_limited"}` from WAF. */
  readonly ipRateLimit: IpRateLimit;
  /**
   * How long API Gateway caches the authorizer's answer per Authorization header: at most 60 s,
   * the bound on a scope change reaching requests (docs/operations.md "Keys").
   */
  readonly authorizerCacheTtlSeconds: number;
  /** Retention of Lambda logs, API access logs and API execution logs. */
  readonly logRetention: RetentionDays;
  /** What happens to log groups when the stack is deleted. */
  readonly logRemovalPolicy: RemovalPolicy;
  readonly logLevel: "DEBUG" | "INFO" | "WARN" | "ERROR";
  readonly routeFunction: FunctionSizing;
  readonly authorizerFunction: FunctionSizing;
  readonly ingestFunction: IngestSizing;
  readonly inbox: InboxSettings;
  readonly tables: { readonly removalPolicy: RemovalPolicy; readonly deletionProtection: boolean };
  /** CloudFormation refuses to delete the stacks while this is on. */
  readonly terminationProtection: boolean;
  /** `Retry-After` seconds API Gateway sends with its own 429s (it cannot compute them). */
  readonly retryAfterSeconds: { readonly throttled: number; readonly quotaExceeded: number };
  /** A WAF rule that answers 400 to bodies over 1 MiB before they reach a Lambda (see docs/operations.md). */
  readonly bodySizeGuard: boolean;
  readonly alarms: AlarmThresholds;
  /**
   * A monthly AWS Budgets cost budget (USD) for the stage's account, which holds only this stage:
   * on-call is told at 80 % spent and at 100 % forecast. Undefined: no budget.
   */
  readonly monthlyBudgetUsd: number | undefined;
  /** Create an SNS topic for the alarms (`-c alarmTopicArn=…` uses an existing topic instead). */
  readonly createAlarmTopic: boolean;
  /** Subscribed to the alarm topic (STAGE_SETTINGS or `-c alarmEmail`). */
  readonly alarmEmail: string | undefined;
  /** Stable partner URLs (STAGE_SETTINGS or `-c`); unset only in dev: execute-api addresses. */
  readonly customDomains: CustomDomains | undefined;
  /** The Route 53 zone of the domains, when it is in the stage's account (`npm run preflight`). */
  readonly hostedZoneId: string | undefined;
}

/** The stage's limits and sizes, without its deployment settings (those are STAGE_SETTINGS). */
export type StageDefaults = Omit<
  StageConfig,
  "account" | "region" | "alarmEmail" | "customDomains" | "hostedZoneId"
>;

/** The stages partners use: they refuse to synthesize without every deployment setting. */
const RELEASE_STAGES: readonly DeployedStage[] = ["sandbox", "prod"];

const UNSET: DeploymentSettings = {
  account: undefined,
  region: undefined,
  alarmEmail: undefined,
  searchDomain: undefined,
  helloDomain: undefined,
  certificateArn: undefined,
  hostedZoneId: undefined,
};

/**
 * Each stage's home (docs/operations.md "First deploy of a stage"). Nothing here is a secret:
 * fill in a stage's values and commit them before its first deploy, so no redeploy can lose them.
 * Until then sandbox and prod refuse to synthesize, naming what is missing; `-c` flags override
 * each field. dev needs only its account, and only to deploy.
 */
export const STAGE_SETTINGS: Readonly<Record<DeployedStage, DeploymentSettings>> = {
  dev: UNSET,
  sandbox: UNSET,
  prod: UNSET,
};

const ROUTE_FUNCTION = { memoryMb: 1024, timeoutSeconds: 10 } as const;
const AUTHORIZER_FUNCTION = { memoryMb: 512, timeoutSeconds: 5 } as const;
/** Lambda's longest run; 3008 MB in every stage, so a file that loads in dev loads in prod. */
const INGEST_FUNCTION: IngestSizing = { memoryMb: 3008, timeoutSeconds: 900, reservedConcurrency: 5 };
const INBOX_LIFECYCLE = { noncurrentVersionDays: 30, inputDays: 90, workDays: 7, reportDays: 400 } as const;
/** 100 requests a second from one address (twice the premium tier), over one minute. */
const IP_RATE_LIMIT: IpRateLimit = { requests: 6_000, windowSeconds: 60 };

const CONFIGS: Readonly<
  Record<DeployedStage, Omit<StageDefaults, "stage" | "release" | "draftRoutes" | "throttleTiers">>
> = {
  dev: {
    authorizerCacheTtlSeconds: 60,
    logRetention: RetentionDays.ONE_WEEK,
    logRemovalPolicy: RemovalPolicy.DESTROY,
    logLevel: "INFO",
    routeFunction: { ...ROUTE_FUNCTION, reservedConcurrency: 10 },
    authorizerFunction: { ...AUTHORIZER_FUNCTION, reservedConcurrency: 10 },
    ingestFunction: INGEST_FUNCTION,
    inbox: { ...INBOX_LIFECYCLE, removalPolicy: RemovalPolicy.DESTROY },
    stageThrottle: { rateLimit: 100, burstLimit: 200 },
    ipRateLimit: IP_RATE_LIMIT,
    tables: { removalPolicy: RemovalPolicy.DESTROY, deletionProtection: false },
    terminationProtection: false,
    retryAfterSeconds: { throttled: 1, quotaExceeded: 3600 },
    bodySizeGuard: true,
    alarms: { ...PROD_ALARMS, serverErrorRatePercent: 10, p99LatencyMs: 5000 },
    monthlyBudgetUsd: undefined,
    createAlarmTopic: false,
  },
  sandbox: {
    authorizerCacheTtlSeconds: 60,
    logRetention: RetentionDays.ONE_MONTH,
    logRemovalPolicy: RemovalPolicy.DESTROY,
    logLevel: "INFO",
    routeFunction: { ...ROUTE_FUNCTION, reservedConcurrency: 20 },
    authorizerFunction: { ...AUTHORIZER_FUNCTION, reservedConcurrency: 10 },
    ingestFunction: INGEST_FUNCTION,
    inbox: { ...INBOX_LIFECYCLE, removalPolicy: RemovalPolicy.RETAIN },
    stageThrottle: { rateLimit: 100, burstLimit: 200 },
    ipRateLimit: IP_RATE_LIMIT,
    // Partners' test keys live here: keep the tables if the stack is deleted by mistake.
    tables: { removalPolicy: RemovalPolicy.RETAIN, deletionProtection: false },
    terminationProtection: false,
    retryAfterSeconds: { throttled: 1, quotaExceeded: 3600 },
    bodySizeGuard: true,
    alarms: { ...PROD_ALARMS, serverErrorRatePercent: 5 },
    monthlyBudgetUsd: undefined,
    createAlarmTopic: true,
  },
  prod: {
    authorizerCacheTtlSeconds: 60,
    logRetention: RetentionDays.THREE_MONTHS,
    // Access logs are the audit trail of partner calls: they outlive the stack.
    logRemovalPolicy: RemovalPolicy.RETAIN,
    logLevel: "INFO",
    // 500 requests a second (the stage throttle) at up to 200 ms each.
    routeFunction: { ...ROUTE_FUNCTION, reservedConcurrency: 100 },
    // Its answers are cached per key for a minute: it runs far less often than the routes.
    authorizerFunction: { ...AUTHORIZER_FUNCTION, reservedConcurrency: 50 },
    ingestFunction: INGEST_FUNCTION,
    inbox: { ...INBOX_LIFECYCLE, removalPolicy: RemovalPolicy.RETAIN },
    stageThrottle: { rateLimit: 500, burstLimit: 1000 },
    ipRateLimit: IP_RATE_LIMIT,
    tables: { removalPolicy: RemovalPolicy.RETAIN, deletionProtection: true },
    terminationProtection: true,
    retryAfterSeconds: { throttled: 1, quotaExceeded: 3600 },
    bodySizeGuard: true,
    alarms: PROD_ALARMS,
    // A ceiling that catches runaway cost (a flood, a loop of executions), not a forecast.
    monthlyBudgetUsd: 1000,
    createAlarmTopic: true,
  },
};

function isDeployedStage(value: string): value is DeployedStage {
  return (DEPLOYED_STAGES as readonly string[]).includes(value);
}

export function stageDefaults(stage: string): StageDefaults {
  if (!isDeployedStage(stage)) {
    throw new SettingsError(
      `unknown stage "${stage}": use one of ${DEPLOYED_STAGES.join(", ")} (-c stage=…)`,
    );
  }
  return {
    stage,
    release: RELEASE_STAGES.includes(stage),
    draftRoutes: draftRoutesEnabled(stage),
    throttleTiers: THROTTLE_TIERS,
    ...CONFIGS[stage],
  };
}

/** The whole stage config: defaults and STAGE_SETTINGS with the `-c` overrides, checked. */
export function stageConfig(stage: string, overrides: SettingOverrides = {}): StageConfig {
  const defaults = stageDefaults(stage);
  const settings = resolveSettings(
    defaults.stage,
    defaults.release,
    STAGE_SETTINGS[defaults.stage],
    overrides,
  );
  return {
    ...defaults,
    account: settings.account,
    region: settings.region,
    alarmEmail: settings.alarmEmail,
    customDomains: settings.customDomains,
    hostedZoneId: settings.hostedZoneId,
  };
}

export { stageParameterNames as ssmParameterNames } from "../lib/stages.js";
