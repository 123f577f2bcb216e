/**
 * documentClientFor drops the SDK's logger middleware: no call's input and output are copied
 * through the sensitive-data filter for a logger. Checked with a logger that records, on a client
 * whose request handler answers in memory.
 */
import { Readable } from "node:stream";
import { DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { HttpResponse } from "@smithy/core/transport";
import { documentClientFor } from "../../lib/store/dynamo-client.js";

function clientLoggingTo(logged: unknown[]): DynamoDBClient {
  const ignore = () => undefined;
  // The logger middleware's entry: the call's name, its input and its output.
  const record = (entry: unknown) => {
    if (typeof entry === "object" && entry !== null && "commandName" in entry) logged.push(entry);
  };
  return new DynamoDBClient({
    region: "us-east-1",
    endpoint: "http://127.0.0.1:9",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
    logger: { debug: ignore, info: record, warn: ignore, error: ignore },
    requestHandler: {
      handle: async () => ({
        response: new HttpResponse({
          statusCode: 200,
          headers: { "content-type": "application/x-amz-json-1.0" },
          body: Readable.from([Buffer.from(JSON.stringify({ Item: { p: { S: "a" } } }))]),
        }),
      }),
    },
  });
}

it("answers a call without handing its input and output to a logger", async () => {
  const logged: unknown[] = [];
  const documents = documentClientFor(clientLoggingTo(logged));
  const { Item } = await documents.send(new GetCommand({ TableName: "table", Key: { p: "a" } }));
  expect({ Item, logged }).toEqual({ Item: { p: "a" }, logged: [] });
});

it("would otherwise have logged each call (the check above can fail)", async () => {
  const logged: unknown[] = [];
  const client = clientLoggingTo(logged);
  await client.send(
    new GetItemCommand({
      TableName: "table",
      Key: { p: { S: "a" } },
    }),
  );
  expect(logged).toHaveLength(1);
});
