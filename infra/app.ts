/**
 * The CDK app of cdk.json: one stage per run, chosen with `-c stage=dev|sandbox|prod` (default
 * dev). `-c alarmTopicArn=arn:…` sends the alarms to an existing SNS topic, `-c alarmEmail=…`
 * subscribes an address to them, `-c account=…` names the account meant (it must be the
 * stage's pinned account; see infra/stage-environment.ts), and `-c searchDomain=… -c helloDomain=…
 * -c certificateArn=…` (all three or none) give the APIs their custom domains.
 */
import { App } from "aws-cdk-lib";
import { addStage } from "./stage-stacks.js";

const app = new App();
const stage = contextString(app, "stage") ?? "dev";
addStage(app, stage, {
  alarmTopicArn: contextString(app, "alarmTopicArn"),
  alarmEmail: contextString(app, "alarmEmail"),
  account: contextString(app, "account"),
  searchDomain: contextString(app, "searchDomain"),
  helloDomain: contextString(app, "helloDomain"),
  certificateArn: contextString(app, "certificateArn"),
});
app.synth();

function contextString(scope: App, key: string): string | undefined {
  const value: unknown = scope.node.tryGetContext(key);
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string") throw new Error(`context ${key} must be a string`);
  return value;
}
