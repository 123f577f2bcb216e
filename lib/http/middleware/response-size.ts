/**
 * Lambda refuses a synchronous response over 6 MB, which API Gateway would turn into a 502. A page
 * that large is answered 500 `internal_error` instead, logged with its size: never truncated.
 */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import type { HttpContext } from "../context.js";
import { InternalError } from "../errors.js";

export const LAMBDA_RESPONSE_LIMIT_BYTES = 6_291_456;

/** Bytes of the whole Lambda response as it is serialized (the body is escaped inside it). */
export function serializedResponseBytes(response: APIGatewayProxyResult): number {
  return Buffer.byteLength(JSON.stringify(response), "utf8");
}

export function responseSizeGuard(
  limitBytes = LAMBDA_RESPONSE_LIMIT_BYTES,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> {
  return {
    after: (request) => {
      const response = request.response;
      // Escaping at most doubles a JSON body, so a body under half the limit needs no count.
      if (!response || Buffer.byteLength(response.body, "utf8") * 2 < limitBytes) return;
      // Measured as Lambda will see it: the request-id middleware adds its header after this one.
      const sent = {
        ...response,
        headers: { ...response.headers, "x-request-id": request.context.requestId },
      };
      const bytes = serializedResponseBytes(sent);
      if (bytes > limitBytes) {
        request.context.log.error("response too large for Lambda", { responseBytes: bytes, limitBytes });
        throw new InternalError("response too large");
      }
    },
  };
}
