/**
 * One structured log line per request: route, status, duration and key id (never the key). The
 * path is logged as the route's template (`/v1/companies/{companyId}/hello`), never as sent: the
 * caller's path is caller text, and a key pasted as a company id would otherwise be logged.
 */
import type { MiddlewareObj, Request } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import type { HttpContext } from "../context.js";

type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>;

function logCompletion(request: HttpRequest, resourcePath: string): void {
  const { log, startedAt } = request.context;
  const keyId = request.event.requestContext?.authorizer?.keyId;
  log?.info("request completed", {
    status: request.response?.statusCode ?? 500,
    durationMs: Math.round((performance.now() - startedAt) * 100) / 100,
    keyId: typeof keyId === "string" ? keyId : undefined,
    method: request.event.httpMethod,
    resourcePath,
  });
}

export function accessLog(
  resourcePath: string,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> {
  const log = (request: HttpRequest) => logCompletion(request, resourcePath);
  return { after: log, onError: log };
}
