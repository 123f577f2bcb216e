/**
 * Bodies over 1 MiB must get 400 `invalid_input`. The functions refuse them themselves, but a
 * Lambda cannot even be invoked with more than 6 MB, and API Gateway then answers a 5xx. This web
 * ACL blocks any request whose Content-Length is over 1 MiB before the integration; API Gateway
 * turns the block into the WAF_FILTERED gateway response (400 `invalid_input`, `x-request-id`).
 * WAF sees only the first kilobytes of a body, so the declared length is what can be checked.
 */
import type { Stage } from "aws-cdk-lib/aws-apigateway";
import { CfnWebACL, CfnWebACLAssociation } from "aws-cdk-lib/aws-wafv2";
import { Construct } from "constructs";

export const MAX_BODY_BYTES = 1_048_576;

/** A regex for decimal integers (leading zeros allowed) whose value is greater than `limit`. */
export function decimalGreaterThan(limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`not a non-negative integer: ${limit}`);
  const digits = String(limit);
  // More significant digits than the limit: always larger.
  const alternatives = [`[1-9]\\d{${digits.length},}`];
  // Same length: equal up to position i, then a larger digit, then anything.
  for (let i = 0; i < digits.length; i++) {
    const digit = Number(digits[i]);
    if (digit === 9) continue;
    const larger = digit + 1 === 9 ? "9" : `[${digit + 1}-9]`;
    const rest = digits.length - i - 1;
    alternatives.push(`${digits.slice(0, i)}${larger}${rest > 0 ? `\\d{${rest}}` : ""}`);
  }
  return `^0*(?:${alternatives.join("|")})$`;
}

export interface BodySizeGuardProps {
  readonly stage: string;
  /** The API stages to protect. */
  readonly apiStages: readonly Stage[];
}

export class BodySizeGuard extends Construct {
  readonly webAcl: CfnWebACL;
  readonly associations: CfnWebACLAssociation[];

  constructor(scope: Construct, id: string, props: BodySizeGuardProps) {
    super(scope, id);
    const metricPrefix = `partner-directory-${props.stage}`;
    this.webAcl = new CfnWebACL(this, "WebAcl", {
      scope: "REGIONAL",
      // CloudFormation allows only a few punctuation characters here.
      description: "Refuses request bodies over 1 MiB by Content-Length before they reach a Lambda",
      defaultAction: { allow: {} },
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: `${metricPrefix}-web-acl`,
        sampledRequestsEnabled: false,
      },
      rules: [
        {
          name: "body-over-1MiB",
          priority: 0,
          // Plain block, no custom response: the gateway response then adds x-request-id.
          action: { block: {} },
          statement: {
            regexMatchStatement: {
              regexString: decimalGreaterThan(MAX_BODY_BYTES),
              fieldToMatch: { singleHeader: { Name: "content-length" } },
              textTransformations: [{ priority: 0, type: "NONE" }],
            },
          },
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: `${metricPrefix}-body-over-1MiB`,
            // Sampled requests would store request headers, Authorization included.
            sampledRequestsEnabled: false,
          },
        },
      ],
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
