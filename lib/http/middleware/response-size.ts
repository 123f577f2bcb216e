/**
 * Lambda refuses a synchronous response over 6 MB, which API Gateway would turn into a 502. A page
 * that large is answered 500 `internal_error` instead (the thrown error reaches the error mapping,
 * wherever it sits), logged with its size: never truncated.
 */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { InternalError } from "../errors.js";
import { requestContext, requestLog } from "../request-context.js";

const LAMBDA_RESPONSE_LIMIT_BYTES = 6_291_456;

/** Bytes of the whole Lambda response as it is serialized (the body is escaped inside it). */
export function serializedResponseBytes(response: APIGatewayProxyResult): number {
  return Buffer.byteLength(JSON.stringify(response), "utf8");
}

interface ResponseSizeOptions {
  readonly limitBytes?: number;
  /** The route's id, on its log lines. */
  readonly route?: string;
}

export function responseSizeGuard({
  limitBytes = LAMBDA_RESPONSE_LIMIT_BYTES,
  route,
}: ResponseSizeOptions = {}): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    after: ({ event, response }) => {
      // Escaping at most doubles a JSON body, so a body under half the limit needs no count.
      if (!response || Buffer.byteLength(response.body, "utf8") * 2 < limitBytes) return;
      // Measured as Lambda will see it: every response carries the request's ID.
      const sent = {
        ...response,
        headers: { ...response.headers, "x-request-id": requestContext(event).requestId },
      };
      const bytes = serializedResponseBytes(sent);
      if (bytes > limitBytes) {
        requestLog(event, route).error("response too large for Lambda", {
          responseBytes: bytes,
          limitBytes,
        });
        throw new InternalError("response too large");
      }
    },
  };
}
