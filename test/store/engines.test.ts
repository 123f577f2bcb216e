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

const PHONE = "5551234567";
/** A person and its employments: only employments carry c, only some carry ph (sparse indexes). */
const PERSON = {
  [D.partition]: "P1",
  [D.sort]: "#",
  [D.firstName]: "ann",
  [D.lastName]: "lee",
  [D.data]: "{}",
};
const EMPLOYMENT_WITH_PHONE = {
  [D.partition]: "P1",
  [D.sort]: "C1#2024#E1",
  [D.company]: "C1",
  [D.phone]: PHONE,
  [D.firstName]: "ann",
  [D.lastName]: "lee",
  [D.personCreated]: "2024",
  [D.data]: '{"id":"E1"}',
};
const EMPLOYMENT_WITHOUT_PHONE = {
  [D.partition]: "~E2",
  [D.sort]: "C1#2024#E2",
  [D.company]: "C1",
  [D.firstName]: "bo",
  [D.data]: '{"id":"E2"}',
};
const OTHER_COMPANY_SAME_PHONE = {
  [D.partition]: "P3",
  [D.sort]: "C2#2024#E3",
  [D.company]: "C2",
  [D.phone]: PHONE,
  [D.data]: '{"id":"E3"}',
};

/** The attributes an index holds: its keys, the table's keys and the projected ones, never `d`. */
function projected(item: Record<string, string>, attributes: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(item).filter(([name]) => attributes.includes(name)));
}
const BY_COMPANY_ATTRIBUTES = [
  D.partition,
  D.sort,
  D.company,
  D.firstName,
  D.lastName,
  D.phone,
  D.personCreated,
];
const BY_PHONE_ATTRIBUTES = [...BY_COMPANY_ATTRIBUTES];

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
      for (const Item of [
        PERSON,
        EMPLOYMENT_WITH_PHONE,
        EMPLOYMENT_WITHOUT_PHONE,
        OTHER_COMPANY_SAME_PHONE,
      ]) {
        await doc.send(new PutCommand({ TableName: tables.directory, Item }));
      }
      await doc.send(
        new PutCommand({ TableName: tables.keys, Item: { [K.hash]: "hash1", [K.keyId]: "K1", x: 1 } }),
      );
      await doc.send(new PutCommand({ TableName: tables.keys, Item: { [K.hash]: "hash2", x: 2 } }));
    });

    it("byCompany holds employments only, with the narrow attributes", async () => {
      const { tables } = getEngine();
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: tables.directory,
          IndexName: "byCompany",
          KeyConditionExpression: "c = :c",
          ExpressionAttributeValues: { ":c": "C1" },
        }),
      );
      expect(Items).toEqual([
        projected(EMPLOYMENT_WITH_PHONE, BY_COMPANY_ATTRIBUTES),
        projected(EMPLOYMENT_WITHOUT_PHONE, BY_COMPANY_ATTRIBUTES),
      ]);
    });

    it("byPhone holds only items with a phone, across companies, with the company", async () => {
      const { tables } = getEngine();
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: tables.directory,
          IndexName: "byPhone",
          KeyConditionExpression: "ph = :ph",
          ExpressionAttributeValues: { ":ph": PHONE },
        }),
      );
      expect(Items).toEqual([
        projected(EMPLOYMENT_WITH_PHONE, BY_PHONE_ATTRIBUTES),
        projected(OTHER_COMPANY_SAME_PHONE, BY_PHONE_ATTRIBUTES),
      ]);
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
      expect(await count(tables.directory, "byCompany")).toBe(3);
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
        Item: { p: { S: "P1" }, s: { S: "C1#1#E1" }, c: { S: "C1" }, ph: { S: PHONE }, d: { S: "x" } },
      }),
    );
    const queries = [
      { IndexName: "byCompany", key: "c", value: "C1" },
      { IndexName: "byPhone", key: "ph", value: PHONE },
    ];
    for (const { IndexName, key, value } of queries) {
      const { ConsumedCapacity, Count } = await client.send(
        new RawQueryCommand({
          TableName: tables.directory,
          IndexName,
          KeyConditionExpression: `${key} = :v`,
          ExpressionAttributeValues: { ":v": { S: value } },
          ReturnConsumedCapacity: "INDEXES",
        }),
      );
      expect(Count).toBe(1);
      expect(ConsumedCapacity).toEqual({
        TableName: tables.directory,
        CapacityUnits: 0.5,
        Table: { CapacityUnits: 0 },
        GlobalSecondaryIndexes: { [IndexName]: { CapacityUnits: 0.5 } },
      });
    }
  });

  it("sums a page in 4 KB units and halves eventually consistent reads", async () => {
    const { client, tables } = getEngine();
    // 10 items of ~10 KB in one partition: 100 KB = 25 units, 12.5 eventually consistent.
    await client.send(
      new BatchWriteItemCommand({
        RequestItems: {
          [tables.directory]: Array.from({ length: 10 }, (_, i) => ({
            PutRequest: { Item: { p: { S: "BIG" }, s: { S: `${i}` }, d: { S: "x".repeat(10_000) } } },
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
            ExpressionAttributeValues: { ":p": { S: "BIG" } },
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
        Item: { p: { S: "P9" }, s: { S: "C9#1#E9" }, c: { S: "C9" }, ph: { S: "5550000000" } },
        ReturnConsumedCapacity: "INDEXES",
      }),
    );
    const expected: Record<EngineName, ConsumedCapacity> = {
      dynalite: { TableName: tables.directory, CapacityUnits: 1, Table: { CapacityUnits: 1 } },
      ddblocal: {
        TableName: tables.directory,
        CapacityUnits: 3,
        Table: { CapacityUnits: 1 },
        GlobalSecondaryIndexes: { byCompany: { CapacityUnits: 1 }, byPhone: { CapacityUnits: 1 } },
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
