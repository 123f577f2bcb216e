/**
 * The API access log line, one JSON object per request. It names the caller by the authorizer's
 * `keyId` (safe to log) and never by the Authorization header or the API Gateway key value.
 * `$context.error.message` is left out on purpose: for an unknown path API Gateway's message
 * quotes a hash of the Authorization header. `errorType` says what went wrong.
 *
 * No caller text at all: API Gateway can neither redact nor cut a value, so the path is logged as
 * the matched resource's template (`$context.resourcePath`, e.g. `/v1/companies/{companyId}/hello`)
 * and never as sent (`$context.path` would log a key pasted as a company id), and the User-Agent
 * header is left out. The partner name, operator text, is the one the authorizer's context gives:
 * already redacted, escaped and cut (functions/authorizer.ts).
 */

interface Field {
  readonly name: string;
  readonly source: string;
  /** Unquoted in the JSON: only for variables API Gateway always fills with a number. */
  readonly numeric?: boolean;
}

const ACCESS_LOG_FIELDS: readonly Field[] = [
  { name: "requestId", source: "$context.requestId" },
  // API Gateway's own id (the x-amz-apigw-id header), which a caller cannot set: AWS Support asks for it.
  { name: "extendedRequestId", source: "$context.extendedRequestId" },
  { name: "requestTime", source: "$context.requestTimeEpoch", numeric: true },
  { name: "httpMethod", source: "$context.httpMethod" },
  { name: "resourcePath", source: "$context.resourcePath" },
  { name: "status", source: "$context.status", numeric: true },
  { name: "responseLatency", source: "$context.responseLatency", numeric: true },
  { name: "integrationLatency", source: "$context.integrationLatency" },
  // The function's own status code, and Lambda's (e.g. 429 when Lambda throttled the function).
  { name: "integrationStatus", source: "$context.integration.status" },
  { name: "lambdaStatus", source: "$context.integrationStatus" },
  { name: "responseLength", source: "$context.responseLength" },
  { name: "keyId", source: "$context.authorizer.keyId" },
  { name: "partner", source: "$context.authorizer.partner" },
  { name: "apiKeyId", source: "$context.identity.apiKeyId" },
  { name: "authorizerStatus", source: "$context.authorizer.status" },
  { name: "authorizerLatency", source: "$context.authorizer.latency" },
  // The Lambda invocation ids of the authorizer and of the route function: each is the
  // `function_request_id` of that function's log lines, so the access log joins both.
  { name: "authorizerRequestId", source: "$context.authorizer.requestId" },
  { name: "integrationRequestId", source: "$context.integration.requestId" },
  { name: "errorType", source: "$context.error.responseType" },
  { name: "wafStatus", source: "$context.wafResponseCode" },
  { name: "sourceIp", source: "$context.identity.sourceIp" },
];

/** `api` is a constant field so one Logs Insights query can read both APIs' log groups. */
export function accessLogFormat(api: string): string {
  const parts = [`"api":"${api}"`];
  for (const field of ACCESS_LOG_FIELDS) {
    parts.push(field.numeric ? `"${field.name}":${field.source}` : `"${field.name}":"${field.source}"`);
  }
  return `{${parts.join(",")}}`;
}
