/**
 * Alarms that page on real trouble (infra/constructs/on-call.ts, data-alarms.ts), the prod budget
 * (budget.ts) and the dashboard's ingest and WAF rows, on the release stages' templates.
 * The shared templates (synth.ts).
 */
import type { Template } from "aws-cdk-lib/assertions";
import { RELEASE_SETTINGS } from "./stage-settings.js";
import { synthesizeStage } from "./synth.js";
import { props, refersTo, resources } from "./template-helpers.js";

function template(stage: "sandbox" | "prod"): Template {
  return synthesizeStage(stage).statelessTemplate;
}

const prod = template("prod");
const alarms = (t: Template) =>
  new Map(resources(t, "AWS::CloudWatch::Alarm").map(([, a]) => [String(props(a).AlarmName), props(a)]));
const alarm = (name: string) => {
  const found = alarms(prod).get(`partner-directory-prod-${name}`);
  if (!found) throw new Error(`no alarm ${name}`);
  return found;
};

describe("count alarms", () => {
  it.each(["search-5xx-count", "greeting-5xx-count", "authorizer-errors"])(
    "%s needs at least 3 errors in 5 minutes",
    (name) => {
      expect(alarm(name)).toMatchObject({
        Period: 300,
        Statistic: "Sum",
        Threshold: 3,
        ComparisonOperator: "GreaterThanOrEqualToThreshold",
        EvaluationPeriods: 1,
        DatapointsToAlarm: 1,
      });
    },
  );

  it("function error alarms need 3 breaching minutes of 5", () => {
    expect(alarm("companies-hello-errors")).toMatchObject({
      Period: 60,
      EvaluationPeriods: 5,
      DatapointsToAlarm: 3,
    });
  });
});

describe("the ingest", () => {
  it("watches the dead letters' oldest age, and keeps its state when SQS stops reporting", () => {
    expect(alarm("ingest-dead-letters")).toMatchObject({
      Namespace: "AWS/SQS",
      MetricName: "ApproximateAgeOfOldestMessage",
      Statistic: "Maximum",
      TreatMissingData: "ignore",
    });
  });

  it.each([
    ["failed", "ExecutionsFailed"],
    ["aborted", "ExecutionsAborted"],
    ["timed-out", "ExecutionsTimedOut"],
  ])("alarms on the first %s execution", (how, metric) => {
    expect(alarm(`ingest-executions-${how}`)).toMatchObject({
      Namespace: "AWS/States",
      MetricName: metric,
      Threshold: 1,
      EvaluationPeriods: 1,
    });
  });
});

describe("DynamoDB", () => {
  it.each(["directory", "keys"])(
    "%s: write throttles of the table and its indexes, and system errors",
    (table) => {
      const writes = JSON.stringify(alarm(`${table}-table-write-throttles`).Metrics);
      expect(writes).toContain("WriteThrottleEvents");
      expect(writes).not.toContain("ReadThrottleEvents");
      const errors = JSON.stringify(alarm(`${table}-table-system-errors`).Metrics);
      expect(errors).toContain("SystemErrors");
      expect(errors).toContain("PutItem");
    },
  );
});

describe("WAF", () => {
  it("alarms on a spike of blocked requests of the stage's web ACL, every rule", () => {
    const spike = alarm("waf-blocked-spike");
    expect(spike).toMatchObject({ Namespace: "AWS/WAFV2", MetricName: "BlockedRequests", Period: 300 });
    expect(spike.Dimensions).toEqual(
      expect.arrayContaining([
        { Name: "WebACL", Value: "partner-directory-prod" },
        { Name: "Rule", Value: "ALL" },
      ]),
    );
    const [, acl] = resources(prod, "AWS::WAFv2::WebACL")[0] ?? [];
    expect(props(acl ?? { Type: "" }).Name).toBe("partner-directory-prod");
  });
});

describe("the greeting canary", () => {
  const [, canary] = resources(prod, "AWS::Synthetics::Canary")[0] ?? [];
  const canaryProps = () => props(canary ?? { Type: "" });

  it("calls the greeting at the custom domain every 5 minutes, with the key from Secrets Manager", () => {
    expect(canaryProps().Schedule).toMatchObject({ Expression: "rate(5 minutes)" });
    const { EnvironmentVariables: env } = canaryProps().RunConfig as {
      EnvironmentVariables: Record<string, string>;
    };
    expect(env.HELLO_BASE_URL).toBe(`https://${RELEASE_SETTINGS.prod.helloDomain}`);
    expect(env.CANARY_SECRET_ID).toBe("partner-directory/prod/canary-key");
    const script = String((canaryProps().Code as { Script: string }).Script);
    expect(script).toContain("/hello");
    expect(script).toContain("GetSecretValueCommand");
  });

  it("never holds a key in the template", () => {
    expect(JSON.stringify(prod.toJSON())).not.toMatch(/pd_(live|test)_[0-9A-Za-z]{8}/);
  });

  it("alarms when under 60 % of its runs succeed in 15 minutes, or when it stops reporting", () => {
    expect(alarm("canary-greeting")).toMatchObject({
      Namespace: "CloudWatchSynthetics",
      MetricName: "SuccessPercent",
      Period: 900,
      Threshold: 60,
      ComparisonOperator: "LessThanThreshold",
      TreatMissingData: "breaching",
    });
  });
});

describe("the dashboard", () => {
  it("shows the ingest and WAF", () => {
    const [, dashboard] = resources(prod, "AWS::CloudWatch::Dashboard")[0] ?? [];
    const body = JSON.stringify(props(dashboard ?? { Type: "" }).DashboardBody);
    for (const title of ["Ingest executions", "Ingest dead letters waiting", "WAF blocked requests"]) {
      expect(body).toContain(title);
    }
    expect(body).toContain("ExecutionsAborted");
    expect(body).toContain("BlockedRequests");
  });
});

describe("the budget", () => {
  it("prod has a monthly cost budget that tells the alarm topic and the alarm email", () => {
    const budgets = resources(prod, "AWS::Budgets::Budget").map(([, b]) => props(b));
    expect(budgets).toHaveLength(1);
    const [budget] = budgets;
    expect(budget?.Budget).toMatchObject({
      BudgetType: "COST",
      TimeUnit: "MONTHLY",
      BudgetLimit: { Unit: "USD" },
    });
    const notifications = budget?.NotificationsWithSubscribers as {
      Subscribers: { SubscriptionType: string; Address: unknown }[];
    }[];
    expect(notifications.length).toBeGreaterThan(0);
    const [topicId] = resources(prod, "AWS::SNS::Topic")[0] ?? [""];
    for (const { Subscribers } of notifications) {
      expect(Subscribers).toContainEqual({
        SubscriptionType: "EMAIL",
        Address: RELEASE_SETTINGS.prod.alarmEmail,
      });
      expect(Subscribers.some((s) => s.SubscriptionType === "SNS" && refersTo(s.Address, topicId))).toBe(
        true,
      );
    }
    const policy = JSON.stringify(resources(prod, "AWS::SNS::TopicPolicy").map(([, p]) => props(p)));
    expect(policy).toContain("budgets.amazonaws.com");
  });

  it("sandbox has none", () => {
    expect(resources(template("sandbox"), "AWS::Budgets::Budget")).toEqual([]);
  });
});
