/** Refuses request bodies over the contract's 1 MiB before anything parses them. */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent } from "aws-lambda";
import { InvalidInputError } from "../errors.js";

export const MAX_BODY_BYTES = 1_048_576;

function bodyByteLength(body: string, isBase64Encoded: boolean): number {
  return isBase64Encoded ? Buffer.byteLength(body, "base64") : Buffer.byteLength(body, "utf8");
}

interface BodyLimitOptions {
  readonly maxBytes?: number;
}

export function bodyLimit({
  maxBytes = MAX_BODY_BYTES,
}: BodyLimitOptions = {}): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: ({ event }) => {
      if (typeof event.body === "string" && bodyByteLength(event.body, event.isBase64Encoded) > maxBytes) {
        throw new InvalidInputError(`request body is larger than ${maxBytes} bytes`);
      }
    },
  };
}
