/**
 * What `npm run preflight` checks a stage against comes from the stage it would deploy: the
 * reserved concurrency it counts is the template's. Templates only: no bundling.
 */
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { preflightInputs } from "../../infra/preflight-inputs.js";
import { addStage, cdkJsonContext } from "../../infra/stage-stacks.js";
import { DEPLOYED_STAGES } from "../../lib/stages.js";
import { settingsFor } from "./stage-settings.js";
import { props, resources } from "./template-helpers.js";

it.each(DEPLOYED_STAGES)("%s: the reserved concurrency the preflight counts is the template's", (stage) => {
  const app = new App({ context: { ...cdkJsonContext(), "aws:cdk:bundling-stacks": [] } });
  const { stateless } = addStage(app, stage, { ...settingsFor(stage), env: {} });
  const reserved = resources(Template.fromStack(stateless), "AWS::Lambda::Function")
    .map(([, fn]) => props(fn).ReservedConcurrentExecutions)
    .filter((value): value is number => typeof value === "number");
  const inputs = preflightInputs(stage, settingsFor(stage));
  expect(inputs.reservedConcurrency).toBe(reserved.reduce((sum, value) => sum + value, 0));
  expect(inputs.statelessStackName).toBe(stateless.stackName);
  expect(inputs.customDomains?.certificateArn).toBe(settingsFor(stage).certificateArn);
});
