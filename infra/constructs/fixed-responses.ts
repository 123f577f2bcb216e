/**
 * Methods answered by API Gateway itself with a fixed contract error (MOCK integration): no
 * authorizer and no API key, because they touch nothing and reveal nothing.
 */
import { Validations } from "aws-cdk-lib";
import {
  AuthorizationType,
  type IResource,
  type Method,
  MockIntegration,
  PassthroughBehavior,
} from "aws-cdk-lib/aws-apigateway";
import { REQUEST_ID_HEADER_SOURCE } from "./gateway-responses.js";

const REQUEST_ID_PARAM = "method.response.header.x-request-id";

/**
 * `ANY` on `resource` answering `status` with `{"error": code}`. Explicit methods on the same
 * resource take precedence over `ANY`, so this only catches the methods a path does not serve.
 */
export function addFixedErrorMethod(resource: IResource, status: number, code: string): Method {
  const statusCode = String(status);
  const integration = new MockIntegration({
    // No request template: the mock then always returns its default (only) integration response,
    // whatever the request's content type or body (a template would 415 unknown content types).
    passthroughBehavior: PassthroughBehavior.WHEN_NO_TEMPLATES,
    integrationResponses: [
      {
        statusCode,
        responseTemplates: { "application/json": JSON.stringify({ error: code }) },
        responseParameters: { [REQUEST_ID_PARAM]: REQUEST_ID_HEADER_SOURCE },
      },
    ],
  });
  const method = resource.addMethod("ANY", integration, {
    authorizationType: AuthorizationType.NONE,
    apiKeyRequired: false,
    methodResponses: [{ statusCode, responseParameters: { [REQUEST_ID_PARAM]: true } }],
  });
  Validations.of(method).acknowledge({
    id: "AwsSolutions-APIG4",
    reason: `Fixed ${statusCode} ${code} from a MOCK integration: it reaches no backend and reveals nothing.`,
  });
  return method;
}
