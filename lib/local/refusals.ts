/**
 * What Node refuses before a request reaches the gateway, answered in the contract's shape: a JSON
 * `invalid_input` error with `x-request-id` and the security headers, where Node alone would send a
 * bare status. The status stays Node's (HTTP's) own: 400, or 431, 408, 417 where HTTP has a
 * precise one; the body carries the contract code (docs/decisions.md, "Errors").
 */
import { maxHeaderSize, STATUS_CODES } from "node:http";
import type { APIGatewayProxyResult } from "aws-lambda";
import { jsonResponse } from "../http/response.js";

export interface Refusal {
  status: number;
  message: string;
  /** For the log: Node's error code, or which check refused. Never caller text. */
  cause: string;
}

/**
 * The refusal for Node's `clientError`. The request line counts towards Node's header limit, so a
 * path too long and headers too large are one error: 431, as Node itself answers.
 */
export function clientErrorRefusal(code: string | undefined): Refusal {
  const cause = code ?? "unknown";
  if (code === "HPE_HEADER_OVERFLOW") {
    return { status: 431, message: `request line and headers are over ${maxHeaderSize} bytes`, cause };
  }
  if (code === "ERR_HTTP_REQUEST_TIMEOUT")
    return { status: 408, message: "request not received in time", cause };
  return { status: 400, message: "malformed HTTP request", cause };
}

/** RFC 9112: an HTTP/1.1 request without Host is answered 400 (Node's check would answer it bare). */
export const MISSING_HOST: Refusal = {
  status: 400,
  message: "an HTTP/1.1 request must have a Host header",
  cause: "missing Host header",
};

/** A request target Node lets through that is no URL (`http://[bad/`): malformed, as Node's own. */
export const UNPARSABLE_TARGET: Refusal = {
  status: 400,
  message: "malformed HTTP request",
  cause: "request target is not a URL",
};

/** An `Expect` other than `100-continue` (Node's default would answer a bare 417). */
export const UNSUPPORTED_EXPECT: Refusal = {
  status: 417,
  message: "the Expect header may only be 100-continue",
  cause: "unsupported Expect header",
};

/** The refusal as a response. */
export function refusalResponse(refusal: Refusal, requestId: string): APIGatewayProxyResult {
  return jsonResponse(
    refusal.status,
    { error: "invalid_input", message: refusal.message },
    { "x-request-id": requestId },
  );
}

/** A whole HTTP/1.1 response as text, for a socket Node gives no response object for; it closes. */
export function rawHttpResponse(response: APIGatewayProxyResult): string {
  const head = [`HTTP/1.1 ${response.statusCode} ${STATUS_CODES[response.statusCode] ?? "Error"}`];
  for (const [name, value] of Object.entries(response.headers ?? {})) head.push(`${name}: ${value}`);
  head.push(`content-length: ${Buffer.byteLength(response.body)}`, "connection: close");
  return `${head.join("\r\n")}\r\n\r\n${response.body}`;
}
