/**
 * The DynamoDB document client every repository shares, created once per process (cold start).
 * Locally the endpoint comes from AWS_ENDPOINT_URL_DYNAMODB, which the SDK reads by itself.
 */
import { DynamoDBClient, type DynamoDBClientConfig } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { TableDefinition } from "./tables.js";

let shared: DynamoDBDocumentClient | undefined;

export function documentClientFor(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export function sharedDocumentClient(config: DynamoDBClientConfig = {}): DynamoDBDocumentClient {
  shared ??= documentClientFor(new DynamoDBClient(config));
  return shared;
}

/** The physical name of a table, from the environment variable its definition names. */
export function tableNameFromEnv(table: TableDefinition, env: NodeJS.ProcessEnv = process.env): string {
  const name = env[table.envVar];
  if (!name) throw new Error(`environment variable ${table.envVar} is not set`);
  return name;
}
