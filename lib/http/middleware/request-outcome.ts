/**
 * A request's outcome for its metrics, read as the access log reads it: the final status (or the
 * one the error mapping gives an error nothing mapped), the key id (never the key), the request's
 * ID and its DynamoDB work.
 */
import type { Request } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import type { RequestOutcome } from "../../observability/metrics.js";
import { errorResponseParts } from "../errors.js";
import { requestContext } from "../request-context.js";

export function requestOutcome(route: string) {
  return ({
    event,
    response,
    error,
  }: Request<APIGatewayProxyEvent, APIGatewayProxyResult>): RequestOutcome => {
    const keyId = event.requestContext?.authorizer?.keyId;
    const { requestId, work } = requestContext(event);
    return {
      route,
      status: response?.statusCode ?? errorResponseParts(error).status,
      keyId: typeof keyId === "string" ? keyId : undefined,
      requestId,
      work,
    };
  };
}
