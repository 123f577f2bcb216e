/**
 * A repair's rewrites (rewrites.ts): an item stored the same is not written; one written over an
 * item is journaled with that item, so an undo puts it back byte for byte; one written where none
 * was is deleted by the undo. Journal entries stay within their keys and replaced characters.
 */
import { orderKeyOfBytes } from "../../../../lib/store/binary-keys.js";
import { type Item, keyOf, keyText } from "../../../../lib/store/dynamo/model/batch.js";
import { companyPartition, entrySort, FAMILY } from "../../../../lib/store/dynamo/model/layout.js";
import { Writes } from "../../../../lib/store/dynamo/model/writes.js";
import { journalPieces } from "../../../../lib/store/dynamo/write/load-chunk.js";
import {
  itemJson,
  itemOfJson,
  journaledRewrite,
  undoneRewrite,
} from "../../../../lib/store/dynamo/write/rewrites.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";

const LOAD = 9;
const order = (n: number) => orderKeyOfBytes(Uint8Array.from({ length: 25 }, (_, i) => (i === 0 ? 0x71 : n)));
/** A names entry of generation 3, as a repair writes it, with `d` ending in `last`. */
const entry = (n: number, last = 1): Item => ({
  [A.partition]: companyPartition("acme"),
  [A.sort]: entrySort(FAMILY.employmentNames, order(n), 3),
  [A.data]: Uint8Array.of(3, 0x02, last),
  [A.entriesGen]: 3,
  [A.firstName]: "zoë",
});

test("an item stored the same is no rewrite; one stored different or missing is, with what it replaces", () => {
  const writes = new Writes(LOAD);
  writes.rewrite(entry(1), entry(1));
  writes.rewrite(entry(2), entry(2, 7));
  writes.rewrite(entry(3), undefined);
  const { [A.firstName]: _, ...nameless } = entry(4);
  writes.rewrite(entry(4), nameless);
  expect([...writes.rewrites.values()]).toEqual([
    { item: entry(2), stored: entry(2, 7) },
    { item: entry(3), stored: undefined },
    { item: entry(4), stored: nameless },
  ]);
  expect(writes.puts.size).toBe(0);
});

test("undone, a rewrite puts back the item it replaced, every attribute as it was, or deletes the one it put", () => {
  const replaced = { ...entry(2, 7), [A.supersededAt]: 5 };
  const over = journaledRewrite({ item: entry(2), stored: replaced });
  // As a journal entry holds it: JSON.
  expect(undoneRewrite(JSON.parse(JSON.stringify(over)))).toEqual({ put: replaced });
  expect(itemOfJson(itemJson(replaced))).toEqual(replaced);
  const put = journaledRewrite({ item: entry(3), stored: undefined });
  expect(put).toEqual({ key: keyText(keyOf(entry(3))) });
  expect(undoneRewrite(put)).toEqual({ delete: keyOf(entry(3)) });
  expect(() => itemJson({ ...entry(1), list: [1] })).toThrow(/attribute list/);
});

test("a journal entry names at most so many keys, and replaced items of at most so many characters", () => {
  const puts = [1, 2, 3].map((n) => ({
    ...entry(n),
    [A.sort]: entrySort(FAMILY.employmentNames, order(n), LOAD),
  }));
  const rewrites = [4, 5, 6, 7].map((n) => ({ item: entry(n), stored: entry(n, 9) }));
  const chars = JSON.stringify(itemJson(entry(4, 9))).length;
  const shape = (limits: { keys: number; replaced: number }) =>
    journalPieces({ puts, deletes: [], stamps: [], locations: [], rewrites }, limits).map((piece) =>
      piece.map((write) => ("put" in write ? "put" : "rewrite")).join(" "),
    );
  expect(shape({ keys: 100, replaced: 100 * chars })).toEqual([
    "put put put rewrite rewrite rewrite rewrite",
  ]);
  expect(shape({ keys: 2, replaced: 100 * chars })).toEqual([
    "put put",
    "put rewrite",
    "rewrite rewrite",
    "rewrite",
  ]);
  expect(shape({ keys: 100, replaced: 2 * chars })).toEqual([
    "put put put rewrite rewrite",
    "rewrite rewrite",
  ]);
  // A replaced item over the limit goes all the same, alone.
  expect(shape({ keys: 100, replaced: 1 })).toEqual([
    "put put put",
    "rewrite",
    "rewrite",
    "rewrite",
    "rewrite",
  ]);
  expect(journalPieces({ puts: [], deletes: [], stamps: [], locations: [] })).toEqual([]);
});
