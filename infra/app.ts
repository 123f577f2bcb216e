/**
 * The CDK app of cdk.json: one stage per run, chosen with `-c stage=dev|sandbox|prod` (default
 * dev). Each field of the stage's STAGE_SETTINGS (infra/config.ts) can be overridden with `-c`:
 * `account`, `region`, `alarmEmail`, `searchDomain`, `helloDomain`, `certificateArn` (the last
 * three all or none), `hostedZoneId`; `-c alarmTopicArn=arn:…` sends the alarms to an existing
 * SNS topic. A refusal of the settings is one line on stderr and exit 1, never a stack trace.
 */
import { App } from "aws-cdk-lib";
import { SettingsError } from "./deployment-settings.js";
import { addStage } from "./stage-stacks.js";

const app = new App();
try {
  const stage = contextString(app, "stage") ?? "dev";
  addStage(app, stage, {
    alarmTopicArn: contextString(app, "alarmTopicArn"),
    account: contextString(app, "account"),
    region: contextString(app, "region"),
    alarmEmail: contextString(app, "alarmEmail"),
    searchDomain: contextString(app, "searchDomain"),
    helloDomain: contextString(app, "helloDomain"),
    certificateArn: contextString(app, "certificateArn"),
    hostedZoneId: contextString(app, "hostedZoneId"),
  });
  app.synth();
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(`refused: ${error.message}`);
  process.exitCode = 1;
}

function contextString(scope: App, key: string): string | undefined {
  const value: unknown = scope.node.tryGetContext(key);
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string") throw new SettingsError(`-c ${key} must be a string`);
  return value;
}
