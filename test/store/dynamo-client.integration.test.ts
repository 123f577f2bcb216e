/**
 * The Lambda DynamoDB clients' retry limits are real limits: against an endpoint that accepts
 * the connection and never answers, a call ends by itself after exactly its attempts, each one
 * cut off by the client. (Before `throwOnRequestTimeout`, the SDK only warned at `requestTimeout`
 * and an attempt hung until its 5-minute socket timeout.)
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DynamoDBClient, type DynamoDBClientConfig, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { Retry } from "@smithy/core/retry";
import { boundedClientConfig, LAMBDA_CLIENT_CONFIG } from "../../lib/store/dynamo-client.js";
import {
  AUTHORIZER_RETRY_LIMITS,
  LAMBDA_RETRY_LIMITS,
  MAX_RETRY_BASE_DELAY_MS,
  retryBudgetMs,
} from "../../lib/store/retry-limits.js";

let server: Server;
let endpoint: string;
/** The table name of every call the endpoint received. */
const attempts: string[] = [];

beforeAll(async () => {
  server = createServer((request) => {
    // Read the call (to learn which client made it), never answer it.
    let body = "";
    request.on("data", (data: Buffer) => {
      body += data.toString("utf8");
    });
    request.on("end", () => attempts.push(String((JSON.parse(body) as { TableName?: string }).TableName)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** Calls GetItem on `table` (a name this call alone uses) and counts the attempts the endpoint saw. */
async function callHangingEndpoint(
  config: DynamoDBClientConfig,
  table: string,
): Promise<{ error: unknown; attempts: number }> {
  const count = () => attempts.filter((name) => name === table).length;
  const client = new DynamoDBClient({
    ...config,
    region: "eu-west-1",
    endpoint,
    credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "secret" },
  });
  try {
    await client.send(new GetItemCommand({ TableName: table, Key: { h: { S: "x" } } }));
    return { error: undefined, attempts: count() };
  } catch (error) {
    return { error, attempts: count() };
  } finally {
    client.destroy();
  }
}

describe("Lambda DynamoDB clients against an endpoint that never answers", () => {
  it("give up after maxAttempts attempts, each cut off (route functions and the authorizer)", async () => {
    const [routes, authorizer] = await Promise.all([
      callHangingEndpoint(LAMBDA_CLIENT_CONFIG, "routes"),
      callHangingEndpoint(boundedClientConfig(AUTHORIZER_RETRY_LIMITS), "authorizer"),
    ]);
    for (const [outcome, limits] of [
      [routes, LAMBDA_RETRY_LIMITS],
      [authorizer, AUTHORIZER_RETRY_LIMITS],
    ] as const) {
      expect(outcome.error).toMatchObject({ name: "TimeoutError" });
      expect(outcome.attempts).toBe(limits.maxAttempts);
    }
  });
});

describe("retryBudgetMs", () => {
  it("adds every attempt's cut-off and every backoff at its maximum", () => {
    expect(retryBudgetMs({ maxAttempts: 1, attemptTimeoutMs: 700 })).toBe(700);
    expect(retryBudgetMs({ maxAttempts: 2, attemptTimeoutMs: 700 })).toBe(2 * 700 + MAX_RETRY_BASE_DELAY_MS);
    expect(retryBudgetMs({ maxAttempts: 3, attemptTimeoutMs: 3_000 })).toBe(
      3 * 3_000 + MAX_RETRY_BASE_DELAY_MS + 2 * MAX_RETRY_BASE_DELAY_MS,
    );
  });

  it("uses a backoff base no smaller than the installed SDK's largest", () => {
    expect(MAX_RETRY_BASE_DELAY_MS).toBeGreaterThanOrEqual(Retry.throttlingDelay());
    expect(MAX_RETRY_BASE_DELAY_MS).toBeGreaterThanOrEqual(Retry.delay());
  });
});
