/** What the client throws for an answer other than 2xx: everything a partner needs to act or report it. */
import type { ErrorCode } from "./contract.js";

/** The contract's `error` values, plus one for an answer that is not the contract's JSON at all. */
export type ClientErrorCode = ErrorCode | "unexpected_response";

export class PartnerDirectoryError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The body's `error`, or `unexpected_response` when the body was not a contract error. */
  readonly error: ClientErrorCode;
  /** The response's `x-request-id`: give it to support, with the time. */
  readonly requestId: string | undefined;
  /** From `Retry-After` on 429, in seconds. */
  readonly retryAfterSeconds: number | undefined;
  override readonly name = "PartnerDirectoryError";

  constructor(
    status: number,
    error: ClientErrorCode,
    /** The body's `message` (only `invalid_input` has one), else a short description. */
    message: string,
    requestId: string | undefined,
    retryAfterSeconds: number | undefined,
  ) {
    super(message);
    this.status = status;
    this.error = error;
    this.requestId = requestId;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Every contract code; a Record so that the compiler refuses a code added to ErrorCode but not here. */
const CONTRACT_CODES: Readonly<Record<ErrorCode, true>> = {
  invalid_input: true,
  invalid_company_id: true,
  invalid_api_key: true,
  forbidden: true,
  not_found: true,
  method_not_allowed: true,
  rate_limited: true,
  internal_error: true,
};
const ERROR_CODES: ReadonlySet<string> = new Set(Object.keys(CONTRACT_CODES));

/** The error for a non-2xx answer, from its status, headers and body text. */
export function errorFromResponse(status: number, headers: Headers, bodyText: string): PartnerDirectoryError {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const code = typeof fields.error === "string" && ERROR_CODES.has(fields.error) ? fields.error : undefined;
  const message =
    typeof fields.message === "string" ? fields.message : `HTTP ${status}${code ? ` ${code}` : ""}`;
  return new PartnerDirectoryError(
    status,
    (code as ErrorCode | undefined) ?? "unexpected_response",
    message,
    headers.get("x-request-id") ?? undefined,
    parseRetryAfter(headers.get("retry-after")),
  );
}

/** `Retry-After` as seconds: delay-seconds or an HTTP date (RFC 9110); undefined when absent or bad. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (!/[a-z]/i.test(text) || Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
