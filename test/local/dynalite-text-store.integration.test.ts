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

it("gives dynalite's db module the memory-level that stores text", async () => {
  // The class dynalite's db module captured when it loaded, seen through a database it makes:
  // a static import of dynalite anywhere before loadDynalite() would leave it buffered.
  const require = createRequire(import.meta.url);
  const fromDynalite = createRequire(require.resolve("dynalite"));
  const { create } = fromDynalite("./db") as { create(options: object): { db: { close(): Promise<void> } } };
  const { db } = create({});
  try {
    expect(db.constructor.name).toBe("TextMemoryLevel");
  } finally {
    await db.close();
  }
});

it("answers binary sort keys in byte order", async () => {
  const sorted = [[0x00], [0x00, 0x00], [0x01], [0x7f, 0xff], [0x80], [0xc3, 0xa9], [0xff], [0xff, 0x00]];
  // Put in an order of their own, not the answer's.
  const putOrder = [6, 2, 7, 0, 5, 3, 1, 4].map((i) => Uint8Array.from(sorted[i] ?? []));
  const documents = await partitionWith(engine, putOrder);
  const answered = (await partitionSortKeys(documents)).map((sort) => [...sort]);
  expect(answered).toEqual(sorted);
});
