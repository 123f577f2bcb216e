/** The IAM policy a TOKEN authorizer returns to API Gateway. */
import type { APIGatewayAuthorizerResult } from "aws-lambda";
import type { AuthorizerContext } from "./principal.js";

/**
 * `arn:…:apiId/stage/METHOD/path` → `arn:…:apiId/stage/*`. API Gateway caches the policy per key,
 * so it must allow every route of the API; handlers make the per-route decisions.
 */
export function wildcardResource(methodArn: string): string {
  const [apiArn, stage] = methodArn.split("/");
  if (!apiArn || !stage) throw new Error("methodArn is not an execute-api ARN");
  return `${apiArn}/${stage}/*`;
}

/** The API stage a request was made on: the second part of `arn:…:apiId/stage/METHOD/path`. */
export function methodArnStage(methodArn: string): string | undefined {
  return methodArn.split("/")[1] || undefined;
}

export function allowPolicy(
  methodArn: string,
  context: AuthorizerContext,
  usageIdentifierKey: string,
): APIGatewayAuthorizerResult {
  return {
    principalId: context.keyId,
    policyDocument: {
      Version: "2012-10-17",
      Statement: [{ Action: "execute-api:Invoke", Effect: "Allow", Resource: wildcardResource(methodArn) }],
    },
    context,
    usageIdentifierKey,
  };
}
