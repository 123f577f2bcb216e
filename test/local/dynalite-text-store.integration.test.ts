/**
 * startDynalite runs dynalite on memory-level keeping text, not buffers (dynalite-text-store.ts):
 * the store in use is the text one, and binary sort keys still come back in byte order, high
 * bytes and prefixes included, as DynamoDB orders them.
 */
import { createRequire } from "node:module";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { partitionSortKeys, partitionWith } from "./engine-partition.js";

let engine: Engine;
beforeAll(async () => {
  engine = await startDynalite();
});
afterAll(async () => {
  await engine?.stop();
});

it("gives dynalite the memory-level that stores text", () => {
  const require = createRequire(import.meta.url);
  const fromDynalite = createRequire(require.resolve("dynalite"));
  const { MemoryLevel } = fromDynalite("memory-level") as { MemoryLevel: { name: string } };
  expect(MemoryLevel.name).toBe("TextMemoryLevel");
});

it("answers binary sort keys in byte order", async () => {
  const sorted = [[0x00], [0x00, 0x00], [0x01], [0x7f, 0xff], [0x80], [0xc3, 0xa9], [0xff], [0xff, 0x00]];
  // Put in an order of their own, not the answer's.
  const putOrder = [6, 2, 7, 0, 5, 3, 1, 4].map((i) => Uint8Array.from(sorted[i] ?? []));
  const documents = await partitionWith(engine, putOrder);
  const answered = (await partitionSortKeys(documents)).map((sort) => [...sort]);
  expect(answered).toEqual(sorted);
});
