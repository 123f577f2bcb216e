/**
 * One stage of the service = a stateful stack (tables) and a stateless stack (functions, APIs,
 * on-call) that reads the tables through typed props. The CLI app, `npm run synth` and the tests
 * all build stages through here, with the feature flags of cdk.json and cdk-nag's AwsSolutions
 * pack as a validation plugin: a synth with an unacknowledged finding fails.
 */
import { readFileSync } from "node:fs";
import { App, type Environment, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import type { RouteTable } from "../lib/routes.js";
import { type StageConfig, stageConfig } from "./config.js";
import { resolveCustomDomains, type SettingOverrides } from "./deployment-settings.js";
import { repoPath } from "./paths.js";
import { stageEnvironment } from "./stage-environment.js";
import { StatefulStack } from "./stateful-stack.js";
import { StatelessStack } from "./stateless-stack.js";

export interface StageStacks {
  readonly config: StageConfig;
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;
}

/**
 * The `-c` overrides of STAGE_SETTINGS (infra/deployment-settings.ts); `alarmTopicArn` sends the
 * alarms to an existing SNS topic instead of the stage's own (if any).
 */
export interface StageOptions extends SettingOverrides {
  /**
   * Default: the stage's account, checked against CDK_DEFAULT_ACCOUNT, and its region
   * (infra/stage-environment.ts). Tests pass `{}`: environment-agnostic.
   */
  readonly env?: Environment;
  /** The route table to deploy (default ROUTES; tests add routes to a copy). */
  readonly routes?: RouteTable;
}

export function stackName(stage: string, part: "Stateful" | "Stateless"): string {
  return `PartnerDirectory-${stage}-${part}`;
}

export function addStage(app: App, stage: string, options: StageOptions = {}): StageStacks {
  const { env: givenEnv, routes, ...overrides } = options;
  const config = stageConfig(stage, overrides);
  const env =
    givenEnv ??
    stageEnvironment(config, {
      cliAccount: process.env.CDK_DEFAULT_ACCOUNT || undefined,
      region: process.env.CDK_DEFAULT_REGION || undefined,
    });
  // Dev may take its region from the CLI: its certificate must be from there too.
  if (config.customDomains) resolveCustomDomains(config.customDomains, env.region);
  // Every synth of a stage (cdk synth/deploy, npm run synth, the tests) runs the checks: a finding
  // is fixed, or acknowledged next to its resource with a reason (docs/operations.md).
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const common = {
    env,
    terminationProtection: config.terminationProtection,
    tags: { service: "partner-directory", stage },
  };
  const stateful = new StatefulStack(app, stackName(stage, "Stateful"), {
    ...common,
    description: `Partner Directory ${stage}: DynamoDB tables, inbox bucket`,
    config,
  });
  const stateless = new StatelessStack(app, stackName(stage, "Stateless"), {
    ...common,
    description: `Partner Directory ${stage}: functions, APIs, usage plans, ingest, alarms`,
    config,
    tables: stateful.tables,
    inbox: stateful.inbox,
    alarmTopicArn: options.alarmTopicArn,
    ...(routes ? { routes } : {}),
  });
  return { config, stateful, stateless };
}

/** The feature flags and settings of cdk.json, for apps not started by the CDK CLI. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson: unknown = JSON.parse(readFileSync(repoPath("cdk.json"), "utf8"));
  if (typeof cdkJson !== "object" || cdkJson === null || !("context" in cdkJson)) return {};
  const { context } = cdkJson;
  return typeof context === "object" && context !== null ? { ...context } : {};
}

/** An App outside the CLI (npm run synth, tests) that behaves like `cdk synth`. */
export function createApp(outdir?: string): App {
  return new App({ outdir, context: cdkJsonContext() });
}
