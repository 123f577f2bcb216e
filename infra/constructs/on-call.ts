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
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { ILogGroup } from "aws-cdk-lib/aws-logs";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import type { Canary } from "aws-cdk-lib/aws-synthetics";
import { Construct } from "constructs";
import { type ApiId, AUTHORIZER, type RouteDefinition } from "../../lib/routes.js";
import type { TableId } from "../../lib/store/tables.js";
import type { StageConfig } from "../config.js";
import { addDashboard } from "./dashboard.js";
import { ingestAlarms, tableAlarms, wafAlarm } from "./data-alarms.js";
import type { Ingest } from "./ingest.js";
import type { PartnerApi } from "./partner-api.js";
import {
  ApiMetrics,
  addAuthorizerFailuresMetricFilter,
  addRateLimitedMetricFilter,
  authorizerFailures,
} from "./service-metrics.js";

export interface OnCallProps {
  readonly config: StageConfig;
  readonly apis: readonly {
    readonly id: ApiId;
    readonly api: PartnerApi;
    readonly routes: readonly RouteDefinition[];
  }[];
  /**
   * `alarmOnErrors: false` for the authorizer: it reports every refused key as a function error.
   * Its failures are counted from the access logs instead (`authorizer-errors`).
   */
  readonly functions: readonly {
    readonly id: string;
    readonly fn: IFunction;
    readonly alarmOnErrors: boolean;
  }[];
  readonly tables: readonly { readonly id: TableId; readonly table: ITable }[];
  /** The route functions' log groups: the dashboard ranks keys by read cost over their EMF records. */
  readonly routeLogGroups: readonly ILogGroup[];
  /** The ingest's state machine and dead-letter queue. */
  readonly ingest: Pick<Ingest, "stateMachine" | "deadLetters">;
  /** The stage's web ACL, by name (WAF's metrics use it). */
  readonly webAclName: string;
  /** The greeting canary (greeting-canary.ts). */
  readonly canary: Canary;
  readonly alarmTopic?: ITopic;
}

/** Every alarm of a stage is named `<prefix><alarm id>` (the alarm topic's policy relies on it). */
export function alarmNamePrefix(stage: string): string {
  return `partner-directory-${stage}-`;
}

/** How many periods an alarm looks at; "any" alarms fire on the first breaching period. */
type Evaluation = "sustained" | "any";

interface AlarmOptions {
  readonly evaluation?: Evaluation;
  /** Default NOT_BREACHING: no traffic is not an incident. */
  readonly missingData?: TreatMissingData;
  /** Default: at or above the threshold. */
  readonly below?: boolean;
}

/** Adds one alarm of the stage: its id (also its name's suffix), metric, threshold and what it means. */
export type AlarmMaker = (
  alarmId: string,
  metric: IMetric,
  threshold: number,
  what: string,
  options?: AlarmOptions,
) => void;

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
