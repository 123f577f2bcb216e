/**
 * What API Gateway answers by itself (no Lambda involved) must still keep the contract: a
 * contract status, a `{"error": …}` body and `x-request-id`. This table is the whole mapping.
 */
import { ResponseType, type RestApi } from "aws-cdk-lib/aws-apigateway";
import type { StageConfig } from "../config.js";

/** The request ID every response carries; the same value the access log and the functions use. */
export const REQUEST_ID_HEADER_SOURCE = "context.requestId";

export const BODY_OVER_LIMIT_MESSAGE = "request body is over 1 MiB (1048576 bytes)";

export interface GatewayResponseSpec {
  readonly type: ResponseType;
  readonly status: number;
  readonly body: { readonly error: string; readonly message?: string };
  readonly retryAfterSeconds?: number;
}

const invalidApiKey = { error: "invalid_api_key" } as const;
const internalError = { error: "internal_error" } as const;
const notFound = { error: "not_found" } as const;

export function gatewayResponseSpecs(config: StageConfig): GatewayResponseSpec[] {
  const specs: GatewayResponseSpec[] = [
    // The authorizer threw "Unauthorized": missing, malformed, unknown or revoked key.
    { type: ResponseType.UNAUTHORIZED, status: 401, body: invalidApiKey },
    // The authorizer's usage key is not (or no longer) an enabled key of a plan on this stage.
    { type: ResponseType.INVALID_API_KEY, status: 401, body: invalidApiKey },
    { type: ResponseType.ACCESS_DENIED, status: 403, body: { error: "forbidden" } },
    {
      type: ResponseType.THROTTLED,
      status: 429,
      body: { error: "rate_limited" },
      retryAfterSeconds: config.retryAfterSeconds.throttled,
    },
    {
      type: ResponseType.QUOTA_EXCEEDED,
      status: 429,
      body: { error: "rate_limited" },
      retryAfterSeconds: config.retryAfterSeconds.quotaExceeded,
    },
    // No resource or no method for the path: API Gateway calls both "missing token" or "not found".
    { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, status: 404, body: notFound },
    { type: ResponseType.RESOURCE_NOT_FOUND, status: 404, body: notFound },
    {
      type: ResponseType.BAD_REQUEST_BODY,
      status: 400,
      body: { error: "invalid_input", message: "request body is invalid" },
    },
    {
      type: ResponseType.REQUEST_TOO_LARGE,
      status: 400,
      body: { error: "invalid_input", message: BODY_OVER_LIMIT_MESSAGE },
    },
    // Any other client error API Gateway raises itself (unsupported media type, bad parameters…).
    { type: ResponseType.DEFAULT_4XX, status: 400, body: { error: "invalid_input" } },
    { type: ResponseType.DEFAULT_5XX, status: 500, body: internalError },
    { type: ResponseType.INTEGRATION_FAILURE, status: 500, body: internalError },
    { type: ResponseType.INTEGRATION_TIMEOUT, status: 500, body: internalError },
    { type: ResponseType.AUTHORIZER_FAILURE, status: 500, body: internalError },
    { type: ResponseType.AUTHORIZER_CONFIGURATION_ERROR, status: 500, body: internalError },
    { type: ResponseType.API_CONFIGURATION_ERROR, status: 500, body: internalError },
  ];
  if (config.bodySizeGuard) {
    // The web ACL holds only the body-size rule, so a WAF block always means "body too large".
    specs.push({
      type: ResponseType.WAF_FILTERED,
      status: 400,
      body: { error: "invalid_input", message: BODY_OVER_LIMIT_MESSAGE },
    });
  }
  return specs;
}

export function addGatewayResponses(api: RestApi, config: StageConfig): void {
  for (const spec of gatewayResponseSpecs(config)) {
    const headers: Record<string, string> = { "x-request-id": REQUEST_ID_HEADER_SOURCE };
    if (spec.retryAfterSeconds !== undefined) headers["Retry-After"] = `'${spec.retryAfterSeconds}'`;
    api.addGatewayResponse(spec.type.responseType, {
      type: spec.type,
      statusCode: String(spec.status),
      responseHeaders: headers,
      templates: { "application/json": JSON.stringify(spec.body) },
    });
  }
}
