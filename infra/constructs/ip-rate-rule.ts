/**
 * WAF's per-IP rate rule: one address sending more than the stage's limit over WAF's window is
 * blocked, before API Gateway, the authorizer or a function spends anything on it (a flood of
 * made-up keys that look well formed would otherwise invoke the authorizer every time). Usage
 * plans still limit each key; this limits each address, whatever key it sends.
 *
 * The block answers the contract's 429 itself (a custom response takes precedence over API
 * Gateway's gateway responses): `{"error":"rate_limited"}` as `application/json`, `Retry-After`
 * (the window) and the headers every answer carries. WAF cannot add a per-request value, so this
 * one answer has no `x-request-id` (docs/operations.md).
 */
import type { CfnWebACL } from "aws-cdk-lib/aws-wafv2";
import { ERROR_STATUS } from "../../lib/http/errors.js";
import type { IpRateLimit } from "../config.js";
import { fixedErrorHeaders } from "./gateway-responses.js";

const RATE_LIMITED_BODY_KEY = "rate-limited";

/** The web ACL's custom response bodies this rule refers to. */
export function ipRateResponseBodies(): Record<string, CfnWebACL.CustomResponseBodyProperty> {
  return {
    [RATE_LIMITED_BODY_KEY]: {
      contentType: "APPLICATION_JSON",
      content: JSON.stringify({ error: "rate_limited" }),
    },
  };
}

export function ipRateRule(
  limit: IpRateLimit,
  metricPrefix: string,
  priority: number,
): CfnWebACL.RuleProperty {
  // The gateway responses' fixed headers, unquoted: WAF takes literal values.
  const headers = Object.entries(fixedErrorHeaders("rate_limited")).map(([name, quoted]) => ({
    name,
    value: quoted.slice(1, -1),
  }));
  return {
    name: "rate-per-ip",
    priority,
    action: {
      block: {
        customResponse: {
          responseCode: ERROR_STATUS.rate_limited,
          customResponseBodyKey: RATE_LIMITED_BODY_KEY,
          responseHeaders: [...headers, { name: "retry-after", value: String(limit.windowSeconds) }],
        },
      },
    },
    statement: {
      rateBasedStatement: {
        limit: limit.requests,
        evaluationWindowSec: limit.windowSeconds,
        aggregateKeyType: "IP",
      },
    },
    visibilityConfig: {
      cloudWatchMetricsEnabled: true,
      metricName: `${metricPrefix}-rate-per-ip`,
      // Sampled requests would store request headers, Authorization included.
      sampledRequestsEnabled: false,
    },
  };
}
