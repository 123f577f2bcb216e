/**
 * What on-call looks at: the alarms (optionally sent to an SNS topic) and the dashboard.
 * docs/runbook.md says what each alarm means and how to find the requests behind it.
 */
import { Duration } from "aws-cdk-lib";
import {
  Alarm,
  ComparisonOperator,
  type Dashboard,
  type IMetric,
  TreatMissingData,
} from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { Construct } from "constructs";
import { AUTHORIZER } from "../../lib/routes.js";
import { addDashboard } from "./dashboard.js";
import { ingestAlarms, tableAlarms, wafAlarm } from "./data-alarms.js";
import type { AlarmMaker, AlarmOptions, OnCallProps } from "./on-call-props.js";
import {
  ApiMetrics,
  addAuthorizerFailuresMetricFilter,
  addRateLimitedMetricFilter,
  authorizerFailures,
} from "./service-metrics.js";

/** Every alarm of a stage is named `<prefix><alarm id>` (the alarm topic's policy relies on it). */
export function alarmNamePrefix(stage: string): string {
  return `partner-directory-${stage}-`;
}

/** An API's alarms: its 5xx rate and count, and its p99 latency. */
function apiAlarms(
  { id: apiId, api }: OnCallProps["apis"][number],
  limits: OnCallProps["config"]["alarms"],
  alarm: AlarmMaker,
) {
  const metrics = new ApiMetrics(api, apiId, Duration.minutes(limits.periodMinutes));
  const rate = metrics.serverErrorRate(limits.minRequestsForErrorRate);
  alarm(
    `${apiId}-5xx-rate`,
    rate,
    limits.serverErrorRatePercent,
    `5xx are ${limits.serverErrorRatePercent}%+ of ${apiId} API requests`,
  );
  // The rate alarm ignores quiet periods; this one sees an outage however little traffic there is.
  const countMetrics = new ApiMetrics(api, apiId, Duration.minutes(limits.countWindowMinutes));
  alarm(
    `${apiId}-5xx-count`,
    countMetrics.stage("5XXError", "Sum"),
    limits.serverErrors,
    `${limits.serverErrors}+ 5xx answers of the ${apiId} API in ${limits.countWindowMinutes} minutes`,
    { evaluation: "any" },
  );
  alarm(
    `${apiId}-p99-latency`,
    metrics.stage("Latency", "p99"),
    limits.p99LatencyMs,
    `${apiId} API p99 latency is ${limits.p99LatencyMs} ms+`,
  );
}

export class OnCall extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OnCallProps) {
    super(scope, id);
    const { config } = props;
    const limits = config.alarms;
    const period = Duration.minutes(limits.periodMinutes);
    const alarm: AlarmMaker = (alarmId, metric, threshold, what, options = {}) =>
      this.addAlarm(
        alarmId,
        `${alarmNamePrefix(config.stage)}${alarmId}`,
        metric,
        threshold,
        what,
        options,
        props,
      );

    for (const api of props.apis) {
      addRateLimitedMetricFilter(this, `${api.id}RateLimited`, api.api);
      addAuthorizerFailuresMetricFilter(this, `${api.id}AuthorizerFailures`, api.api);
      apiAlarms(api, limits, alarm);
    }
    for (const { id: fnId, fn, alarmOnErrors } of props.functions) {
      if (alarmOnErrors)
        alarm(
          `${fnId}-errors`,
          fn.metricErrors({ period }),
          limits.lambdaErrors,
          `${fnId} function errors (crashes, timeouts)`,
        );
      alarm(
        `${fnId}-throttles`,
        fn.metricThrottles({ period }),
        limits.lambdaThrottles,
        `${fnId} function throttled`,
      );
    }
    alarm(
      `${AUTHORIZER.id}-errors`,
      authorizerFailures(Duration.minutes(limits.countWindowMinutes)),
      limits.authorizerFailures,
      `the authorizer failed ${limits.authorizerFailures}+ times in ${limits.countWindowMinutes} minutes (crash, timeout, throttle or DynamoDB error), not a refused key`,
      { evaluation: "any" },
    );
    tableAlarms(props.tables, limits, period, alarm);
    ingestAlarms(props.ingest, limits, period, alarm);
    wafAlarm(props.webAclName, limits, alarm);
    // A canary that stops running (or never could) is as bad as one that fails: missing data breaches.
    alarm(
      "canary-greeting",
      props.canary.metricSuccessPercent({
        period: Duration.minutes(limits.canaryWindowMinutes),
        statistic: "Average",
      }),
      limits.canarySuccessPercent,
      `the greeting canary succeeded in under ${limits.canarySuccessPercent}% of its runs over ${limits.canaryWindowMinutes} minutes (domain, DNS, TLS, WAF, authorizer or function)`,
      { evaluation: "any", missingData: TreatMissingData.BREACHING, below: true },
    );
    this.dashboard = addDashboard(this, props, this.alarms);
  }

  private addAlarm(
    id: string,
    alarmName: string,
    metric: IMetric,
    threshold: number,
    what: string,
    { evaluation = "sustained", missingData = TreatMissingData.NOT_BREACHING, below = false }: AlarmOptions,
    props: OnCallProps,
  ): void {
    const periods =
      evaluation === "any"
        ? { evaluationPeriods: 1, datapointsToAlarm: 1 }
        : {
            evaluationPeriods: props.config.alarms.evaluationPeriods,
            datapointsToAlarm: props.config.alarms.datapointsToAlarm,
          };
    const alarm = new Alarm(this, id, {
      alarmName,
      alarmDescription: `${what}. See docs/runbook.md.`,
      metric,
      threshold,
      comparisonOperator: below
        ? ComparisonOperator.LESS_THAN_THRESHOLD
        : ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      ...periods,
      treatMissingData: missingData,
    });
    if (props.alarmTopic) {
      const action = new SnsAction(props.alarmTopic);
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    }
    this.alarms.push(alarm);
  }
}
