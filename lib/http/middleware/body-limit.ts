/**
 * Refuses request bodies over the contract's 1 MiB, counted in the bytes received, and bodies that
 * are not UTF-8, before anything parses them. A base64 body (API Gateway's form for binary media
 * types, and the local gateway's for every body) is decoded here strictly and handed on as text.
 * A text body was decoded by API Gateway: its bytes are counted as UTF-8.
 */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent } from "aws-lambda";
import { InvalidInputError } from "../errors.js";

export const MAX_BODY_BYTES = 1_048_576;

/** Fatal: a byte sequence that is not UTF-8 throws, never becomes U+FFFD. A BOM is kept (JSON refuses it). */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

interface BodyLimitOptions {
  readonly maxBytes?: number;
}

export function bodyLimit({
  maxBytes = MAX_BODY_BYTES,
}: BodyLimitOptions = {}): MiddlewareObj<APIGatewayProxyEvent> {
  const tooLarge = () => new InvalidInputError(`request body is larger than ${maxBytes} bytes`);
  return {
    before: ({ event }) => {
      if (typeof event.body !== "string") return;
      if (!event.isBase64Encoded) {
        if (Buffer.byteLength(event.body, "utf8") > maxBytes) throw tooLarge();
        return;
      }
      // Base64 holds 3 bytes in 4 characters: a body far over the limit is refused before decoding.
      if (Buffer.byteLength(event.body, "base64") > maxBytes) throw tooLarge();
      let text: string;
      try {
        text = utf8.decode(Buffer.from(event.body, "base64"));
      } catch {
        throw new InvalidInputError("request body is not valid UTF-8");
      }
      event.body = text;
      event.isBase64Encoded = false;
    },
  };
}
