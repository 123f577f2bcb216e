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
import { Construct } from "constructs";
import { type ApiId, AUTHORIZER, type RouteDefinition } from "../../lib/routes.js";
import type { TableId } from "../../lib/store/tables.js";
import type { StageConfig } from "../config.js";
import { addDashboard } from "./dashboard.js";
import type { Ingest } from "./ingest.js";
import type { PartnerApi } from "./partner-api.js";
import {
  ApiMetrics,
  addAuthorizerFailuresMetricFilter,
  addRateLimitedMetricFilter,
  authorizerFailures,
  tableReadThrottles,
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
  readonly alarmTopic?: ITopic;
}

/** Every alarm of a stage is named `<prefix><alarm id>` (the alarm topic's policy relies on it). */
export function alarmNamePrefix(stage: string): string {
  return `partner-directory-${stage}-`;
}

/** How many periods an alarm looks at; "any" alarms fire on the first breaching period. */
type Evaluation = "sustained" | "any";

/** Adds one alarm of the stage: its id (also its name's suffix), metric, threshold and what it means. */
type AlarmMaker = (
  alarmId: string,
  metric: IMetric,
  threshold: number,
  what: string,
  evaluation?: Evaluation,
) => void;

/**
 * SQS reports a queue's depth every minute or so, and nothing for an idle empty queue: over
 * 5-minute periods a waiting dead letter is seen in every period, so the alarm does not flap.
 */
const DEAD_LETTER_PERIOD = Duration.minutes(5);

/** The ingest's alarms: a dead letter waiting, and executions that failed or timed out. */
function ingestAlarms(
  ingest: OnCallProps["ingest"],
  limits: OnCallProps["config"]["alarms"],
  period: Duration,
  alarm: AlarmMaker,
) {
  alarm(
    "ingest-dead-letters",
    ingest.deadLetters.metricApproximateNumberOfMessagesVisible({
      period: DEAD_LETTER_PERIOD,
      statistic: "Maximum",
    }),
    limits.ingestDeadLetters,
    "a failed ingest (or an inbox event the rule could not deliver) waits in the dead-letter queue",
    "any",
  );
  alarm(
    "ingest-executions-failed",
    ingest.stateMachine.metricFailed({ period }),
    limits.ingestFailedExecutions,
    "ingest executions failed",
    "any",
  );
  alarm(
    "ingest-executions-timed-out",
    ingest.stateMachine.metricTimedOut({ period }),
    limits.ingestFailedExecutions,
    "ingest executions timed out",
    "any",
  );
}

/** An API's alarms: its 5xx rate and count, and its p99 latency. */
function apiAlarms(
  apiId: string,
  metrics: ApiMetrics,
  limits: OnCallProps["config"]["alarms"],
  alarm: AlarmMaker,
) {
  const rate = metrics.serverErrorRate(limits.minRequestsForErrorRate);
  alarm(
    `${apiId}-5xx-rate`,
    rate,
    limits.serverErrorRatePercent,
    `5xx are ${limits.serverErrorRatePercent}%+ of ${apiId} API requests`,
  );
  // The rate alarm ignores quiet periods; this one sees an outage however little traffic there is.
  alarm(
    `${apiId}-5xx-count`,
    metrics.stage("5XXError", "Sum"),
    limits.serverErrors,
    `${limits.serverErrors}+ 5xx answers of the ${apiId} API in a period`,
    "any",
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
    const alarm: AlarmMaker = (alarmId, metric, threshold, what, evaluation = "sustained") =>
      this.addAlarm(
        alarmId,
        `${alarmNamePrefix(config.stage)}${alarmId}`,
        metric,
        threshold,
        what,
        evaluation,
        props,
      );

    for (const { id: apiId, api } of props.apis) {
      addRateLimitedMetricFilter(this, `${apiId}RateLimited`, api);
      addAuthorizerFailuresMetricFilter(this, `${apiId}AuthorizerFailures`, api);
      apiAlarms(apiId, new ApiMetrics(api, apiId, period), limits, alarm);
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
      authorizerFailures(period),
      limits.authorizerFailures,
      "the authorizer failed (crash, timeout, throttle or DynamoDB error), not a refused key",
      "any",
    );
    for (const { id: tableId, table } of props.tables) {
      const throttles = tableReadThrottles(tableId, table, period);
      alarm(
        `${tableId}-table-read-throttles`,
        throttles,
        limits.dynamoReadThrottles,
        `${tableId} table or index read throttles`,
      );
    }
    ingestAlarms(props.ingest, limits, period, alarm);
    this.dashboard = addDashboard(this, props, this.alarms);
  }

  private addAlarm(
    id: string,
    alarmName: string,
    metric: IMetric,
    threshold: number,
    what: string,
    evaluation: Evaluation,
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
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      ...periods,
      // No traffic is not an incident.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    if (props.alarmTopic) {
      const action = new SnsAction(props.alarmTopic);
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    }
    this.alarms.push(alarm);
  }
}
