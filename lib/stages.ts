/**
 * Stages and the throttle tiers shared by the local server and the CDK stacks. A key's throttle
 * is a token bucket (steady rate per second, burst) with an optional daily quota, as API Gateway
 * usage plans define it.
 */

export const DEPLOYED_STAGES = ["dev", "sandbox", "prod"] as const;
export type DeployedStage = (typeof DEPLOYED_STAGES)[number];
export type Stage = DeployedStage | "local";

export function isStage(value: string): value is Stage {
  return value === "local" || (DEPLOYED_STAGES as readonly string[]).includes(value);
}

export interface Throttle {
  /** Steady-state requests per second. */
  readonly rateLimit: number;
  /** Bucket size: requests that may arrive at once. */
  readonly burstLimit: number;
  /** Optional requests per UTC day. */
  readonly dailyQuota?: number;
}

export const THROTTLE_TIERS = {
  trial: { rateLimit: 2, burstLimit: 5, dailyQuota: 10_000 },
  standard: { rateLimit: 10, burstLimit: 20 },
  premium: { rateLimit: 50, burstLimit: 100 },
} as const satisfies Record<string, Throttle>;

export type ThrottleTier = keyof typeof THROTTLE_TIERS;
export const THROTTLE_TIER_NAMES = Object.keys(THROTTLE_TIERS) as ThrottleTier[];

export function isThrottleTier(name: string): name is ThrottleTier {
  return Object.hasOwn(THROTTLE_TIERS, name);
}

/** The throttle a key gets when its record names none. */
export const DEFAULT_THROTTLE_TIER: ThrottleTier = "standard";

/**
 * SSM parameters through which a deployed stage publishes its resources; the CLIs (`keys`, `load`)
 * read them, so they need no CloudFormation lookups. A stable interface: the stacks write them.
 */
export const stageParameterNames = {
  keysTableName: (stage: DeployedStage) => `/partner-directory/${stage}/keys-table-name`,
  directoryTableName: (stage: DeployedStage) => `/partner-directory/${stage}/directory-table-name`,
  /** The inbox bucket (lib/ingest/inbox.ts): the load CLI uploads there and reads the report. */
  inboxBucketName: (stage: DeployedStage) => `/partner-directory/${stage}/inbox-bucket-name`,
  /** The ingest's state machine: the load CLI reads the status of its upload's execution. */
  ingestStateMachineArn: (stage: DeployedStage) => `/partner-directory/${stage}/ingest-state-machine-arn`,
  usagePlan: (stage: DeployedStage, tier: string) => `/partner-directory/${stage}/usage-plan/${tier}`,
};
