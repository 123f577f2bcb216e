/**
 * Gives the request its ID (API Gateway's request ID when there is one) and a logger that carries
 * it, and puts `x-request-id` on every response, errors included. It must be the first middleware
 * so that its after/onError hooks run last.
 */
import { randomUUID } from "node:crypto";
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { requestLogger } from "../../observability/logger.js";
import type { HttpContext } from "../context.js";

export function requestId(
  route: string,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> {
  const addHeader = (response: APIGatewayProxyResult | null | undefined, id: string) => {
    if (response) response.headers = { ...response.headers, "x-request-id": id };
  };
  return {
    before: (request) => {
      const id = request.event.requestContext?.requestId || randomUUID();
      request.context.requestId = id;
      request.context.startedAt = performance.now();
      request.context.log = requestLogger({ requestId: id, route });
    },
    after: (request) => addHeader(request.response, request.context.requestId),
    onError: (request) => addHeader(request.response, request.context.requestId),
  };
}
