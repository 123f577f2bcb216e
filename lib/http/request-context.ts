/**
 * The facts of one request that middlewares and the handler share: its ID and when it was first
 * seen. This module is their one owner: whoever asks first (any middleware, in any order, or the
 * handler) makes them and everyone after gets the same, so no middleware depends on another's
 * position. They are kept per event: API Gateway, and the local gateway, give every invocation an
 * event object of its own.
 */
import { randomUUID } from "node:crypto";
import type { APIGatewayProxyEvent } from "aws-lambda";
import { type Logger, requestLogger } from "../observability/logger.js";
import { type DynamoWork, noDynamoWork } from "../observability/request-capacity.js";

interface RequestContext {
  /** API Gateway's request ID (or a fresh UUID when invoked without one); sent as `x-request-id`. */
  readonly requestId: string;
  /** `performance.now()` when the request was first seen, for the access log's duration. */
  readonly startedAt: number;
  /** What the request's code asked of DynamoDB, counted as it runs (for its metrics). */
  readonly work: DynamoWork;
}

const contexts = new WeakMap<APIGatewayProxyEvent, RequestContext>();

export function requestContext(event: APIGatewayProxyEvent): RequestContext {
  let context = contexts.get(event);
  if (!context) {
    context = {
      requestId: event.requestContext?.requestId || randomUUID(),
      startedAt: performance.now(),
      work: noDynamoWork(),
    };
    contexts.set(event, context);
  }
  return context;
}

/** A logger with this request's ID (and the route's id, when given) on every line. */
export function requestLog(event: APIGatewayProxyEvent, route: string | undefined): Logger {
  const { requestId } = requestContext(event);
  return requestLogger(route === undefined ? { requestId } : { requestId, route });
}
