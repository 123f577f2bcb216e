import type { APIGatewayProxyResult } from "aws-lambda";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * On every response, the functions' and the gateway's own (infra/constructs sends them on AWS):
 * answers carry personal data, so no cache may store them, and a browser must never sniff a body
 * into another type than the one declared.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

export function jsonResponse(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { "content-type": JSON_CONTENT_TYPE, ...SECURITY_HEADERS, ...headers },
    body: JSON.stringify(body),
  };
}
