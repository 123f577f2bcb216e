/**
 * The DynamoDB document client every repository shares, created once per process (cold start).
 * Locally the endpoint comes from AWS_ENDPOINT_URL_DYNAMODB, which the SDK reads by itself.
 */
import { DynamoDBClient, type DynamoDBClientConfig } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { TableDefinition } from "./tables.js";

let shared: DynamoDBDocumentClient | undefined;

/**
 * Binary attributes decoded by Node's own base64 decoder. The SDK's default first matches every
 * value against a regular expression, which took about 7% of a search's CPU on packed entry
 * blocks; DynamoDB's answers are already checked against their CRC32 by the SDK.
 */
export const base64Decoder = (input: string): Uint8Array => Buffer.from(input, "base64");

/**
 * A bounded retry budget: the SDK's standard mode retries throttling, 5xx and timeouts with
 * jittered exponential backoff, at most 3 attempts, each cut off after 3 s. Within a 10 s function
 * that leaves the request deadline (lib/http/pipeline.ts) the last word.
 */
export const LAMBDA_CLIENT_CONFIG: DynamoDBClientConfig = {
  maxAttempts: 3,
  retryMode: "standard",
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
  base64Decoder,
};

export function documentClientFor(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export function sharedDocumentClient(
  config: DynamoDBClientConfig = LAMBDA_CLIENT_CONFIG,
): DynamoDBDocumentClient {
  shared ??= documentClientFor(new DynamoDBClient(config));
  return shared;
}

/** The physical name of a table, from the environment variable its definition names. */
export function tableNameFromEnv(table: TableDefinition, env: NodeJS.ProcessEnv = process.env): string {
  const name = env[table.envVar];
  if (!name) throw new Error(`environment variable ${table.envVar} is not set`);
  return name;
}
