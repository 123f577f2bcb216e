/**
 * Clients of a dynalite in this process hand it their requests without a socket
 * (lib/local/dynalite-in-process.ts): they get what a client over HTTP gets, answers and errors
 * alike, and open no connection. Other processes still use the port.
 */
import { getEventListeners } from "node:events";
import { Socket } from "node:net";
import {
  CreateTableCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import { jest } from "@jest/globals";
import { inProcessDynalite } from "../../lib/local/dynalite-in-process.js";
import { type Engine, localClient, startDynalite } from "../../lib/local/engines.js";

const TABLE = "in-process";

let engine: Engine | undefined;
const started = () => {
  if (!engine) throw new Error("dynalite did not start (see beforeAll)");
  return engine;
};

beforeAll(async () => {
  engine = await startDynalite();
  await started()
    .client()
    .send(
      new CreateTableCommand({
        TableName: TABLE,
        AttributeDefinitions: [
          { AttributeName: "p", AttributeType: "S" },
          { AttributeName: "s", AttributeType: "N" },
        ],
        KeySchema: [
          { AttributeName: "p", KeyType: "HASH" },
          { AttributeName: "s", KeyType: "RANGE" },
        ],
        BillingMode: "PAY_PER_REQUEST",
      }),
    );
  // A table is CREATING until a timer of dynalite's has run, as on AWS until it is ACTIVE.
  await waitUntilTableExists({ client: started().client(), maxWaitTime: 60 }, { TableName: TABLE });
  for (let s = 0; s < 5; s += 1)
    await started()
      .client()
      .send(
        new PutItemCommand({
          TableName: TABLE,
          Item: { p: { S: "a" }, s: { N: String(s) }, v: { S: "é".repeat(s) } },
        }),
      );
});
afterAll(async () => {
  await engine?.stop();
});

/** What a client gets for a few requests: answers, and errors by name and message. */
async function outcomes(client: DynamoDBClient) {
  const settle = (promise: Promise<{ $metadata: unknown }>) =>
    promise.then(
      ({ $metadata: _, ...answer }) => ({ answer }),
      (error: Error) => ({ error: { name: error.name, message: error.message } }),
    );
  return [
    await settle(
      client.send(
        new QueryCommand({
          TableName: TABLE,
          KeyConditionExpression: "p = :p AND s >= :s",
          ExpressionAttributeValues: { ":p": { S: "a" }, ":s": { N: "2" } },
          Limit: 2,
          ReturnConsumedCapacity: "TOTAL",
        }),
      ),
    ),
    await settle(
      client.send(new GetItemCommand({ TableName: TABLE, Key: { p: { S: "a" }, s: { N: "4" } } })),
    ),
    await settle(
      client.send(new GetItemCommand({ TableName: "missing", Key: { p: { S: "a" }, s: { N: "1" } } })),
    ),
    await settle(
      client.send(
        new QueryCommand({
          TableName: TABLE,
          KeyConditionExpression: "p = :p",
          ExpressionAttributeValues: {},
        }),
      ),
    ),
  ];
}

/** How many sockets this process connects while `work` runs. */
async function socketsDuring(work: () => Promise<unknown>): Promise<number> {
  const connect = jest.spyOn(Socket.prototype, "connect");
  try {
    await work();
    return connect.mock.calls.length;
  } finally {
    connect.mockRestore();
  }
}

describe("a client of dynalite in this process", () => {
  it("gets the answers and errors a client over HTTP gets, without a socket", async () => {
    const http = localClient(started().endpoint);
    try {
      let overHttp: Awaited<ReturnType<typeof outcomes>> = [];
      // The HTTP client connects (which shows the count works); the one in this process does not.
      expect(await socketsDuring(async () => (overHttp = await outcomes(http)))).toBeGreaterThan(0);
      const inProcess = started().client();
      let direct: typeof overHttp = [];
      expect(await socketsDuring(async () => (direct = await outcomes(inProcess)))).toBe(0);
      expect(direct).toEqual(overHttp);
      expect(overHttp.map((outcome) => ("error" in outcome ? outcome.error.name : "answer"))).toEqual([
        "answer",
        "answer",
        "ResourceNotFoundException",
        "ValidationException",
      ]);
    } finally {
      http.destroy();
    }
  });

  it("refuses a request whose signal has been aborted, before dynalite sees it", async () => {
    const listener = jest.fn();
    const { requestHandler } = inProcessDynalite(listener);
    const aborted = AbortSignal.abort();
    const handler = requestHandler as unknown as {
      handle(request: object, options: { abortSignal: AbortSignal }): Promise<unknown>;
    };
    await expect(
      handler.handle({ method: "POST", path: "/", headers: {}, body: "{}" }, { abortSignal: aborted }),
    ).rejects.toThrow(expect.objectContaining({ name: "AbortError" }));
    expect(listener).not.toHaveBeenCalled();
  });

  it("ends the wait for an answer when its signal is aborted meanwhile", async () => {
    // A listener that never answers: only the abort can settle the request.
    const { requestHandler } = inProcessDynalite(() => undefined);
    const handler = requestHandler as unknown as {
      handle(request: object, options: { abortSignal: AbortSignal }): Promise<unknown>;
    };
    const abort = new AbortController();
    const answer = handler.handle(
      { method: "POST", path: "/", headers: {}, body: "{}" },
      { abortSignal: abort.signal },
    );
    abort.abort();
    await expect(answer).rejects.toThrow(expect.objectContaining({ name: "AbortError" }));
  });

  it("leaves no listener on a signal its answered requests shared", async () => {
    const { requestHandler } = inProcessDynalite((_request, response) => response.end("{}"));
    const handler = requestHandler as unknown as {
      handle(request: object, options: { abortSignal: AbortSignal }): Promise<unknown>;
    };
    const shared = new AbortController().signal;
    for (let i = 0; i < 20; i += 1)
      await handler.handle({ method: "POST", path: "/", headers: {}, body: "{}" }, { abortSignal: shared });
    expect(getEventListeners(shared, "abort")).toHaveLength(0);
  });
});
