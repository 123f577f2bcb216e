import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import {
  type BlockSizes,
  blocksToSplit,
  checkedBlockSizes,
  GRAM_BLOCK_ENTRIES,
  GramBlockCutter,
  planGramBlocks,
  planOrder,
} from "../../../../lib/store/dynamo/structures/index.js";

const BAD: [string, BlockSizes][] = [
  ["a target of 0", { target: 0, max: 2, min: 1 }],
  ["a min of 0", { target: 2, max: 4, min: 0 }],
  ["a fraction", { target: 2.5, max: 4, min: 1 }],
  ["min above target", { target: 2, max: 4, min: 3 }],
  ["target above max", { target: 5, max: 4, min: 1 }],
  ["NaN", { target: Number.NaN, max: 4, min: 1 }],
];

describe("block sizes", () => {
  it("are whole numbers 1 <= min <= target <= max", () => {
    expect(checkedBlockSizes("gram", GRAM_BLOCK_ENTRIES)).toBe(GRAM_BLOCK_ENTRIES);
    const one = { target: 1, max: 1, min: 1 };
    expect(checkedBlockSizes("order", one)).toBe(one);
  });

  it.each(BAD)("refuses %s, naming the blocks and the sizes", (_, sizes) => {
    const { min, target, max } = sizes;
    const message = `gram block sizes need whole numbers 1 <= min <= target <= max: ${min}, ${target}, ${max}`;
    expect(() => checkedBlockSizes("gram", sizes)).toThrow(message);
  });

  it.each(BAD)("are refused by every planner of blocks: %s", (_, sizes) => {
    expect(() => planOrder([], new Map(), [], 1, sizes)).toThrow(/^order block sizes need/);
    expect(() => new GramBlockCutter(sizes)).toThrow(/^gram block sizes need/);
    expect(() => planGramBlocks([], [], 1, new Map(), sizes)).toThrow(/^gram block sizes need/);
    expect(() => blocksToSplit([], [], sizes)).toThrow(/^gram block sizes need/);
  });

  it.each(BAD)("are refused when a writer is made, before any call: %s", (_, sizes) => {
    const client = new DynamoDBClient({ region: "local" });
    const send = jest.spyOn(client, "send");
    const documents = DynamoDBDocumentClient.from(client);
    expect(() => dynamoDirectory(documents, "directory", { writer: { gramBlocks: sizes } })).toThrow(
      /^gram block sizes need/,
    );
    expect(() => dynamoDirectory(documents, "directory", { writer: { orderBlocks: sizes } })).toThrow(
      /^order block sizes need/,
    );
    expect(send).not.toHaveBeenCalled();
    client.destroy();
  });
});
