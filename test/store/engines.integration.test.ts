/**
 * The table definitions on both local engines, and what each engine reports: the benchmark relies
 * on ConsumedCapacity, so the values are pinned here, including where the engines differ.
 */
import {
  BatchWriteItemCommand,
  type ConsumedCapacity,
  DescribeTableCommand,
  PutItemCommand,
  QueryCommand as RawQueryCommand,
} from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { EngineName } from "../../lib/local/engines.js";
import { createTableInput, createTables } from "../../lib/store/create-tables.js";
import { DIRECTORY_ATTR as D, KEYS_ATTR as K, TABLES } from "../../lib/store/tables.js";
import { describeEachEngine } from "../support/engines.js";

const byName = <T extends { AttributeName?: string; IndexName?: string }>(items: T[] = []) =>
  [...items].sort((a, b) =>
    (a.IndexName ?? a.AttributeName ?? "").localeCompare(b.IndexName ?? b.AttributeName ?? ""),
  );

const PHONE = Uint8Array.of(1, 75, 0x2d, 0x7f, 0x87);
const bytes = (...values: number[]) => Uint8Array.from(values);
/** Record items: only those with a phone (t) land in byPhone, with q, f and l projected. */
const RECORD_WITH_PHONE = {
  [D.partition]: bytes(0x43, 0x31),
  [D.sort]: bytes(3, 1),
  [D.phone]: PHONE,
  [D.person]: bytes(9, 9),
  [D.firstName]: "ann",
  [D.lastName]: "lee",
  [D.data]: bytes(0xde, 0xad),
};
const RECORD_WITHOUT_PHONE = {
  [D.partition]: bytes(0x43, 0x31),
  [D.sort]: bytes(3, 2),
  [D.firstName]: "bo",
  [D.data]: bytes(0xbe, 0xef),
};
const OTHER_COMPANY_SAME_PHONE = {
  [D.partition]: bytes(0x43, 0x32),
  [D.sort]: bytes(3, 3),
  [D.phone]: PHONE,
  [D.data]: bytes(0),
};

/** The attributes an index holds: its keys, the table's keys and the projected ones, never `d`. */
function projected(item: Record<string, unknown>): Record<string, unknown> {
  const kept: string[] = [D.partition, D.sort, D.phone, D.person, D.firstName, D.lastName];
  return Object.fromEntries(Object.entries(item).filter(([name]) => kept.includes(name)));
}

describeEachEngine("table definitions", (getEngine) => {
  it("creates every table with its keys, on-demand billing and GSIs", async () => {
    const { client, tables } = getEngine();
    for (const def of Object.values(TABLES)) {
      const expected = createTableInput(def, tables[def.id]);
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tables[def.id] }));
      expect(Table?.TableStatus).toBe("ACTIVE");
      expect(Table?.BillingModeSummary?.BillingMode).toBe("PAY_PER_REQUEST");
      expect(Table?.KeySchema).toEqual(expected.KeySchema);
      expect(byName(Table?.AttributeDefinitions)).toEqual(byName(expected.AttributeDefinitions));
      // DynamoDB Local lists the GSIs in another order than they were created.
      const indexes = byName(Table?.GlobalSecondaryIndexes).map((i) => ({
        IndexName: i.IndexName,
        KeySchema: i.KeySchema,
        Projection: i.Projection,
        IndexStatus: i.IndexStatus,
      }));
      expect(indexes).toEqual(
        byName(expected.GlobalSecondaryIndexes).map((i) => ({ ...i, IndexStatus: "ACTIVE" })),
      );
      expect(indexes.map((i) => i.IndexName)).toEqual(def.indexes.map((i) => i.name).sort());
    }
  });

  it("createTables is idempotent", async () => {
    const { client, tables } = getEngine();
    await expect(createTables(client, tables)).resolves.toBeUndefined();
  });

  describe("GSIs", () => {
    let doc: DynamoDBDocumentClient;

    beforeAll(async () => {
      const { client, tables } = getEngine();
      // Not destroyed here: it shares the suite's client, which the harness destroys.
      doc = DynamoDBDocumentClient.from(client);
      for (const Item of [RECORD_WITH_PHONE, RECORD_WITHOUT_PHONE, OTHER_COMPANY_SAME_PHONE]) {
        await doc.send(new PutCommand({ TableName: tables.directory, Item }));
      }
      await doc.send(
        new PutCommand({ TableName: tables.keys, Item: { [K.hash]: "hash1", [K.keyId]: "K1", x: 1 } }),
      );
      await doc.send(new PutCommand({ TableName: tables.keys, Item: { [K.hash]: "hash2", x: 2 } }));
    });

    it("byPhone holds only records with a phone, across companies, keyed by company", async () => {
      const { tables } = getEngine();
      const query = (condition: string, values: Record<string, unknown>) =>
        doc.send(
          new QueryCommand({
            TableName: tables.directory,
            IndexName: "byPhone",
            KeyConditionExpression: condition,
            ExpressionAttributeValues: values,
          }),
        );
      const all = await query("t = :t", { ":t": PHONE });
      const normalize = (items: Record<string, unknown>[] = []) =>
        items
          .map((item) =>
            JSON.stringify(
              Object.fromEntries(
                Object.entries(item)
                  .map(([name, v]) => [name, v instanceof Uint8Array ? [...v] : v])
                  .sort(([a], [b]) => String(a).localeCompare(String(b))),
              ),
            ),
          )
          .sort();
      expect(normalize(all.Items)).toEqual(
        normalize([projected(RECORD_WITH_PHONE), projected(OTHER_COMPANY_SAME_PHONE)]),
      );
      const one = await query("t = :t AND p = :p", { ":t": PHONE, ":p": bytes(0x43, 0x32) });
      expect(normalize(one.Items)).toEqual(normalize([projected(OTHER_COMPANY_SAME_PHONE)]));
    });

    it("byKeyId is KEYS_ONLY and holds only keys that have an id", async () => {
      const { tables } = getEngine();
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: tables.keys,
          IndexName: "byKeyId",
          KeyConditionExpression: "id = :id",
          ExpressionAttributeValues: { ":id": "K1" },
        }),
      );
      expect(Items).toEqual([{ [K.hash]: "hash1", [K.keyId]: "K1" }]);
    });

    it("sparse indexes: an item without the index key is not in the index", async () => {
      const { tables } = getEngine();
      const count = async (TableName: string, IndexName: string) =>
        (await doc.send(new ScanCommand({ TableName, IndexName, Select: "COUNT" }))).Count;
      expect(await count(tables.directory, "byPhone")).toBe(2);
      expect(await count(tables.keys, "byKeyId")).toBe(1);
    });
  });
});

/**
 * What ReturnConsumedCapacity: INDEXES gives on each engine. Reads agree (4 KB units summed over the
 * page, halved for eventually consistent reads, GSI reads on projected size); writes do not:
 * dynalite bills the table only, DynamoDB Local adds a write per GSI the item lands in, like DynamoDB.
 */
describeEachEngine("consumed capacity", (getEngine) => {
  it("is reported per GSI for a Query", async () => {
    const { client, tables } = getEngine();
    await client.send(
      new PutItemCommand({
        TableName: tables.directory,
        Item: { p: { B: bytes(1) }, s: { B: bytes(3, 1) }, t: { B: PHONE }, d: { B: bytes(7) } },
      }),
    );
    const { ConsumedCapacity, Count } = await client.send(
      new RawQueryCommand({
        TableName: tables.directory,
        IndexName: "byPhone",
        KeyConditionExpression: "t = :v",
        ExpressionAttributeValues: { ":v": { B: PHONE } },
        ReturnConsumedCapacity: "INDEXES",
      }),
    );
    expect(Count).toBe(1);
    expect(ConsumedCapacity).toEqual({
      TableName: tables.directory,
      CapacityUnits: 0.5,
      Table: { CapacityUnits: 0 },
      GlobalSecondaryIndexes: { byPhone: { CapacityUnits: 0.5 } },
    });
  });

  it("sums a page in 4 KB units and halves eventually consistent reads", async () => {
    const { client, tables } = getEngine();
    // 10 items of ~10 KB in one partition: 100 KB = 25 units, 12.5 eventually consistent.
    await client.send(
      new BatchWriteItemCommand({
        RequestItems: {
          [tables.directory]: Array.from({ length: 10 }, (_, i) => ({
            PutRequest: { Item: { p: { B: bytes(66) }, s: { B: bytes(i) }, d: { S: "x".repeat(10_000) } } },
          })),
        },
      }),
    );
    const units = async (ConsistentRead: boolean) =>
      (
        await client.send(
          new RawQueryCommand({
            TableName: tables.directory,
            KeyConditionExpression: "p = :p",
            ExpressionAttributeValues: { ":p": { B: bytes(66) } },
            ConsistentRead,
            ReturnConsumedCapacity: "TOTAL",
          }),
        )
      ).ConsumedCapacity?.CapacityUnits;
    expect(await units(false)).toBe(12.5);
    expect(await units(true)).toBe(25);
  });

  it("differs for writes: only DynamoDB Local counts the GSI writes", async () => {
    const { engine, client, tables } = getEngine();
    const { ConsumedCapacity } = await client.send(
      new PutItemCommand({
        TableName: tables.directory,
        Item: { p: { B: bytes(9) }, s: { B: bytes(3, 9) }, t: { B: PHONE } },
        ReturnConsumedCapacity: "INDEXES",
      }),
    );
    const expected: Record<EngineName, ConsumedCapacity> = {
      dynalite: { TableName: tables.directory, CapacityUnits: 1, Table: { CapacityUnits: 1 } },
      ddblocal: {
        TableName: tables.directory,
        CapacityUnits: 2,
        Table: { CapacityUnits: 1 },
        GlobalSecondaryIndexes: { byPhone: { CapacityUnits: 1 } },
      },
    };
    expect(ConsumedCapacity).toEqual(expected[engine.name]);
  });
});

/** Validation the engines share or not; error names agree, messages differ. */
describeEachEngine("engine differences", (getEngine) => {
  it("both reject a BatchWriteItem of more than 25 requests", async () => {
    const { client, tables } = getEngine();
    const batch = new BatchWriteItemCommand({
      RequestItems: {
        [tables.keys]: Array.from({ length: 26 }, (_, i) => ({
          PutRequest: { Item: { h: { S: `h${i}` } } },
        })),
      },
    });
    await expect(client.send(batch)).rejects.toMatchObject({ name: "ValidationException", $fault: "client" });
  });

  it("only DynamoDB Local rejects an empty string as a GSI key value, like DynamoDB", async () => {
    const { engine, client, tables } = getEngine();
    const put = client.send(
      new PutItemCommand({ TableName: tables.keys, Item: { h: { S: "e" }, id: { S: "" } } }),
    );
    if (engine.name === "ddblocal") {
      await expect(put).rejects.toMatchObject({ name: "ValidationException" });
    } else {
      await expect(put).resolves.toBeDefined();
    }
  });

  it("both answer ResourceNotFoundException for a missing table", async () => {
    const { client } = getEngine();
    const query = new RawQueryCommand({
      TableName: "no-such-table",
      KeyConditionExpression: "p = :p",
      ExpressionAttributeValues: { ":p": { S: "x" } },
    });
    await expect(client.send(query)).rejects.toMatchObject({ name: "ResourceNotFoundException" });
  });
});

describeEachEngine("clients of a local engine", (getEngine) => {
  it("are answered with the fixed authorization that replaces SigV4 signing", async () => {
    const headers: Record<string, string>[] = [];
    const client = getEngine().engine.client();
    client.middlewareStack.add(
      (next) => async (args) => {
        headers.push({ ...(args.request as { headers: Record<string, string> }).headers });
        return next(args);
      },
      { step: "finalizeRequest", name: "recordHeaders", priority: "low" },
    );
    const { Table } = await client.send(
      new DescribeTableCommand({ TableName: getEngine().tables.directory }),
    );
    expect(Table?.TableName).toBe(getEngine().tables.directory);
    expect(headers.map((sent) => sent.authorization)).toEqual([
      expect.stringMatching(/^AWS4-HMAC-SHA256 Credential=local\/.* Signature=0$/),
    ]);
  });
});
