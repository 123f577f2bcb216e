/**
 * The DynamoDB document client every repository shares, created once per process (cold start).
 * Locally the endpoint comes from AWS_ENDPOINT_URL_DYNAMODB, which the SDK reads by itself.
 */
import { DynamoDBClient, type DynamoDBClientConfig } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { countRequestWork } from "../observability/request-capacity.js";
import { LAMBDA_RETRY_LIMITS, type RetryLimits } from "./retry-limits.js";
import type { TableDefinition } from "./tables.js";

let shared: DynamoDBDocumentClient | undefined;

/**
 * Binary attributes decoded by Node's own base64 decoder. The SDK's default first matches every
 * value against a regular expression, which took about 7% of a search's CPU on packed entry
 * blocks; DynamoDB's answers are already checked against their CRC32 by the SDK.
 */
export const base64Decoder = (input: string): Uint8Array => Buffer.from(input, "base64");

/**
 * A Lambda client config whose calls end within `retryBudgetMs(limits)`. Without
 * `throwOnRequestTimeout` the SDK's `requestTimeout` only logs a warning and the attempt runs on
 * (up to the SDK's 5-minute socket timeout), so that flag is what makes the limit a limit.
 */
export function boundedClientConfig(limits: RetryLimits): DynamoDBClientConfig {
  return {
    maxAttempts: limits.maxAttempts,
    retryMode: "standard",
    requestHandler: {
      connectionTimeout: Math.min(1_000, limits.attemptTimeoutMs),
      requestTimeout: limits.attemptTimeoutMs,
      throwOnRequestTimeout: true,
    },
    base64Decoder,
  };
}

/** Route functions (LAMBDA_RETRY_LIMITS). */
export const LAMBDA_CLIENT_CONFIG: DynamoDBClientConfig = boundedClientConfig(LAMBDA_RETRY_LIMITS);

/**
 * What a load on AWS waits between its last write and its flip, so that eventually consistent
 * reads and the byPhone index hold every write of the generation it publishes (docs/data-model.md).
 */
export const AWS_SETTLE_MS = 1_000;

/**
 * The document client of `client`, which loses the SDK's logger middleware on the way: with no
 * logger configured (ours is Powertools'), that middleware still copied every call's input and
 * output through the schema's sensitive-data filter to hand them to a no-op `info`, about 8% of a
 * loading process's CPU, and as much of a search that reads many items.
 */
export function documentClientFor(client: DynamoDBClient): DynamoDBDocumentClient {
  client.middlewareStack.remove("loggerMiddleware");
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export function sharedDocumentClient(
  config: DynamoDBClientConfig = LAMBDA_CLIENT_CONFIG,
): DynamoDBDocumentClient {
  if (!shared) {
    const client = new DynamoDBClient(config);
    // Each request's read capacity, calls and latency, for its metrics (lib/observability/metrics.ts).
    countRequestWork(client);
    shared = documentClientFor(client);
  }
  return shared;
}

/** The physical name of a table, from the environment variable its definition names. */
export function tableNameFromEnv(table: TableDefinition, env: NodeJS.ProcessEnv = process.env): string {
  const name = env[table.envVar];
  if (!name) throw new Error(`environment variable ${table.envVar} is not set`);
  return name;
}
