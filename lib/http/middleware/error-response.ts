/**
 * The one place a thrown error becomes a contract error response. A 500 says `internal_error` and
 * nothing more; what went wrong is logged with the request ID, never sent.
 */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import type { HttpContext } from "../context.js";
import { errorResponseParts, ForbiddenError } from "../errors.js";
import { jsonResponse } from "../response.js";

export function errorResponse(): MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  HttpContext
> {
  return {
    onError: (request) => {
      const { status, body, headers } = errorResponseParts(request.error);
      const log = request.context.log;
      if (status >= 500) {
        log?.error("request failed", { error: request.error ?? undefined });
      } else if (request.error instanceof ForbiddenError) {
        log?.info("request forbidden", { reason: request.error.reason });
      }
      request.response = jsonResponse(status, body, headers);
    },
  };
}
