/**
 * One usage plan per throttle tier, each on both APIs' stages: a key's token bucket (and daily
 * quota) is its plan's, whichever host it calls. The plan ids are published in SSM under stable
 * names so the keys CLI can put a new key in its tier's plan without CloudFormation lookups.
 */
import { Period, type RestApi, UsagePlan } from "aws-cdk-lib/aws-apigateway";
import { StringParameter } from "aws-cdk-lib/aws-ssm";
import { Construct } from "constructs";
import type { ThrottleTier } from "../../lib/stages.js";
import { type StageConfig, ssmParameterNames } from "../config.js";

export interface UsagePlansProps {
  readonly config: StageConfig;
  readonly apis: readonly RestApi[];
}

export class UsagePlans extends Construct {
  readonly plans = new Map<ThrottleTier, UsagePlan>();

  constructor(scope: Construct, id: string, props: UsagePlansProps) {
    super(scope, id);
    const { config } = props;
    for (const [tier, throttle] of Object.entries(config.throttleTiers) as [
      ThrottleTier,
      (typeof config.throttleTiers)[ThrottleTier],
    ][]) {
      const plan = new UsagePlan(this, tier, {
        name: `partner-directory-${config.stage}-${tier}`,
        description: `Throttle tier "${tier}" of the Partner Directory (${config.stage})`,
        throttle: { rateLimit: throttle.rateLimit, burstLimit: throttle.burstLimit },
        quota:
          throttle.dailyQuota === undefined ? undefined : { limit: throttle.dailyQuota, period: Period.DAY },
        apiStages: props.apis.map((api) => ({ api, stage: api.deploymentStage })),
      });
      this.plans.set(tier, plan);
      new StringParameter(this, `${tier}Id`, {
        parameterName: ssmParameterNames.usagePlan(config.stage, tier),
        stringValue: plan.usagePlanId,
        description: `Usage plan id of throttle tier "${tier}" (read by the keys CLI)`,
      });
    }
  }
}
