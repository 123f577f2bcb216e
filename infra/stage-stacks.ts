/**
 * One stage of the service = a stateful stack (tables) and a stateless stack (functions, APIs,
 * on-call) that reads the tables through typed props. The CLI app, `npm run synth` and the tests
 * all build stages through here, with the feature flags of cdk.json.
 */
import { readFileSync } from "node:fs";
import { App, type Environment } from "aws-cdk-lib";
import { type StageConfig, stageConfig } from "./config.js";
import { repoPath } from "./paths.js";
import { StatefulStack } from "./stateful-stack.js";
import { StatelessStack } from "./stateless-stack.js";

export interface StageStacks {
  readonly config: StageConfig;
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;
}

export interface StageOptions {
  /** Send the alarms to this existing SNS topic instead of the stage's own (if any). */
  readonly alarmTopicArn?: string;
  /** Default: CDK_DEFAULT_ACCOUNT / CDK_DEFAULT_REGION when the CLI provides them, else agnostic. */
  readonly env?: Environment;
}

export function stackName(stage: string, part: "Stateful" | "Stateless"): string {
  return `PartnerDirectory-${stage}-${part}`;
}

export function addStage(app: App, stage: string, options: StageOptions = {}): StageStacks {
  const config = stageConfig(stage);
  // Without credentials (synth, tests) these are unset and the stacks stay environment-agnostic.
  const env = options.env ?? {
    account: process.env.CDK_DEFAULT_ACCOUNT,
    region: process.env.CDK_DEFAULT_REGION,
  };
  const common = {
    env,
    terminationProtection: config.terminationProtection,
    tags: { service: "partner-directory", stage },
  };
  const stateful = new StatefulStack(app, stackName(stage, "Stateful"), {
    ...common,
    description: `Partner Directory ${stage}: DynamoDB tables`,
    config,
  });
  const stateless = new StatelessStack(app, stackName(stage, "Stateless"), {
    ...common,
    description: `Partner Directory ${stage}: functions, APIs, usage plans, alarms`,
    config,
    tables: stateful.tables,
    alarmTopicArn: options.alarmTopicArn,
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
