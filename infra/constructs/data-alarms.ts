/**
 * The alarms on the data path and the edge: the ingest (dead letters, executions that failed,
 * were aborted or timed out), each table's write throttles and DynamoDB system errors, and a
 * spike of requests WAF blocked. on-call.ts adds them with the stage's other alarms.
 */
import { Aws, Duration } from "aws-cdk-lib";
import { Metric, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { Operation } from "aws-cdk-lib/aws-dynamodb";
import type { AlarmMaker, OnCallProps } from "./on-call-props.js";
import { tableThrottles } from "./service-metrics.js";

type Limits = OnCallProps["config"]["alarms"];

/**
 * SQS stops reporting a queue that nothing touches, so a count of waiting messages can go
 * missing while one still waits. The oldest message's age grows while it waits, and a missing
 * period keeps the alarm's state (IGNORE) instead of turning it OK.
 */
const DEAD_LETTER_PERIOD = Duration.minutes(5);

export function ingestAlarms(
  ingest: OnCallProps["ingest"],
  limits: Limits,
  period: Duration,
  alarm: AlarmMaker,
) {
  alarm(
    "ingest-dead-letters",
    ingest.deadLetters.metricApproximateAgeOfOldestMessage({
      period: DEAD_LETTER_PERIOD,
      statistic: "Maximum",
    }),
    limits.ingestDeadLetterAgeSeconds,
    "a failed ingest (or an inbox event the rule could not deliver) waits in the dead-letter queue",
    { evaluation: "any", missingData: TreatMissingData.IGNORE },
  );
  const executions = [
    ["failed", ingest.stateMachine.metricFailed({ period })],
    ["aborted", ingest.stateMachine.metricAborted({ period })],
    ["timed-out", ingest.stateMachine.metricTimedOut({ period })],
  ] as const;
  for (const [how, metric] of executions) {
    alarm(
      `ingest-executions-${how}`,
      metric,
      limits.ingestFailedExecutions,
      `ingest executions ${how.replace("-", " ")}`,
      { evaluation: "any" },
    );
  }
}

export function tableAlarms(
  tables: OnCallProps["tables"],
  limits: Limits,
  period: Duration,
  alarm: AlarmMaker,
) {
  for (const { id: tableId, table } of tables) {
    alarm(
      `${tableId}-table-read-throttles`,
      tableThrottles(tableId, table, "Read", period),
      limits.dynamoReadThrottles,
      `${tableId} table or index read throttles`,
    );
    alarm(
      `${tableId}-table-write-throttles`,
      tableThrottles(tableId, table, "Write", period),
      limits.dynamoWriteThrottles,
      `${tableId} table or index write throttles`,
    );
    alarm(
      `${tableId}-table-system-errors`,
      table.metricSystemErrorsForOperations({ operations: OPERATIONS, period, statistic: "Sum" }),
      limits.dynamoSystemErrors,
      `DynamoDB system errors (500) on the ${tableId} table`,
    );
  }
}

/**
 * The operations the service calls (lib/store), and the deletes and transactions besides: an
 * alarm's math expression may hold at most 10 metrics.
 */
const OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.SCAN,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.TRANSACT_GET_ITEMS,
];

/** Requests the stage's web ACL blocked, every rule together. */
export function wafBlockedRequests(webAclName: string, period: Duration): Metric {
  return new Metric({
    namespace: "AWS/WAFV2",
    metricName: "BlockedRequests",
    dimensionsMap: { WebACL: webAclName, Region: Aws.REGION, Rule: "ALL" },
    statistic: "Sum",
    period,
  });
}

export function wafAlarm(webAclName: string, limits: Limits, alarm: AlarmMaker) {
  alarm(
    "waf-blocked-spike",
    wafBlockedRequests(webAclName, Duration.minutes(limits.countWindowMinutes)),
    limits.wafBlockedRequests,
    `${limits.wafBlockedRequests}+ requests blocked by WAF in ${limits.countWindowMinutes} minutes (a flood or an attack)`,
    { evaluation: "any" },
  );
}
