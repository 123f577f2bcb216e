/**
 * One error type per contract error, and the one place they become HTTP responses. Only
 * `invalid_input` carries a message; everything unexpected becomes a bare 500 `internal_error`.
 */
import { callerText } from "../observability/caller-text.js";

export type ErrorCode =
  | "invalid_input"
  | "invalid_company_id"
  | "invalid_api_key"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "rate_limited"
  | "internal_error";

/** Status of every contract error; the CDK gateway responses are built from this table too. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  invalid_input: 400,
  invalid_company_id: 400,
  invalid_api_key: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  internal_error: 500,
};

/**
 * Headers an error answer carries because of its code alone. API Gateway's own answers on AWS send
 * them too (infra/constructs/gateway-responses.ts reads this table).
 */
export const ERROR_CODE_HEADERS: Readonly<Partial<Record<ErrorCode, Readonly<Record<string, string>>>>> = {
  // RFC 9110: a 401 names the scheme the credentials must use.
  invalid_api_key: { "www-authenticate": "Bearer" },
};

export abstract class ApiError extends Error {
  abstract readonly code: ErrorCode;
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export class InvalidInputError extends ApiError {
  readonly code = "invalid_input";
}

export class InvalidCompanyIdError extends ApiError {
  readonly code = "invalid_company_id";
  constructor() {
    super("invalid company id");
  }
}

export class InvalidApiKeyError extends ApiError {
  readonly code = "invalid_api_key";
  constructor() {
    super("invalid api key");
  }
}

export class ForbiddenError extends ApiError {
  readonly code = "forbidden";
  /**
   * For logs only; the response says `forbidden` and nothing more. A reason quotes caller text
   * (the company id asked for), so it is redacted and cut here, once, whoever throws.
   */
  readonly reason: string;
  constructor(reason: string) {
    const loggable = callerText(reason);
    super(loggable);
    this.reason = loggable;
  }
}

export class NotFoundError extends ApiError {
  readonly code = "not_found";
  constructor() {
    super("not found");
  }
}

export class MethodNotAllowedError extends ApiError {
  /** The methods the path does serve: the answer's `Allow` header. */
  readonly allowedMethods: readonly string[];
  readonly code = "method_not_allowed";
  constructor(allowedMethods: readonly string[]) {
    super("method not allowed");
    this.allowedMethods = allowedMethods;
  }
}

export class RateLimitedError extends ApiError {
  readonly retryAfterSeconds: number;
  readonly code = "rate_limited";
  constructor(retryAfterSeconds: number) {
    super("rate limited");
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class InternalError extends ApiError {
  readonly code = "internal_error";
}

export interface ErrorBody {
  error: ErrorCode;
  message?: string;
}

/** The body and extra headers for any thrown value; unknown errors become `internal_error`. */
export function errorResponseParts(error: unknown): {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
} {
  if (!(error instanceof ApiError) || error instanceof InternalError) {
    return { status: 500, body: { error: "internal_error" }, headers: {} };
  }
  const body: ErrorBody =
    error instanceof InvalidInputError
      ? { error: error.code, message: error.message }
      : { error: error.code };
  const headers: Record<string, string> = { ...ERROR_CODE_HEADERS[error.code] };
  if (error instanceof RateLimitedError) headers["retry-after"] = String(error.retryAfterSeconds);
  if (error instanceof MethodNotAllowedError) headers.allow = error.allowedMethods.join(", ");
  return { status: error.status, body, headers };
}
