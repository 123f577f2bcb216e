/**
 * API Gateway TOKEN authorizer for both APIs. A missing, malformed, unknown or revoked key throws
 * `Unauthorized` (API Gateway answers 401 `invalid_api_key`); a valid key gets an Allow policy for
 * the whole API, its usage key for throttling, and a context describing the caller.
 */
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import middy from "@middy/core";
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from "aws-lambda";
import { authorizeHeader } from "../lib/auth/authorize.js";
import { allowPolicy } from "../lib/auth/policy.js";
import { toAuthorizerContext } from "../lib/auth/principal.js";
import { logger } from "../lib/observability/logger.js";
import { boundedClientConfig, sharedDocumentClient, tableNameFromEnv } from "../lib/store/dynamo-client.js";
import { keysRepository } from "../lib/store/keys-repository.js";
import { AUTHORIZER_RETRY_LIMITS } from "../lib/store/retry-limits.js";
import { KEYS_TABLE } from "../lib/store/tables.js";

// Retries that end before the function's 5 s timeout (checked at synth, infra/stateless-stack.ts).
const keys = keysRepository(
  sharedDocumentClient(boundedClientConfig(AUTHORIZER_RETRY_LIMITS)),
  tableNameFromEnv(KEYS_TABLE),
);

async function authorize(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const outcome = await authorizeHeader(event.authorizationToken, keys);
  if (!outcome.allowed) {
    logger.info("key refused", { reason: outcome.reason, keyId: outcome.keyId });
    // The exact message API Gateway turns into a 401 (gateway response UNAUTHORIZED).
    throw new Error("Unauthorized");
  }
  const { record } = outcome;
  logger.info("key accepted", { keyId: record.keyId, partner: record.partner });
  return allowPolicy(event.methodArn, toAuthorizerContext(record), record.usageKey);
}

export const handler = middy(authorize).use(
  injectLambdaContext(logger, { resetKeys: true, logEvent: false }),
);
