/**
 * Methods answered by API Gateway itself with a fixed contract error (MOCK integration): no
 * authorizer and no API key, because they touch nothing and reveal nothing. They carry the same
 * headers as every other answer, and a 405 says in `Allow` which methods the path serves.
 */
import { Validations } from "aws-cdk-lib";
import {
  AuthorizationType,
  type IResource,
  type Method,
  MockIntegration,
  PassthroughBehavior,
} from "aws-cdk-lib/aws-apigateway";
import type { ErrorCode } from "../../lib/http/errors.js";
import { fixedErrorHeaders, REQUEST_ID_HEADER_SOURCE, staticHeaderValue } from "./gateway-responses.js";

const header = (name: string) => `method.response.header.${name}`;

/**
 * `ANY` on `resource` answering `status` with `{"error": code}`. Explicit methods on the same
 * resource take precedence over `ANY`, so this only catches the methods a path does not serve;
 * `allowedMethods` (for a 405) are the ones it does serve.
 */
export function addFixedErrorMethod(
  resource: IResource,
  status: number,
  code: ErrorCode,
  allowedMethods: readonly string[] = [],
): Method {
  const statusCode = String(status);
  const headers: Record<string, string> = {
    ...fixedErrorHeaders(code),
    "x-request-id": REQUEST_ID_HEADER_SOURCE,
  };
  if (allowedMethods.length > 0) headers.allow = staticHeaderValue(allowedMethods.join(", "));
  const responseParameters = Object.fromEntries(
    Object.entries(headers).map(([name, source]) => [header(name), source]),
  );
  const integration = new MockIntegration({
    // No request template: the mock then always returns its default (only) integration response,
    // whatever the request's content type or body (a template would 415 unknown content types).
    passthroughBehavior: PassthroughBehavior.WHEN_NO_TEMPLATES,
    integrationResponses: [
      {
        statusCode,
        responseTemplates: { "application/json": JSON.stringify({ error: code }) },
        responseParameters,
      },
    ],
  });
  const method = resource.addMethod("ANY", integration, {
    authorizationType: AuthorizationType.NONE,
    apiKeyRequired: false,
    methodResponses: [
      {
        statusCode,
        responseParameters: Object.fromEntries(Object.keys(responseParameters).map((name) => [name, true])),
      },
    ],
  });
  Validations.of(method).acknowledge({
    id: "AwsSolutions-APIG4",
    reason: `Fixed ${statusCode} ${code} from a MOCK integration: it reaches no backend and reveals nothing.`,
  });
  return method;
}
