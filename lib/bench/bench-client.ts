/**
 * The benchmark's own DynamoDB client for a local engine. Two differences from localClient():
 *
 * - Keep-alive sockets stay pooled for a minute when idle: the engine (bench-engine.ts) keeps them
 *   longer still, so the client never sends on a connection the server is about to drop.
 * - A long request timeout: a naive persons search sends 50 parallel Queries of 1 MB pages to an
 *   engine that serves them one slice at a time, and one page can take longer than 10 s to arrive.
 */
import { Agent } from "node:http";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";

export function benchClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: "local",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
    // One retry, as localClient(): a dropped socket must not end a run of several minutes. A retried
    // call counts as one call, its latency as both attempts (it would show in p99).
    maxAttempts: 2,
    requestHandler: {
      httpAgent: new Agent({ keepAlive: true, maxSockets: 64, timeout: 60_000 }),
      connectionTimeout: 5_000,
      requestTimeout: 120_000,
    },
  });
}
