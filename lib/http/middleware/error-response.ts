/**
 * The one place a thrown error becomes a contract error response, with the request's ID. A 500
 * says `internal_error` and nothing more; what went wrong is logged with the request ID, never sent.
 */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { errorResponseParts, ForbiddenError } from "../errors.js";
import { requestContext, requestLog } from "../request-context.js";
import { jsonResponse } from "../response.js";

interface ErrorResponseOptions {
  /** The route's id, on its log lines. */
  readonly route?: string;
}

export function errorResponse({
  route,
}: ErrorResponseOptions = {}): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      const { event, error } = request;
      const { status, body, headers } = errorResponseParts(error);
      if (status >= 500) {
        requestLog(event, route).error("request failed", { error: error ?? undefined });
      } else if (error instanceof ForbiddenError) {
        requestLog(event, route).info("request forbidden", { reason: error.reason });
      }
      request.response = jsonResponse(status, body, {
        ...headers,
        "x-request-id": requestContext(event).requestId,
      });
    },
  };
}
