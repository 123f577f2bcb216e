/**
 * The stage's CloudWatch dashboard: per API requests, 4xx, 5xx and 429 by route, latency; then
 * Lambda errors, throttles and duration; then DynamoDB reads and throttles, and the alarms; then
 * the ingest's executions and dead letters; then WAF's blocks; then read cost by API key, from the route functions'
 * EMF records (lib/observability/metrics.ts).
 */
import { Duration } from "aws-cdk-lib";
import {
  type Alarm,
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IMetric,
  LogQueryVisualizationType,
  LogQueryWidget,
  MathExpression,
  TextWidget,
} from "aws-cdk-lib/aws-cloudwatch";
import type { ILogGroup } from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";
import { wafBlockedRequests } from "./data-alarms.js";
import { METRICS_NAMESPACE } from "./directory-function.js";
import type { OnCallProps } from "./on-call-props.js";
import { ApiMetrics, RATE_LIMITED_METRIC, tableThrottles } from "./service-metrics.js";

export function addDashboard(scope: Construct, props: OnCallProps, alarms: readonly Alarm[]): Dashboard {
  const { config } = props;
  const period = Duration.minutes(config.alarms.periodMinutes);
  const dashboard = new Dashboard(scope, "Dashboard", {
    dashboardName: `partner-directory-${config.stage}`,
    defaultInterval: Duration.hours(3),
  });
  dashboard.addWidgets(
    new TextWidget({
      markdown: `# Partner Directory (${config.stage})\nAlarms and Logs Insights queries: docs/runbook.md`,
      width: 24,
      height: 1,
    }),
  );
  for (const api of props.apis) addApiRows(dashboard, api, props.config, period);
  addLambdaRow(dashboard, props.functions, period);
  addTableRow(dashboard, props.tables, alarms, period);
  addIngestRow(dashboard, props.ingest, period);
  addWafRow(dashboard, props.webAclName, period);
  addReadCostRow(dashboard, props.routeLogGroups);
  return dashboard;
}

/**
 * Read capacity per key, top keys first: each route request's EMF record carries
 * `ReadCapacityUnits` with `keyId` as a property (not a dimension: keys are unbounded).
 */
const READ_COST_BY_KEY_QUERY = [
  "filter ispresent(ReadCapacityUnits)",
  "stats sum(ReadCapacityUnits) as rcu, count(*) as requests by keyId",
  "sort rcu desc",
  "limit 20",
].join(" | ");

function addReadCostRow(dashboard: Dashboard, logGroups: readonly ILogGroup[]): void {
  // A stage without route functions (none today) has no records to query.
  if (logGroups.length === 0) return;
  dashboard.addWidgets(
    new LogQueryWidget({
      title: "Read cost by API key: top 20 keys by DynamoDB read capacity",
      logGroupNames: logGroups.map((group) => group.logGroupName),
      queryString: READ_COST_BY_KEY_QUERY,
      view: LogQueryVisualizationType.TABLE,
      width: 24,
      height: 8,
    }),
  );
}

/** Two rows per API: requests, 4xx, 5xx and 429 by route; then latency and the 5xx rate. */
function addApiRows(
  dashboard: Dashboard,
  { id: apiId, api, routes }: OnCallProps["apis"][number],
  config: OnCallProps["config"],
  period: Duration,
): void {
  const metrics = new ApiMetrics(api, apiId, period);
  const byRoute = (name: string, statistic: string, allLabel: string) => [
    metrics.stage(name, statistic, allLabel),
    ...routes.map((route) => metrics.route(route, name, statistic)),
  ];
  dashboard.addWidgets(
    graph(`${apiId} API: requests by route`, byRoute("Count", "Sum", "all"), 6),
    graph(`${apiId} API: 4xx by route`, byRoute("4XXError", "Sum", "all"), 6),
    graph(`${apiId} API: 5xx by route`, byRoute("5XXError", "Sum", "all"), 6),
    graph(`${apiId} API: 429 by route`, [rateLimitedByResource(apiId, period)], 6),
  );
  dashboard.addWidgets(
    graph(
      `${apiId} API: latency p50 / p99`,
      [metrics.stage("Latency", "p50", "p50"), ...byRoute("Latency", "p99", "p99")],
      12,
    ),
    graph(`${apiId} API: 5xx rate (%)`, [metrics.serverErrorRate(config.alarms.minRequestsForErrorRate)], 12),
  );
}

/** SEARCH finds every resource that answered 429, routes or not, without listing them. */
function rateLimitedByResource(apiId: string, period: Duration): MathExpression {
  return new MathExpression({
    expression: `SEARCH('{${METRICS_NAMESPACE},Api,Resource} MetricName="${RATE_LIMITED_METRIC}" Api="${apiId}"', 'Sum', ${period.toSeconds()})`,
    usingMetrics: {},
    period,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudWatch dynamic label, not a JS template.
    label: "${PROP('Dim.Resource')}",
  });
}

function addLambdaRow(dashboard: Dashboard, fns: OnCallProps["functions"], period: Duration): void {
  dashboard.addWidgets(
    graph(
      "Lambda errors (authorizer: includes refused keys)",
      fns.map(({ id, fn }) => fn.metricErrors({ period, label: id })),
    ),
    graph(
      "Lambda throttles",
      fns.map(({ id, fn }) => fn.metricThrottles({ period, label: id })),
    ),
    graph(
      "Lambda duration p99",
      fns.map(({ id, fn }) => fn.metricDuration({ period, statistic: "p99", label: id })),
    ),
  );
}

function addIngestRow(dashboard: Dashboard, ingest: OnCallProps["ingest"], period: Duration): void {
  const { stateMachine, deadLetters } = ingest;
  dashboard.addWidgets(
    graph(
      "Ingest executions",
      [
        stateMachine.metricStarted({ period, label: "started" }),
        stateMachine.metricSucceeded({ period, label: "succeeded" }),
        stateMachine.metricFailed({ period, label: "failed" }),
        stateMachine.metricTimedOut({ period, label: "timed out" }),
        stateMachine.metricAborted({ period, label: "aborted" }),
      ],
      12,
    ),
    graph(
      "Ingest dead letters waiting",
      [
        deadLetters.metricApproximateNumberOfMessagesVisible({ statistic: "Maximum", label: "messages" }),
        deadLetters.metricApproximateAgeOfOldestMessage({ statistic: "Maximum", label: "oldest (s)" }),
      ],
      12,
    ),
  );
}

/** WAF: requests blocked, every rule together, per period. */
function addWafRow(dashboard: Dashboard, webAclName: string, period: Duration): void {
  dashboard.addWidgets(
    graph("WAF blocked requests (all rules)", [wafBlockedRequests(webAclName, period)], 24),
  );
}

function addTableRow(
  dashboard: Dashboard,
  tables: OnCallProps["tables"],
  alarms: readonly Alarm[],
  period: Duration,
): void {
  dashboard.addWidgets(
    graph(
      "DynamoDB consumed read capacity",
      tables.map(({ id, table }) => table.metricConsumedReadCapacityUnits({ period, label: id })),
    ),
    graph(
      "DynamoDB read and write throttles",
      tables.flatMap(({ id, table }) => [
        tableThrottles(id, table, "Read", period),
        tableThrottles(id, table, "Write", period),
      ]),
    ),
    new AlarmStatusWidget({ title: "Alarms", alarms: [...alarms], width: 8, height: 6 }),
  );
}

function graph(title: string, metrics: IMetric[], width = 8): GraphWidget {
  return new GraphWidget({ title, left: metrics, width, height: 6 });
}
