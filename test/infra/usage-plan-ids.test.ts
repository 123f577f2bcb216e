/**
 * The usage plans' CloudFormation logical ids are pinned: which API key is in which plan lives
 * outside CloudFormation (the keys CLI adds it), so a renamed construct would replace the plans
 * and silently drop every partner key's association (`keys reconcile --fix` would then have to
 * re-add all of them). A rename must be deliberate: change these ids only with that migration.
 */
import type { Template } from "aws-cdk-lib/assertions";
import { DEPLOYED_STAGES, stageParameterNames, THROTTLE_TIER_NAMES } from "../../lib/stages.js";
import { synthesizeStage } from "./synth.js";

const PINNED_PLAN_IDS = {
  trial: "UsagePlanstrialB2B2EB4B",
  standard: "UsagePlansstandard47AB8D35",
  premium: "UsagePlanspremiumAB4E79A3",
};

describe.each(DEPLOYED_STAGES)("%s's usage plans", (stage) => {
  let template: Template;
  beforeAll(() => {
    // The bare stage, as the other files of test/infra synthesize it: shared with them.
    template = synthesizeStage(stage).statelessTemplate;
  });

  it("keep their logical ids in the synthesized template, one plan per tier", () => {
    const plans = template.findResources("AWS::ApiGateway::UsagePlan");
    const ids = Object.fromEntries(
      THROTTLE_TIER_NAMES.map((tier) => [
        tier,
        Object.entries(plans).find(
          ([, plan]) => plan.Properties.UsagePlanName === `partner-directory-${stage}-${tier}`,
        )?.[0],
      ]),
    );
    expect(ids).toEqual(PINNED_PLAN_IDS);
    expect(Object.keys(plans)).toHaveLength(THROTTLE_TIER_NAMES.length);
  });

  it("publish each plan's id under the parameter the keys CLI reads", () => {
    for (const tier of THROTTLE_TIER_NAMES)
      template.hasResourceProperties("AWS::SSM::Parameter", {
        Name: stageParameterNames.usagePlan(stage, tier),
        Value: { Ref: PINNED_PLAN_IDS[tier] },
      });
  });
});
