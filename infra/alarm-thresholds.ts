/**
 * The alarms' periods and thresholds (docs/operations.md "Alarms and the SNS topic"): prod's, which
 * the other stages of infra/config.ts adjust.
 */

export interface AlarmThresholds {
  /** Alarm period; every threshold below is per period. */
  readonly periodMinutes: number;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm: number;
  /** 5xx responses as a percentage of requests, per API. */
  readonly serverErrorRatePercent: number;
  /** Below this many requests in a period the 5xx rate is not judged (1 error in 3 requests is noise). */
  readonly minRequestsForErrorRate: number;
  /** The window (minutes) of the count alarms below that fire on their first breach. */
  readonly countWindowMinutes: number;
  /** 5xx responses per API in one count window, whatever the traffic: an outage at low traffic. */
  readonly serverErrors: number;
  /** Requests the authorizer failed (crash, timeout, DynamoDB error) in one count window, both APIs. */
  readonly authorizerFailures: number;
  /** p99 of API Gateway's Latency (the whole request, authorizer included), per API. */
  readonly p99LatencyMs: number;
  /** Unhandled function errors (crashes, timeouts), per route function. */
  readonly lambdaErrors: number;
  readonly lambdaThrottles: number;
  /** Read throttle events of a table and its indexes together. */
  readonly dynamoReadThrottles: number;
  /** Write throttle events of a table and its indexes together. */
  readonly dynamoWriteThrottles: number;
  /** DynamoDB's own errors (HTTP 500) on a table, all operations. */
  readonly dynamoSystemErrors: number;
  /** Age in seconds of the oldest message in the ingest's dead-letter queue. */
  readonly ingestDeadLetterAgeSeconds: number;
  /** Ingest executions that failed, were aborted or timed out in one period. */
  readonly ingestFailedExecutions: number;
  /** Requests WAF blocked (every rule) in one count window: a flood or an attack. */
  readonly wafBlockedRequests: number;
  /** The greeting canary runs every 5 minutes; its success rate is judged over this window. */
  readonly canaryWindowMinutes: number;
  /** Below this share (%) of successful canary runs in the window, the canary alarm fires. */
  readonly canarySuccessPercent: number;
}

export const PROD_ALARMS: AlarmThresholds = {
  periodMinutes: 1,
  evaluationPeriods: 5,
  datapointsToAlarm: 3,
  serverErrorRatePercent: 1,
  minRequestsForErrorRate: 20,
  // At least 3 in 5 minutes: one failed request is not worth waking anyone.
  countWindowMinutes: 5,
  serverErrors: 3,
  authorizerFailures: 3,
  p99LatencyMs: 3000,
  lambdaErrors: 1,
  lambdaThrottles: 1,
  dynamoReadThrottles: 1,
  dynamoWriteThrottles: 1,
  dynamoSystemErrors: 1,
  ingestDeadLetterAgeSeconds: 60,
  ingestFailedExecutions: 1,
  wafBlockedRequests: 1000,
  // Three runs: one failed run (67 %) is a blip, two are an outage.
  canaryWindowMinutes: 15,
  canarySuccessPercent: 60,
};
