/**
 * dynalite answers as it would without rememberDynaliteParses() (run by startDynalite): each
 * request below is sent more than once, so the second is answered from what the first parsed.
 * Conditions still see each request's values, unused names and values are still refused, and so
 * are syntax errors, however often they are sent.
 */

import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { createTables } from "../../lib/store/create-tables.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../lib/store/tables.js";

const TABLE = "t-directory";
const PARTITION = Uint8Array.of(7);
const key = (s: number) => ({ [A.partition]: PARTITION, [A.sort]: Uint8Array.of(s) });

let engine: Engine;
let documents: DynamoDBDocumentClient;

beforeAll(async () => {
  engine = await startDynalite();
  const client = engine.client();
  await createTables(client, { directory: TABLE, keys: "t-keys" });
  documents = documentClientFor(client);
});
afterAll(async () => {
  await engine?.stop();
});

/** `SET #n = :n` on item `s`, if its `n` is `expected` (or it has none when `expected` is 0). */
function setIf(s: number, next: number, expected: number) {
  return new UpdateCommand({
    TableName: TABLE,
    Key: key(s),
    UpdateExpression: "SET #n = :next",
    ConditionExpression: "attribute_not_exists(#n) OR #n = :expected",
    ExpressionAttributeNames: { "#n": "n" },
    ExpressionAttributeValues: { ":next": next, ":expected": expected },
  });
}

const errorOf = async (send: Promise<unknown>) => {
  try {
    await send;
    return "none";
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
};

it("applies a condition to each request's own values, sent again with the same or other values", async () => {
  expect(await errorOf(documents.send(setIf(1, 1, 0)))).toBe("none");
  expect(await errorOf(documents.send(setIf(1, 1, 0)))).toMatch(/^ConditionalCheckFailedException/);
  await documents.send(setIf(1, 2, 1));
  expect(await errorOf(documents.send(setIf(1, 3, 1)))).toMatch(/^ConditionalCheckFailedException/);
  await documents.send(setIf(1, 3, 2));
  expect(await errorOf(documents.send(setIf(1, 4, 2)))).toMatch(/^ConditionalCheckFailedException/);
  await documents.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...key(2), n: 1 },
      ConditionExpression: "attribute_not_exists(#n)",
      ExpressionAttributeNames: { "#n": "n" },
    }),
  );
  const again = new PutCommand({
    TableName: TABLE,
    Item: { ...key(2), n: 2 },
    ConditionExpression: "attribute_not_exists(#n)",
    ExpressionAttributeNames: { "#n": "n" },
  });
  expect(await errorOf(documents.send(again))).toMatch(/^ConditionalCheckFailedException/);
});

it("answers each key condition with its own values", async () => {
  for (let s = 10; s < 14; s += 1) await documents.send(new PutCommand({ TableName: TABLE, Item: key(s) }));
  const between = async (from: number, to: number) => {
    const { Items = [] } = await documents.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: "#p = :p AND #s BETWEEN :from AND :to",
        ExpressionAttributeNames: { "#p": A.partition, "#s": A.sort },
        ExpressionAttributeValues: {
          ":p": PARTITION,
          ":from": Uint8Array.of(from),
          ":to": Uint8Array.of(to),
        },
      }),
    );
    return Items.map((item) => (item[A.sort] as Uint8Array)[0]);
  };
  expect(await between(10, 11)).toEqual([10, 11]);
  expect(await between(10, 11)).toEqual([10, 11]);
  expect(await between(12, 13)).toEqual([12, 13]);
  // BETWEEN's bounds out of order are refused, as without remembering.
  expect(await errorOf(between(13, 12))).toMatch(/^ValidationException/);
  expect(await errorOf(between(13, 12))).toMatch(/^ValidationException/);
});

it("refuses an unused value or a syntax error every time", async () => {
  const unused = new UpdateCommand({
    TableName: TABLE,
    Key: key(3),
    UpdateExpression: "SET #n = :n",
    ExpressionAttributeNames: { "#n": "n" },
    ExpressionAttributeValues: { ":n": 1, ":spare": 2 },
  });
  for (let i = 0; i < 2; i += 1)
    expect(await errorOf(documents.send(unused))).toMatch(/^ValidationException: .*unused.*:spare/);
  const broken = new UpdateCommand({
    TableName: TABLE,
    Key: key(3),
    UpdateExpression: "SET #n = :n",
    ConditionExpression: "#n = = :n",
    ExpressionAttributeNames: { "#n": "n" },
    ExpressionAttributeValues: { ":n": 1 },
  });
  for (let i = 0; i < 2; i += 1)
    expect(await errorOf(documents.send(broken))).toMatch(
      /^ValidationException: Invalid ConditionExpression/,
    );
});

it("counts a value as used by the expressions of each request that use it", async () => {
  const values = { ":v": 1, ":w": 2 };
  const names = { "#a": "a", "#b": "b" };
  // First the update uses :v as well as the condition; then only the condition does.
  await documents.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: key(4),
      UpdateExpression: "SET #a = :v, #b = :w",
      ConditionExpression: "attribute_not_exists(#a) OR #a <> :v",
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
  const conditionOnly = new UpdateCommand({
    TableName: TABLE,
    Key: key(5),
    UpdateExpression: "SET #b = :w",
    ConditionExpression: "attribute_not_exists(#a) OR #a <> :v",
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
  expect(await errorOf(documents.send(conditionOnly))).toBe("none");
  // And a value that only the first request's update used is unused now.
  const spare = new UpdateCommand({
    TableName: TABLE,
    Key: key(6),
    UpdateExpression: "SET #b = :v",
    ConditionExpression: "attribute_not_exists(#a) OR #a <> :v",
    ExpressionAttributeNames: { "#a": "a", "#b": "b" },
    ExpressionAttributeValues: values,
  });
  expect(await errorOf(documents.send(spare))).toMatch(/^ValidationException: .*unused.*:w/);
});
