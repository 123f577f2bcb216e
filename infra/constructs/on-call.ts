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
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { Construct } from "constructs";
import type { ApiId, RouteDefinition } from "../../lib/routes.js";
import type { TableId } from "../../lib/store/tables.js";
import type { StageConfig } from "../config.js";
import { addDashboard } from "./dashboard.js";
import type { PartnerApi } from "./partner-api.js";
import { ApiMetrics, addRateLimitedMetricFilter, tableReadThrottles } from "./service-metrics.js";

export interface OnCallProps {
  readonly config: StageConfig;
  readonly apis: readonly {
    readonly id: ApiId;
    readonly api: PartnerApi;
    readonly routes: readonly RouteDefinition[];
  }[];
  /** `alarmOnErrors: false` for the authorizer: it reports every refused key as a function error. */
  readonly functions: readonly {
    readonly id: string;
    readonly fn: IFunction;
    readonly alarmOnErrors: boolean;
  }[];
  readonly tables: readonly { readonly id: TableId; readonly table: ITable }[];
  readonly alarmTopic?: ITopic;
}

export class OnCall extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OnCallProps) {
    super(scope, id);
    const { config } = props;
    const limits = config.alarms;
    const period = Duration.minutes(limits.periodMinutes);
    const name = (suffix: string) => `partner-directory-${config.stage}-${suffix}`;
    const alarm = (alarmId: string, metric: IMetric, threshold: number, what: string) =>
      this.addAlarm(alarmId, name(alarmId), metric, threshold, what, props);

    for (const { id: apiId, api } of props.apis) {
      addRateLimitedMetricFilter(this, `${apiId}RateLimited`, api);
      const metrics = new ApiMetrics(api, apiId, period);
      const rate = metrics.serverErrorRate(limits.minRequestsForErrorRate);
      alarm(
        `${apiId}-5xx-rate`,
        rate,
        limits.serverErrorRatePercent,
        `5xx are ${limits.serverErrorRatePercent}%+ of ${apiId} API requests`,
      );
      alarm(
        `${apiId}-p99-latency`,
        metrics.stage("Latency", "p99"),
        limits.p99LatencyMs,
        `${apiId} API p99 latency is ${limits.p99LatencyMs} ms+`,
      );
    }
    for (const { id: fnId, fn, alarmOnErrors } of props.functions) {
      if (alarmOnErrors) {
        alarm(
          `${fnId}-errors`,
          fn.metricErrors({ period }),
          limits.lambdaErrors,
          `${fnId} function errors (crashes, timeouts)`,
        );
      }
      alarm(
        `${fnId}-throttles`,
        fn.metricThrottles({ period }),
        limits.lambdaThrottles,
        `${fnId} function throttled`,
      );
    }
    for (const { id: tableId, table } of props.tables) {
      const throttles = tableReadThrottles(tableId, table, period);
      alarm(
        `${tableId}-table-read-throttles`,
        throttles,
        limits.dynamoReadThrottles,
        `${tableId} table or index read throttles`,
      );
    }
    this.dashboard = addDashboard(this, props, this.alarms);
  }

  private addAlarm(
    id: string,
    alarmName: string,
    metric: IMetric,
    threshold: number,
    what: string,
    props: OnCallProps,
  ): void {
    const alarm = new Alarm(this, id, {
      alarmName,
      alarmDescription: `${what}. See docs/runbook.md.`,
      metric,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: props.config.alarms.evaluationPeriods,
      datapointsToAlarm: props.config.alarms.datapointsToAlarm,
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
