/**
 * The stage's web ACL, on both API stages: the per-IP rate rule (429, ip-rate-rule.ts) first, so
 * a flood is cut before anything else is evaluated, then the body-size rule (400,
 * body-size-guard.ts). Everything else is allowed.
 */
import type { Stage } from "aws-cdk-lib/aws-apigateway";
import { CfnWebACL, CfnWebACLAssociation } from "aws-cdk-lib/aws-wafv2";
import { Construct } from "constructs";
import type { StageConfig } from "../config.js";
import { bodySizeRule } from "./body-size-guard.js";
import { ipRateResponseBodies, ipRateRule } from "./ip-rate-rule.js";

export interface RequestFirewallProps {
  readonly config: StageConfig;
  /** The API stages to protect. */
  readonly apiStages: readonly Stage[];
}

export class RequestFirewall extends Construct {
  readonly webAcl: CfnWebACL;
  readonly associations: CfnWebACLAssociation[];

  constructor(scope: Construct, id: string, props: RequestFirewallProps) {
    super(scope, id);
    const { config } = props;
    const metricPrefix = `partner-directory-${config.stage}`;
    const rules = [ipRateRule(config.ipRateLimit, metricPrefix, 0)];
    if (config.bodySizeGuard) rules.push(bodySizeRule(metricPrefix, 1));
    this.webAcl = new CfnWebACL(this, "WebAcl", {
      scope: "REGIONAL",
      // CloudFormation allows only a few punctuation characters here.
      description: "Per-IP rate limit, and request bodies over 1 MiB by Content-Length, before any Lambda",
      defaultAction: { allow: {} },
      customResponseBodies: ipRateResponseBodies(),
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: `${metricPrefix}-web-acl`,
        sampledRequestsEnabled: false,
      },
      rules,
    });
    this.associations = props.apiStages.map((apiStage, index) => {
      const association = new CfnWebACLAssociation(this, `Association${index}`, {
        resourceArn: apiStage.stageArn,
        webAclArn: this.webAcl.attrArn,
      });
      // The ARN is built from names, so CloudFormation would not otherwise wait for the stage.
      association.node.addDependency(apiStage);
      return association;
    });
  }
}
