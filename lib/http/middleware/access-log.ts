/**
 * One structured log line per request: route, status, duration and key id (never the key). The
 * path is logged as the route's template (`/v1/companies/{companyId}/hello`), never as sent: the
 * caller's path is caller text, and a key pasted as a company id would otherwise be logged.
 *
 * Not a middleware but middy's request lifecycle hooks (`requestStart`, `requestEnd`): the line
 * must tell the request's final outcome, which no middleware sees in every order (an `after` that
 * runs before the response-size guard would log a 200 the guard then turns into a 500). Pass the
 * result to `middy()` as (part of) its plugin.
 */
import type { Request } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { errorResponseParts } from "../errors.js";
import { requestContext, requestLog } from "../request-context.js";

/** middy types its lifecycle hooks for any event; these are given to API Gateway handlers only. */
type HttpRequest = Pick<Request<APIGatewayProxyEvent, APIGatewayProxyResult>, "event" | "response" | "error">;
const httpRequest = (request: Request): HttpRequest => request as HttpRequest;

interface AccessLogOptions {
  /** The route's template, logged instead of the path as sent. */
  readonly resourcePath: string;
  /** The route's id, on its log lines. */
  readonly route?: string;
}

interface AccessLogHooks {
  readonly requestStart: (request: Request) => void;
  readonly requestEnd: (request: Request) => void;
}

export function accessLog({ resourcePath, route }: AccessLogOptions): AccessLogHooks {
  return {
    // The duration counts from here: the request's context is made as it starts.
    requestStart: (request) => {
      requestContext(httpRequest(request).event);
    },
    requestEnd: (request) => {
      const { event, response, error } = httpRequest(request);
      const keyId = event.requestContext?.authorizer?.keyId;
      requestLog(event, route).info("request completed", {
        // No response: an error nothing mapped, which Lambda reports as a failure (a 500 for API Gateway).
        status: response?.statusCode ?? errorResponseParts(error).status,
        durationMs: Math.round((performance.now() - requestContext(event).startedAt) * 100) / 100,
        keyId: typeof keyId === "string" ? keyId : undefined,
        method: event.httpMethod,
        resourcePath,
      });
    },
  };
}
