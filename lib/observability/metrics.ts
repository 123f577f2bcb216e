/**
 * One CloudWatch EMF record per request, through Powertools Metrics: dimensions `service`, `route`
 * and `status`; metrics ReadCapacityUnits, DynamoDbCalls and DynamoDbLatency (what the request's
 * code asked of DynamoDB, lib/store/request-capacity.ts); the key id and request id as properties.
 *
 * The key id is a property, not a dimension: each dimension value is a custom metric of its own
 * (billed per month), and keys are unbounded. Logs Insights ranks keys by cost over these records
 * (the dashboard's "read cost by key" widget, infra/constructs/dashboard.ts).
 */
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { logMetrics } from "@aws-lambda-powertools/metrics/middleware";
import type { MiddlewareObj, Request } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { logger } from "./logger.js";
import type { DynamoWork } from "./request-capacity.js";

const METRIC_NAMES = {
  readCapacity: "ReadCapacityUnits",
  calls: "DynamoDbCalls",
  latency: "DynamoDbLatency",
  unknownKeys: "UnknownKeys",
} as const;

const SERVICE_NAME = "partner-directory";

/** Namespace and service from the environment (infra/constructs/directory-function.ts sets both). */
const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? "PartnerDirectory",
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
});

/** What the request tells its metrics: known only at its end, when its status is final. */
export interface RequestOutcome {
  readonly route: string;
  readonly status: number;
  readonly keyId: string | undefined;
  readonly requestId: string;
  readonly work: DynamoWork;
}

type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

/**
 * Powertools' logMetrics, fed the request's outcome just before it publishes: added and published
 * in one synchronous step, so concurrent local requests never share a record. Use it first in the
 * chain, so its `after` and `onError` run last and see the final status.
 */
export function requestMetrics(
  outcome: (request: HttpRequest) => RequestOutcome,
  target: Metrics = metrics,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const publishing = logMetrics(target);
  const recordAndPublish = (request: HttpRequest) => {
    // A metric must never cost the caller its answer: this runs after the error mapping, so a
    // throw here would reach Lambda as a 502 without x-request-id.
    try {
      record(target, outcome(request));
      publishing.after?.(request);
    } catch (error) {
      logger.error("metrics record not published", { errorName: (error as Error).name });
    }
  };
  return { before: publishing.before, after: recordAndPublish, onError: recordAndPublish };
}

function record(target: Metrics, { route, status, keyId, requestId, work }: RequestOutcome): void {
  target.addDimensions({ route, status: String(status) });
  target.addMetric(METRIC_NAMES.readCapacity, MetricUnit.Count, work.readCapacity);
  target.addMetric(METRIC_NAMES.calls, MetricUnit.Count, work.calls);
  target.addMetric(METRIC_NAMES.latency, MetricUnit.Milliseconds, Math.round(work.latencyMs * 100) / 100);
  if (keyId) target.addMetadata("keyId", keyId);
  target.addMetadata("requestId", requestId);
}

/**
 * The authorizer's count of keys with a valid checksum that no record holds (forged, or deleted):
 * one EMF record each, published at once (the authorizer publishes no other metric).
 */
export function countUnknownKey(target: Metrics = metrics): void {
  try {
    target.addMetric(METRIC_NAMES.unknownKeys, MetricUnit.Count, 1);
    target.publishStoredMetrics();
  } catch (error) {
    logger.error("metrics record not published", { errorName: (error as Error).name });
  }
}
