/**
 * The stage's monthly cost budget (AWS Budgets), where its config sets one (prod). Each stage has
 * an account of its own, so the account's whole cost is the stage's: no cost filter. On-call hears
 * of it at 80 % actually spent and at 100 % forecast, on the alarm topic and by email.
 */
import { CfnBudget } from "aws-cdk-lib/aws-budgets";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import type { Construct } from "constructs";
import type { StageConfig } from "../config.js";

export function addBudget(
  scope: Construct,
  config: StageConfig,
  topic: ITopic | undefined,
): CfnBudget | undefined {
  const amount = config.monthlyBudgetUsd;
  if (amount === undefined) return undefined;
  const subscribers: CfnBudget.SubscriberProperty[] = [
    ...(topic ? [{ subscriptionType: "SNS", address: topic.topicArn }] : []),
    ...(config.alarmEmail ? [{ subscriptionType: "EMAIL", address: config.alarmEmail }] : []),
  ];
  if (subscribers.length === 0) throw new Error(`stage ${config.stage} has a budget but nobody to tell`);
  const notification = (notificationType: "ACTUAL" | "FORECASTED", threshold: number) => ({
    notification: {
      notificationType,
      comparisonOperator: "GREATER_THAN",
      threshold,
      thresholdType: "PERCENTAGE",
    },
    subscribers,
  });
  return new CfnBudget(scope, "Budget", {
    budget: {
      budgetName: `partner-directory-${config.stage}`,
      budgetType: "COST",
      timeUnit: "MONTHLY",
      budgetLimit: { amount, unit: "USD" },
    },
    notificationsWithSubscribers: [notification("ACTUAL", 80), notification("FORECASTED", 100)],
  });
}
