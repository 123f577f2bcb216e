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
import { type CustomDomains, resolveCustomDomains, type StageConfig, stageConfig } from "./config.js";
import { repoPath } from "./paths.js";
import { stageEnvironment } from "./stage-environment.js";
import { StatefulStack } from "./stateful-stack.js";
import { StatelessStack } from "./stateless-stack.js";

export interface StageStacks {
  readonly config: StageConfig;
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;
}

export interface StageOptions extends Partial<CustomDomains> {
  /** Send the alarms to this existing SNS topic instead of the stage's own (if any). */
  readonly alarmTopicArn?: string;
  /** Subscribe this address to the alarm topic (`-c alarmEmail=…`; overrides the stage config). */
  readonly alarmEmail?: string;
  /** The account the caller means (`-c account=…`); must be the stage's pinned account. */
  readonly account?: string;
  /**
   * Default: the stage's pinned account, checked against CDK_DEFAULT_ACCOUNT and `account`
   * (infra/stage-environment.ts), and CDK_DEFAULT_REGION. Tests pass `{}`: environment-agnostic.
   */
  readonly env?: Environment;
  /** The route table to deploy (default ROUTES; tests add routes to a copy). */
  readonly routes?: RouteTable;
}

/** Loose on purpose (SNS checks the address); catches a missing value or a pasted ARN. */
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function stackName(stage: string, part: "Stateful" | "Stateless"): string {
  return `PartnerDirectory-${stage}-${part}`;
}

export function addStage(app: App, stage: string, options: StageOptions = {}): StageStacks {
  const base = stageConfig(stage);
  const alarmEmail = options.alarmEmail ?? base.alarmEmail;
  if (alarmEmail !== undefined && !EMAIL.test(alarmEmail)) {
    throw new Error(`alarmEmail "${alarmEmail}" is not an email address`);
  }
  const customDomains = resolveCustomDomains(
    {
      searchDomain: options.searchDomain,
      helloDomain: options.helloDomain,
      certificateArn: options.certificateArn,
    },
    base.customDomains,
  );
  const config: StageConfig = { ...base, alarmEmail, customDomains };
  const env =
    options.env ??
    stageEnvironment(config, {
      contextAccount: options.account,
      cliAccount: process.env.CDK_DEFAULT_ACCOUNT || undefined,
      region: process.env.CDK_DEFAULT_REGION || undefined,
    });
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
    ...(options.routes ? { routes: options.routes } : {}),
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
