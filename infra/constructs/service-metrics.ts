/**
 * The CloudWatch metrics the dashboard and the alarms share, so both always look at the same
 * numbers. API Gateway per-route metrics need the stage's detailed metrics (enabled in PartnerApi);
 * 429s have no API Gateway metric and come from a metric filter on the access log.
 */
import type { Duration } from "aws-cdk-lib";
import { type IMetric, MathExpression, Metric } from "aws-cdk-lib/aws-cloudwatch";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { FilterPattern, MetricFilter } from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";
import type { RouteDefinition } from "../../lib/routes.js";
import { TABLES, type TableId } from "../../lib/store/tables.js";
import { METRICS_NAMESPACE } from "./directory-function.js";
import type { PartnerApi } from "./partner-api.js";

export const RATE_LIMITED_METRIC = "RateLimited";
const AUTHORIZER_FAILURES_METRIC = "AuthorizerFailures";

/**
 * API Gateway's answers when the authorizer itself failed: it threw something other than
 * "Unauthorized", timed out, was throttled, or returned a malformed policy. A refused key is not
 * one (that is UNAUTHORIZED), which is why the function's own `Errors` cannot tell the two apart.
 */
const AUTHORIZER_FAILURE_TYPES = ["AUTHORIZER_FAILURE", "AUTHORIZER_CONFIGURATION_ERROR"] as const;

export class ApiMetrics {
  readonly api: PartnerApi;
  readonly apiId: string;
  private readonly period: Duration;
  private readonly dimensions: Record<string, string>;

  constructor(api: PartnerApi, apiId: string, period: Duration) {
    this.api = api;
    this.apiId = apiId;
    this.period = period;
    this.dimensions = { ApiName: api.restApi.restApiName, Stage: api.restApi.deploymentStage.stageName };
  }

  /** Stage-wide API Gateway metric (Count, 4XXError, 5XXError, Latency). */
  stage(metricName: string, statistic: string, label?: string): Metric {
    return new Metric({
      namespace: "AWS/ApiGateway",
      metricName,
      dimensionsMap: this.dimensions,
      statistic,
      period: this.period,
      label,
    });
  }

  route(route: RouteDefinition, metricName: string, statistic: string): Metric {
    return new Metric({
      namespace: "AWS/ApiGateway",
      metricName,
      dimensionsMap: { ...this.dimensions, Resource: route.path, Method: route.method },
      statistic,
      period: this.period,
      label: `${route.method} ${route.path}`,
    });
  }

  /** 5xx as a percentage of requests; 0 while there are too few requests to judge. */
  serverErrorRate(minRequests: number): MathExpression {
    return new MathExpression({
      expression: `IF(requests >= ${minRequests}, 100 * errors / requests, 0)`,
      usingMetrics: { errors: this.stage("5XXError", "Sum"), requests: this.stage("Count", "Sum") },
      period: this.period,
      label: `${this.apiId} 5xx %`,
    });
  }
}

/** Counts 429 answers per API and resource from the JSON access log (see access-log.ts). */
export function addRateLimitedMetricFilter(scope: Construct, id: string, api: PartnerApi): MetricFilter {
  return new MetricFilter(scope, id, {
    logGroup: api.accessLogs,
    metricNamespace: METRICS_NAMESPACE,
    metricName: RATE_LIMITED_METRIC,
    filterPattern: FilterPattern.numberValue("$.status", "=", 429),
    metricValue: "1",
    dimensions: { Api: "$.api", Resource: "$.resourcePath" },
  });
}

/**
 * Counts the requests each API answered because the authorizer failed (see
 * AUTHORIZER_FAILURE_TYPES), from its access log. Both APIs' filters feed one metric.
 */
export function addAuthorizerFailuresMetricFilter(
  scope: Construct,
  id: string,
  api: PartnerApi,
): MetricFilter {
  return new MetricFilter(scope, id, {
    logGroup: api.accessLogs,
    metricNamespace: METRICS_NAMESPACE,
    metricName: AUTHORIZER_FAILURES_METRIC,
    filterPattern: FilterPattern.any(
      ...AUTHORIZER_FAILURE_TYPES.map((type) => FilterPattern.stringValue("$.errorType", "=", type)),
    ),
    metricValue: "1",
  });
}

export function authorizerFailures(period: Duration): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: AUTHORIZER_FAILURES_METRIC,
    statistic: "Sum",
    period,
  });
}

/** Read or write throttles of a table and all its indexes, as one series. */
export function tableThrottles(
  tableId: TableId,
  table: ITable,
  kind: "Read" | "Write",
  period: Duration,
): MathExpression {
  const metricName = `${kind}ThrottleEvents`;
  // Ids are unique per table and kind: one graph shows the expressions of several tables.
  const prefix = `${tableId}_${kind.toLowerCase()}`;
  const metrics: Record<string, IMetric> = {
    [`${prefix}_table`]: table.metric(metricName, { statistic: "Sum", period }),
  };
  TABLES[tableId].indexes.forEach((index, i) => {
    metrics[`${prefix}_index${i}`] = new Metric({
      namespace: "AWS/DynamoDB",
      metricName,
      dimensionsMap: { TableName: table.tableName, GlobalSecondaryIndexName: index.name },
      statistic: "Sum",
      period,
    });
  });
  return new MathExpression({
    expression: Object.keys(metrics)
      .map((name) => `FILL(${name}, 0)`)
      .join(" + "),
    usingMetrics: metrics,
    period,
    label: `${tableId} ${kind.toLowerCase()} throttles`,
  });
}
