/**
 * Bodies over 1 MiB must get 400 `invalid_input`. The functions refuse them themselves, but a
 * Lambda cannot even be invoked with more than 6 MB, and API Gateway then answers a 5xx. This WAF
 * rule (in the stage's web ACL, request-firewall.ts) blocks any request whose Content-Length is
 * over 1 MiB before the integration; API Gateway turns the block into the WAF_FILTERED gateway
 * response (400 `invalid_input`, `x-request-id`). WAF sees only the first kilobytes of a body,
 * so the declared length is what can be checked.
 */
import type { CfnWebACL } from "aws-cdk-lib/aws-wafv2";
import { MAX_BODY_BYTES } from "../../lib/http/middleware/body-limit.js";

// The functions' own limit, re-exported so the tests check the rule against the one value.
export { MAX_BODY_BYTES };

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

/**
 * The web ACL rule: a plain block, no custom response, so API Gateway answers with the
 * WAF_FILTERED gateway response (400 `invalid_input`, with `x-request-id`). No other rule of the
 * web ACL may plainly block, or its requests would get this answer too.
 */
export function bodySizeRule(metricPrefix: string, priority: number): CfnWebACL.RuleProperty {
  return {
    name: "body-over-1MiB",
    priority,
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
  };
}
