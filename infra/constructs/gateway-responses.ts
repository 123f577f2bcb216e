/**
 * What API Gateway answers by itself (no Lambda involved) must still keep the contract: a
 * contract status, a `{"error": …}` body, `x-request-id` and the headers every answer carries.
 * This table is the whole mapping; the statuses and headers come from the functions' own tables
 * (lib/http/errors.ts, lib/http/response.ts), so the two cannot drift.
 */
import { ResponseType, type RestApi } from "aws-cdk-lib/aws-apigateway";
import { ERROR_CODE_HEADERS, ERROR_STATUS, type ErrorBody, type ErrorCode } from "../../lib/http/errors.js";
import { SECURITY_HEADERS } from "../../lib/http/response.js";
import type { StageConfig } from "../config.js";

/** The request ID every response carries; the same value the access log and the functions use. */
export const REQUEST_ID_HEADER_SOURCE = "context.requestId";

/** A fixed header value as API Gateway mappings write it: in single quotes. */
export const staticHeaderValue = (value: string): string => `'${value}'`;

/**
 * The fixed headers of every answer API Gateway makes itself with this error code: the security
 * headers, and the code's own (`WWW-Authenticate: Bearer` on 401), as header name → mapping value.
 */
export function fixedErrorHeaders(code: ErrorCode): Record<string, string> {
  const fixed = { ...SECURITY_HEADERS, ...ERROR_CODE_HEADERS[code] };
  return Object.fromEntries(Object.entries(fixed).map(([name, value]) => [name, staticHeaderValue(value)]));
}

const BODY_OVER_LIMIT_MESSAGE = "request body is over 1 MiB (1048576 bytes)";

interface GatewayResponseSpec {
  readonly type: ResponseType;
  readonly body: ErrorBody;
  readonly retryAfterSeconds?: number;
}

const answer = (type: ResponseType, error: ErrorCode, message?: string): GatewayResponseSpec => ({
  type,
  body: message === undefined ? { error } : { error, message },
});

function gatewayResponseSpecs(config: StageConfig): GatewayResponseSpec[] {
  const { throttled, quotaExceeded } = config.retryAfterSeconds;
  const specs: GatewayResponseSpec[] = [
    // The authorizer threw "Unauthorized", or the header is missing: no valid key.
    answer(ResponseType.UNAUTHORIZED, "invalid_api_key"),
    // The authorizer's usage key is not (or no longer) an enabled key of a plan on this stage.
    answer(ResponseType.INVALID_API_KEY, "invalid_api_key"),
    answer(ResponseType.ACCESS_DENIED, "forbidden"),
    { ...answer(ResponseType.THROTTLED, "rate_limited"), retryAfterSeconds: throttled },
    { ...answer(ResponseType.QUOTA_EXCEEDED, "rate_limited"), retryAfterSeconds: quotaExceeded },
    // No resource or no method for the path: API Gateway calls it "missing token" or "not found".
    answer(ResponseType.MISSING_AUTHENTICATION_TOKEN, "not_found"),
    answer(ResponseType.RESOURCE_NOT_FOUND, "not_found"),
    answer(ResponseType.BAD_REQUEST_BODY, "invalid_input", "request body is invalid"),
    answer(ResponseType.REQUEST_TOO_LARGE, "invalid_input", BODY_OVER_LIMIT_MESSAGE),
    // Any other client error API Gateway raises itself (unsupported media type, bad parameters…).
    answer(ResponseType.DEFAULT_4XX, "invalid_input"),
    answer(ResponseType.DEFAULT_5XX, "internal_error"),
    answer(ResponseType.INTEGRATION_FAILURE, "internal_error"),
    answer(ResponseType.INTEGRATION_TIMEOUT, "internal_error"),
    answer(ResponseType.AUTHORIZER_FAILURE, "internal_error"),
    answer(ResponseType.AUTHORIZER_CONFIGURATION_ERROR, "internal_error"),
    answer(ResponseType.API_CONFIGURATION_ERROR, "internal_error"),
  ];
  if (config.bodySizeGuard) {
    // The web ACL holds only the body-size rule, so a WAF block always means "body too large".
    specs.push(answer(ResponseType.WAF_FILTERED, "invalid_input", BODY_OVER_LIMIT_MESSAGE));
  }
  return specs;
}

export function addGatewayResponses(api: RestApi, config: StageConfig): void {
  for (const spec of gatewayResponseSpecs(config)) {
    const headers: Record<string, string> = {
      ...fixedErrorHeaders(spec.body.error),
      "x-request-id": REQUEST_ID_HEADER_SOURCE,
    };
    if (spec.retryAfterSeconds !== undefined)
      headers["Retry-After"] = staticHeaderValue(String(spec.retryAfterSeconds));
    api.addGatewayResponse(spec.type.responseType, {
      type: spec.type,
      statusCode: String(ERROR_STATUS[spec.body.error]),
      responseHeaders: headers,
      templates: { "application/json": JSON.stringify(spec.body) },
    });
  }
}
