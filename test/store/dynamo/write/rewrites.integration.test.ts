/**
 * A rewrite's condition (rewrites.ts) on both engines: it lands over the item it read, or where
 * none was when it read none, or over its own item (a retried put); over anything else (an item
 * changed or stamped since, or put where none was) it is refused and changes nothing.
 */
import type { Item } from "../../../../lib/store/dynamo/model/batch.js";
import { keyOf } from "../../../../lib/store/dynamo/model/batch.js";
import { companyPartition } from "../../../../lib/store/dynamo/model/layout.js";
import { writeRewrites } from "../../../../lib/store/dynamo/write/rewrites.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { describeEachEngine } from "../../../support/engines.js";
import { tableItems } from "../../../support/table-items.js";

const item = (n: number, d: number, extra: Item = {}): Item => ({
  [A.partition]: companyPartition("acme"),
  [A.sort]: Uint8Array.of(0x04, n),
  [A.data]: Uint8Array.of(3, d),
  ...extra,
});

describeEachEngine("a rewrite in place", (getEngine) => {
  it("lands over the item it read or over itself, and is refused over anything else", async () => {
    const documents = documentClientFor(getEngine().client);
    const table = getEngine().tables.directory;
    const items = tableItems(documents, table);
    const stamped = { [A.supersededAt]: 7 };
    // As read: item 1 as 1, item 2 stamped, no item 3, item 4 already rewritten.
    for (const stored of [item(1, 1), item(2, 1, stamped), item(4, 2)]) await items.put(stored);
    const landed = await writeRewrites(documents, table, [
      { item: item(1, 2), stored: item(1, 1) },
      { item: item(2, 2), stored: item(2, 1, stamped) },
      { item: item(3, 2), stored: undefined },
      { item: item(4, 2), stored: item(4, 1) },
    ]);
    expect(landed).toBe(0);
    // Changed since read: another `d`, a stamp, an item where none was.
    for (const stored of [item(5, 9), item(6, 1, stamped), item(7, 1)]) await items.put(stored);
    const refused = await writeRewrites(documents, table, [
      { item: item(5, 2), stored: item(5, 1) },
      { item: item(6, 2), stored: item(6, 1) },
      { item: item(7, 2), stored: undefined },
    ]);
    expect(refused).toBe(3);
    /** An item's `d` (its last byte) and stamp. */
    const held = (stored: Item) => [(stored[A.data] as Uint8Array)[1], stored[A.supersededAt]];
    const now = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => items.get(keyOf(item(n, 0)))));
    expect(now.map(held)).toEqual([
      [2, undefined],
      [2, undefined],
      [2, undefined],
      [2, undefined],
      [9, undefined],
      [1, 7],
      [1, undefined],
    ]);
  });
});
