/**
 * API Gateway TOKEN authorizer for both APIs. A missing, malformed, unknown or revoked key (or a
 * test key on prod) throws
 * `Unauthorized` (API Gateway answers 401 `invalid_api_key`); a valid key gets an Allow policy for
 * the whole API, its usage key for throttling, and a context describing the caller.
 */
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import middy from "@middy/core";
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from "aws-lambda";
import { authorizeHeader } from "../lib/auth/authorize.js";
import { cachedKeyLookup } from "../lib/auth/key-lookup-cache.js";
import { allowPolicy, methodArnStage } from "../lib/auth/policy.js";
import { toAuthorizerContext } from "../lib/auth/principal.js";
import { callerText } from "../lib/observability/caller-text.js";
import { logger } from "../lib/observability/logger.js";
import { countUnknownKey } from "../lib/observability/metrics.js";
import { boundedClientConfig, sharedDocumentClient, tableNameFromEnv } from "../lib/store/dynamo-client.js";
import { keysRepository } from "../lib/store/keys-repository.js";
import { AUTHORIZER_RETRY_LIMITS } from "../lib/store/retry-limits.js";
import { KEYS_TABLE } from "../lib/store/tables.js";

// Retries that end before the function's 5 s timeout (checked at synth, infra/stateless-stack.ts).
const repository = keysRepository(
  sharedDocumentClient(boundedClientConfig(AUTHORIZER_RETRY_LIMITS)),
  tableNameFromEnv(KEYS_TABLE),
);
/**
 * One read per key hash at a time, a found key kept 1 s (a revoke counts within API Gateway's
 * cache TTL and 1 s) and an unknown one 10 s, so a forged key sent again costs no read.
 */
const keys = {
  findByHash: cachedKeyLookup(repository.findByHash, {
    foundTtlMs: 1_000,
    unknownTtlMs: 10_000,
    maxEntries: 10_000,
  }),
};

async function authorize(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  // The stage as API Gateway (or the local server, with its STAGE) names it in the method ARN.
  const outcome = await authorizeHeader(event.authorizationToken, keys, methodArnStage(event.methodArn));
  if (!outcome.allowed) {
    logger.info("key refused", { reason: outcome.reason, keyId: outcome.keyId });
    // A key with a valid checksum that no record holds: forged, or deleted. Counted, never logged.
    if (outcome.reason === "unknown") countUnknownKey();
    // The exact message API Gateway turns into a 401 (gateway response UNAUTHORIZED).
    throw new Error("Unauthorized");
  }
  const { record } = outcome;
  // The partner name is operator text, which may hold anything (a key, 20,000 characters): logged
  // here, and by API Gateway's access log from the context, which can neither redact nor cut it.
  const partner = callerText(record.partner);
  logger.info("key accepted", { keyId: record.keyId, partner });
  return allowPolicy(event.methodArn, toAuthorizerContext({ ...record, partner }), record.usageKey);
}

export const handler = middy(authorize).use(
  injectLambdaContext(logger, { resetKeys: true, logEvent: false }),
);
