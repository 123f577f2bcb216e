/**
 * The stage's web ACL, on both API stages: the per-IP rate rule (429, ip-rate-rule.ts) first, so
 * a flood is cut before anything else is evaluated, then AWS's IP reputation and known-bad-input
 * groups (403, managed-rules.ts), then the body-size rule (400, body-size-guard.ts). Everything
 * else is allowed. WAF logs every request to `aws-waf-logs-partner-directory-<stage>`, with the
 * `authorization` header redacted.
 */
import { ArnFormat, Stack } from "aws-cdk-lib";
import type { Stage } from "aws-cdk-lib/aws-apigateway";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from "aws-cdk-lib/aws-wafv2";
import { Construct } from "constructs";
import type { StageConfig } from "../config.js";
import { bodySizeRule } from "./body-size-guard.js";
import { ipRateResponseBodies, ipRateRule } from "./ip-rate-rule.js";
import { forbiddenResponseBody, MANAGED_GROUPS, managedRules } from "./managed-rules.js";

export interface RequestFirewallProps {
  readonly config: StageConfig;
  /** The API stages to protect. */
  readonly apiStages: readonly Stage[];
}

export class RequestFirewall extends Construct {
  readonly webAcl: CfnWebACL;
  readonly associations: CfnWebACLAssociation[];
  /** WAF's log group: its name must start with `aws-waf-logs-`. */
  readonly logs: LogGroup;
  /** `partner-directory-<stage>`: WAF's metrics name the web ACL by it. */
  readonly webAclName: string;

  constructor(scope: Construct, id: string, props: RequestFirewallProps) {
    super(scope, id);
    const { config } = props;
    const metricPrefix = `partner-directory-${config.stage}`;
    this.webAclName = metricPrefix;
    const rules = [ipRateRule(config.ipRateLimit, metricPrefix, 0), ...managedRules(metricPrefix, 1)];
    if (config.bodySizeGuard) rules.push(bodySizeRule(metricPrefix, 1 + MANAGED_GROUPS.length));
    this.webAcl = new CfnWebACL(this, "WebAcl", {
      name: this.webAclName,
      scope: "REGIONAL",
      // CloudFormation allows only a few punctuation characters here.
      description:
        "Per-IP rate limit, AWS IP reputation and known bad inputs, and request bodies over 1 MiB by Content-Length, before any Lambda",
      defaultAction: { allow: {} },
      customResponseBodies: { ...ipRateResponseBodies(), ...forbiddenResponseBody() },
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: `${metricPrefix}-web-acl`,
        sampledRequestsEnabled: false,
      },
      rules,
    });
    // The template says why each managed rule that is only counted is not blocking.
    this.webAcl.addMetadata(
      "CountedManagedRules",
      Object.fromEntries(MANAGED_GROUPS.flatMap((group) => Object.entries(group.counted))),
    );
    this.associations = props.apiStages.map((apiStage, index) => {
      const association = new CfnWebACLAssociation(this, `Association${index}`, {
        resourceArn: apiStage.stageArn,
        webAclArn: this.webAcl.attrArn,
      });
      // The ARN is built from names, so CloudFormation would not otherwise wait for the stage.
      association.node.addDependency(apiStage);
      return association;
    });
    this.logs = this.addLogging(config);
  }

  private addLogging(config: StageConfig): LogGroup {
    const logGroupName = `aws-waf-logs-partner-directory-${config.stage}`;
    const logs = new LogGroup(this, "Logs", {
      logGroupName,
      retention: config.logRetention,
      removalPolicy: config.logRemovalPolicy,
    });
    new CfnLoggingConfiguration(this, "Logging", {
      resourceArn: this.webAcl.attrArn,
      // WAF takes the log group's ARN without the `:*` CloudFormation's Arn attribute ends in.
      logDestinationConfigs: [
        Stack.of(this).formatArn({
          service: "logs",
          resource: "log-group",
          resourceName: logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      // The partner's API key: never in a log.
      redactedFields: [{ singleHeader: { Name: "authorization" } }],
    }).node.addDependency(logs);
    return logs;
  }
}
