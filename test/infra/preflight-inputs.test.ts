/**
 * What `npm run preflight` checks a stage against comes from the stage it would deploy: the
 * reserved concurrency it counts is the template's. The shared templates (synth.ts).
 */
import { preflightInputs } from "../../infra/preflight-inputs.js";
import { DEPLOYED_STAGES } from "../../lib/stages.js";
import { settingsFor } from "./stage-settings.js";
import { synthesizeStage } from "./synth.js";
import { props, resources } from "./template-helpers.js";

it.each(DEPLOYED_STAGES)("%s: the reserved concurrency the preflight counts is the template's", (stage) => {
  const { stateless, statelessTemplate } = synthesizeStage(stage);
  const reserved = resources(statelessTemplate, "AWS::Lambda::Function")
    .map(([, fn]) => props(fn).ReservedConcurrentExecutions)
    .filter((value): value is number => typeof value === "number");
  const inputs = preflightInputs(stage, settingsFor(stage));
  expect(inputs.reservedConcurrency).toBe(reserved.reduce((sum, value) => sum + value, 0));
  expect(inputs.statelessStackName).toBe(stateless.stackName);
  expect(inputs.customDomains?.certificateArn).toBe(settingsFor(stage).certificateArn);
});
