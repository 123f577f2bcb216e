/**
 * AWS managed rule groups in the stage's web ACL (request-firewall.ts): addresses on Amazon's IP
 * reputation lists, and requests carrying known exploit patterns (Log4j lookups, Java
 * deserialization, localhost Host headers, exploitable paths). A plain block would come back as
 * the WAF_FILTERED gateway response, which says "body over 1 MiB" (body-size-guard.ts), so each
 * blocking rule answers the contract's 403 `{"error":"forbidden"}` itself.
 */
import type { CfnWebACL } from "aws-cdk-lib/aws-wafv2";
import { ERROR_STATUS } from "../../lib/http/errors.js";
import { fixedErrorHeaders } from "./gateway-responses.js";

const FORBIDDEN_BODY_KEY = "forbidden";

interface ManagedGroup {
  readonly name: string;
  /** The group's rules that block by default: each gets the 403 answer. */
  readonly blocking: readonly string[];
  /** Rules only counted here, and why. */
  readonly counted: Readonly<Record<string, string>>;
}

/**
 * Search bodies are JSON of up to 1 MiB (names, ids, free text), and WAF sees only the first
 * 16 KB of a body on API Gateway. The two body rules would judge a valid body by text that merely
 * looks like an exploit, and their handling of the uninspected rest is the group's, not ours;
 * the functions parse bodies as JSON with Zod: nothing deserializes Java or logs through Log4j.
 */
const BODY_RULE_REASON =
  "counted, not blocked: a valid search body of up to 1 MiB may be refused for text that looks like the pattern or for its size";

export const MANAGED_GROUPS: readonly ManagedGroup[] = [
  {
    name: "AWSManagedRulesAmazonIpReputationList",
    // AWSManagedIPDDoSList only counts by default; it stays so.
    blocking: ["AWSManagedIPReputationList", "AWSManagedReconnaissanceList"],
    counted: {},
  },
  {
    name: "AWSManagedRulesKnownBadInputsRuleSet",
    blocking: [
      "JavaDeserializationRCE_HEADER",
      "JavaDeserializationRCE_URIPATH",
      "JavaDeserializationRCE_QUERYSTRING",
      "Host_localhost_HEADER",
      "PROPFIND_METHOD",
      "ExploitablePaths_URIPATH",
      "Log4JRCE_HEADER",
      "Log4JRCE_QUERYSTRING",
      "Log4JRCE_URIPATH",
    ],
    counted: { JavaDeserializationRCE_BODY: BODY_RULE_REASON, Log4JRCE_BODY: BODY_RULE_REASON },
  },
];

/** The web ACL's custom response body these rules refer to. */
export function forbiddenResponseBody(): Record<string, CfnWebACL.CustomResponseBodyProperty> {
  return {
    [FORBIDDEN_BODY_KEY]: {
      contentType: "APPLICATION_JSON",
      content: JSON.stringify({ error: "forbidden" }),
    },
  };
}

export function managedRules(metricPrefix: string, firstPriority: number): CfnWebACL.RuleProperty[] {
  const headers = Object.entries(fixedErrorHeaders("forbidden")).map(([name, quoted]) => ({
    name,
    value: quoted.slice(1, -1),
  }));
  const forbidden = {
    block: {
      customResponse: {
        responseCode: ERROR_STATUS.forbidden,
        customResponseBodyKey: FORBIDDEN_BODY_KEY,
        responseHeaders: headers,
      },
    },
  };
  return MANAGED_GROUPS.map((group, index) => ({
    name: group.name,
    priority: firstPriority + index,
    overrideAction: { none: {} },
    statement: {
      managedRuleGroupStatement: {
        vendorName: "AWS",
        name: group.name,
        ruleActionOverrides: [
          ...group.blocking.map((name) => ({ name, actionToUse: forbidden })),
          ...Object.keys(group.counted).map((name) => ({ name, actionToUse: { count: {} } })),
        ],
      },
    },
    visibilityConfig: {
      cloudWatchMetricsEnabled: true,
      metricName: `${metricPrefix}-${group.name}`,
      // Sampled requests would store request headers, Authorization included.
      sampledRequestsEnabled: false,
    },
  }));
}
