/** One structured log line per request: route, status, duration and key id (never the key). */
import type { MiddlewareObj, Request } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import type { HttpContext } from "../context.js";

type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>;

function logCompletion(request: HttpRequest): void {
  const { log, startedAt } = request.context;
  const keyId = request.event.requestContext?.authorizer?.keyId;
  log?.info("request completed", {
    status: request.response?.statusCode ?? 500,
    durationMs: Math.round((performance.now() - startedAt) * 100) / 100,
    keyId: typeof keyId === "string" ? keyId : undefined,
    method: request.event.httpMethod,
    path: request.event.path,
  });
}

export function accessLog(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> {
  return { after: logCompletion, onError: logCompletion };
}
