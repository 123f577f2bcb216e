import { createTableInput } from "../../lib/store/create-tables.js";
import { DIRECTORY_TABLE, KEYS_TABLE, type TableDefinition } from "../../lib/store/tables.js";

describe("createTableInput", () => {
  it("builds the directory table: binary composite key, the sparse byPhone GSI", () => {
    expect(createTableInput(DIRECTORY_TABLE, "dir-test")).toEqual({
      TableName: "dir-test",
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [
        { AttributeName: "p", AttributeType: "B" },
        { AttributeName: "s", AttributeType: "B" },
        { AttributeName: "t", AttributeType: "B" },
      ],
      KeySchema: [
        { AttributeName: "p", KeyType: "HASH" },
        { AttributeName: "s", KeyType: "RANGE" },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: "byPhone",
          KeySchema: [
            { AttributeName: "t", KeyType: "HASH" },
            { AttributeName: "p", KeyType: "RANGE" },
          ],
          Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: ["q", "f", "l", "x"] },
        },
      ],
    });
  });

  it("builds the keys table: hash key only, a KEYS_ONLY byKeyId index", () => {
    expect(createTableInput(KEYS_TABLE, "keys-test")).toEqual({
      TableName: "keys-test",
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [
        { AttributeName: "h", AttributeType: "S" },
        { AttributeName: "id", AttributeType: "S" },
      ],
      KeySchema: [{ AttributeName: "h", KeyType: "HASH" }],
      GlobalSecondaryIndexes: [
        {
          IndexName: "byKeyId",
          KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
          Projection: { ProjectionType: "KEYS_ONLY" },
        },
      ],
    });
  });

  it("omits GlobalSecondaryIndexes for a table without indexes (DynamoDB rejects an empty list)", () => {
    const plain: TableDefinition = { ...KEYS_TABLE, indexes: [] };
    const input = createTableInput(plain, "plain");
    expect(input).not.toHaveProperty("GlobalSecondaryIndexes");
    expect(input.AttributeDefinitions).toEqual([{ AttributeName: "h", AttributeType: "S" }]);
  });

  it("does not share the definition's arrays with the command input", () => {
    const input = createTableInput(DIRECTORY_TABLE, "dir-test");
    const attributes = input.GlobalSecondaryIndexes?.[0]?.Projection?.NonKeyAttributes;
    attributes?.push("mutated");
    expect(createTableInput(DIRECTORY_TABLE, "dir-test").GlobalSecondaryIndexes?.[0]).toEqual(
      expect.objectContaining({
        Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: ["q", "f", "l", "x"] },
      }),
    );
  });
});
