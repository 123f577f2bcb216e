/**
 * The web ACL's AWS managed rule groups and WAF logging (infra/constructs/request-firewall.ts,
 * managed-rules.ts), on prod's shared template (synth.ts).
 */
import { MANAGED_GROUPS } from "../../infra/constructs/managed-rules.js";
import { synthesizeStage } from "./synth.js";
import { props, refersTo, resources } from "./template-helpers.js";

const template = synthesizeStage("prod").statelessTemplate;

interface Override {
  Name: string;
  ActionToUse: {
    Count?: object;
    Block?: { CustomResponse?: { ResponseCode: number; CustomResponseBodyKey: string } };
  };
}
interface Rule {
  Name: string;
  Action?: { Block?: object };
  OverrideAction?: object;
  Statement: {
    ManagedRuleGroupStatement?: { VendorName: string; Name: string; RuleActionOverrides: Override[] };
  };
  VisibilityConfig: { SampledRequestsEnabled: boolean };
}

const acl = () => props(resources(template, "AWS::WAFv2::WebACL")[0]?.[1] ?? { Type: "" });
const rules = () => acl().Rules as Rule[];

describe("managed rule groups", () => {
  it.each(["AWSManagedRulesAmazonIpReputationList", "AWSManagedRulesKnownBadInputsRuleSet"])(
    "%s is in the web ACL, and every rule it blocks with answers 403 forbidden as JSON",
    (name) => {
      const rule = rules().find((r) => r.Name === name);
      const group = rule?.Statement.ManagedRuleGroupStatement;
      expect(group).toMatchObject({ VendorName: "AWS", Name: name });
      expect(rule?.OverrideAction).toEqual({ None: {} });
      expect(rule?.VisibilityConfig.SampledRequestsEnabled).toBe(false);
      const blocking = (group?.RuleActionOverrides ?? []).filter((o) => o.ActionToUse.Block);
      expect(blocking.length).toBeGreaterThan(0);
      const bodies = acl().CustomResponseBodies as Record<string, { Content: string }>;
      for (const override of blocking) {
        const response = override.ActionToUse.Block?.CustomResponse;
        expect(response?.ResponseCode).toBe(403);
        expect(JSON.parse(bodies[response?.CustomResponseBodyKey ?? ""]?.Content ?? "null")).toEqual({
          error: "forbidden",
        });
      }
    },
  );

  it("only counts the rules that inspect bodies, so a valid 1 MiB search body is never blocked by them", () => {
    const known = rules().find((r) => r.Name === "AWSManagedRulesKnownBadInputsRuleSet");
    const overrides = known?.Statement.ManagedRuleGroupStatement?.RuleActionOverrides ?? [];
    const counted = overrides.filter((o) => o.ActionToUse.Count).map((o) => o.Name);
    expect(counted.sort()).toEqual(["JavaDeserializationRCE_BODY", "Log4JRCE_BODY"]);
    expect(overrides.filter((o) => o.Name.endsWith("_BODY") && !o.ActionToUse.Count)).toEqual([]);
    const [, webAcl] = resources(template, "AWS::WAFv2::WebACL")[0] ?? [];
    const reasons = (webAcl as { Metadata?: { CountedManagedRules?: Record<string, string> } }).Metadata
      ?.CountedManagedRules;
    expect(Object.keys(reasons ?? {}).sort()).toEqual(counted);
    for (const reason of Object.values(reasons ?? {}))
      expect(reason).toMatch(/valid search body of up to 1 MiB/);
    expect(MANAGED_GROUPS.map((group) => group.name)).toEqual([
      "AWSManagedRulesAmazonIpReputationList",
      "AWSManagedRulesKnownBadInputsRuleSet",
    ]);
  });

  it("leaves the body-size rule the only plain block (its WAF_FILTERED answer says body over 1 MiB)", () => {
    const plain = rules().filter((r) => r.Action?.Block && JSON.stringify(r.Action.Block) === "{}");
    expect(plain.map((r) => r.Name)).toEqual(["body-over-1MiB"]);
  });
});

describe("WAF logging", () => {
  it("logs to an aws-waf-logs- group with the authorization header redacted", () => {
    const [config] = resources(template, "AWS::WAFv2::LoggingConfiguration").map(([, c]) => props(c));
    expect(config?.RedactedFields).toEqual([{ SingleHeader: { Name: "authorization" } }]);
    const [aclId] = resources(template, "AWS::WAFv2::WebACL")[0] ?? [""];
    expect(refersTo(config?.ResourceArn, aclId)).toBe(true);
    const destination = JSON.stringify(config?.LogDestinationConfigs);
    expect(destination).toContain(":log-group:aws-waf-logs-partner-directory-prod");
    expect(destination).not.toContain(":*");
    const groups = resources(template, "AWS::Logs::LogGroup").map(([, g]) => props(g));
    expect(groups.filter((g) => g.LogGroupName === "aws-waf-logs-partner-directory-prod")).toHaveLength(1);
  });
});
