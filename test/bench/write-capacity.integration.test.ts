import {
  BatchWriteItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from "@aws-sdk/client-dynamodb";
import { CapacityRecorder, CapacityTally, capacityTotals } from "../../lib/bench/capacity-recorder.js";
import { instrumentClient, type RecordedCall } from "../../lib/observability/dynamo-capacity.js";
import { describeEachEngine } from "../support/engines.js";

// Items without the index's attribute, so only the table is written: DynamoDB bills 1 WCU per
// started KB of each item written (the larger of before and after for an update; the item's size
// for a delete).
const bytes = (n: number, fill: number) => ({ B: new Uint8Array(n).fill(fill) });
const key = (id: number) => ({ p: bytes(4, id), s: bytes(2, 0) });

describeEachEngine("write capacity recorded", (getEngine) => {
  const recorder = new CapacityRecorder();
  const tally = new CapacityTally();
  let table = "";
  type Command =
    | PutItemCommand
    | BatchWriteItemCommand
    | UpdateItemCommand
    | DeleteItemCommand
    | GetItemCommand;
  const send = async (command: Command) => {
    // biome-ignore lint/suspicious/noExplicitAny: one send for a union of commands
    await getEngine().client.send(command as any);
    const calls = recorder.take();
    for (const call of calls) tally.record(call);
    expect(calls).toHaveLength(1);
    return calls[0] as RecordedCall;
  };

  beforeAll(() => {
    const { client, tables } = getEngine();
    table = tables.directory;
    instrumentClient(client, recorder);
  });

  it("bills a put 1 WCU per started KB, and counts one item", async () => {
    const call = await send(new PutItemCommand({ TableName: table, Item: { ...key(1), d: bytes(1500, 1) } }));
    expect(call).toMatchObject({ command: "PutItemCommand", wcu: 2, items: 1, rcu: 0 });
  });

  it("bills each item of a batch and counts them all", async () => {
    const call = await send(
      new BatchWriteItemCommand({
        RequestItems: {
          [table]: [2, 3, 4].map((id) => ({ PutRequest: { Item: { ...key(id), d: bytes(100, id) } } })),
        },
      }),
    );
    expect(call).toMatchObject({ command: "BatchWriteItemCommand", wcu: 3, items: 3 });
  });

  it("bills an update on the larger of the item before and after, and a delete on the item deleted", async () => {
    const update = await send(
      new UpdateItemCommand({
        TableName: table,
        Key: key(1),
        UpdateExpression: "SET x = :gen",
        ExpressionAttributeValues: { ":gen": { N: "3" } },
      }),
    );
    expect(update).toMatchObject({ command: "UpdateItemCommand", wcu: 2, items: 1 });
    const deleted = await send(new DeleteItemCommand({ TableName: table, Key: key(1) }));
    expect(deleted).toMatchObject({ command: "DeleteItemCommand", wcu: 2, items: 1 });
  });

  it("records reads in RCU apart from writes, and the tally sums them as the list does", async () => {
    const read = await send(new GetItemCommand({ TableName: table, Key: key(2), ConsistentRead: true }));
    expect(read).toMatchObject({ command: "GetItemCommand", rcu: 1, wcu: 0, items: 0 });
    expect(tally.totals()).toEqual({ rcu: 1, readCalls: 1, wcu: 9, writeCalls: 4, itemsWritten: 6 });
  });
});

describe("capacityTotals", () => {
  const call = (command: string, units: Partial<RecordedCall>): RecordedCall => ({
    command,
    startMs: 0,
    endMs: 1,
    rcu: 0,
    wcu: 0,
    items: 0,
    ...units,
  });

  it("sums reads and writes apart and ignores other commands", () => {
    expect(
      capacityTotals([
        call("QueryCommand", { rcu: 2.5 }),
        call("BatchWriteItemCommand", { wcu: 30, items: 25 }),
        call("UpdateItemCommand", { wcu: 1, items: 1 }),
        call("DescribeTableCommand", {}),
      ]),
    ).toEqual({ rcu: 2.5, readCalls: 1, wcu: 31, writeCalls: 2, itemsWritten: 26 });
  });
});
