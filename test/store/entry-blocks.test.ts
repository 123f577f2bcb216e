/** Packing narrow entries into blocks and reading them back. */
import fc from "fast-check";
import { compareBytes } from "../../lib/store/binary-keys.js";
import {
  BLOCK_TARGET_BYTES,
  ENTRY_KEY_BYTES,
  encodeEntry,
  type PackedEntry,
  packBlocks,
  unpackBlock,
} from "../../lib/store/entry-blocks.js";

const name = fc.option(fc.string({ unit: "grapheme", maxLength: 40 }), { nil: null });
const pair = fc.record({ firstName: name, lastName: name });
const key = fc.uint8Array({ minLength: ENTRY_KEY_BYTES, maxLength: ENTRY_KEY_BYTES });
const uniqueByKey = <T extends { key: Uint8Array }>(entries: T[]) => [
  ...new Map(entries.map((entry) => [Buffer.from(entry.key).toString("hex"), entry])).values(),
];

const employmentEntries = fc
  .array(
    fc.record({
      key,
      pairs: fc.tuple(pair),
      recordBytes: fc.integer({ min: 0, max: 65_535 }).map((u) => u * 16),
    }),
    {
      maxLength: 400,
    },
  )
  .map(uniqueByKey);
const personEntries = fc
  .array(fc.record({ key, pairs: fc.array(pair, { maxLength: 4 }) }), { maxLength: 300 })
  .map(uniqueByKey);

const sortedByKey = (entries: readonly PackedEntry[]) =>
  [...entries].sort((a, b) => compareBytes(a.key, b.key));

describe("entry blocks", () => {
  it("give back every employment entry, in key order, whatever was packed", () => {
    fc.assert(
      fc.property(employmentEntries, (entries) => {
        const blocks = packBlocks(entries, "employment");
        const read = blocks.flatMap((block) => unpackBlock(block.data, "employment"));
        expect(read.map((e) => ({ key: [...e.key], pairs: e.pairs, recordBytes: e.recordBytes }))).toEqual(
          sortedByKey(entries).map((e) => ({ key: [...e.key], pairs: e.pairs, recordBytes: e.recordBytes })),
        );
      }),
    );
  });

  it("give back person entries with all their name pairs, none included", () => {
    fc.assert(
      fc.property(personEntries, (entries) => {
        const read = packBlocks(entries, "person").flatMap((block) => unpackBlock(block.data, "person"));
        expect(read.map((e) => e.pairs)).toEqual(sortedByKey(entries).map((e) => e.pairs));
      }),
    );
  });

  it("key each block by its last entry, keep blocks under the target and in order", () => {
    fc.assert(
      fc.property(personEntries, (entries) => {
        const blocks = packBlocks(entries, "person");
        for (const [i, block] of blocks.entries()) {
          const inBlock = unpackBlock(block.data, "person");
          expect([...block.last]).toEqual([...(inBlock.at(-1)?.key ?? [])]);
          // A block over the target holds a single entry too large to share a block.
          if (block.data.length > BLOCK_TARGET_BYTES) expect(inBlock).toHaveLength(1);
          const next = blocks[i + 1];
          if (next) expect(compareBytes(block.last, next.last)).toBeLessThan(0);
        }
      }),
    );
  });

  it("with a name filter, keep the names of exactly the entries with a pair containing the fragments", () => {
    const fragment = fc.option(fc.string({ unit: "grapheme", minLength: 1, maxLength: 2 }), {
      nil: undefined,
    });
    fc.assert(
      fc.property(personEntries, fragment, fragment, (entries, first, last) => {
        const filter = {
          ...(first === undefined ? {} : { firstName: Buffer.from(first) }),
          ...(last === undefined ? {} : { lastName: Buffer.from(last) }),
        };
        const packed = packBlocks(entries, "person");
        const whole = packed.flatMap((block) => unpackBlock(block.data, "person"));
        const filtered = packed.flatMap((block) => unpackBlock(block.data, "person", filter));
        expect(filtered.map((e) => [...e.key])).toEqual(whole.map((e) => [...e.key]));
        const matches = (pair: { firstName: string | null; lastName: string | null }) =>
          (first === undefined || (pair.firstName?.includes(first) ?? false)) &&
          (last === undefined || (pair.lastName?.includes(last) ?? false));
        for (const [i, entry] of filtered.entries()) {
          const original = whole[i]?.pairs ?? [];
          expect(entry.pairs).toEqual(original.some(matches) ? original : []);
        }
      }),
    );
  });

  it("encode a missing name apart from an empty one", () => {
    const entry = {
      key: new Uint8Array(ENTRY_KEY_BYTES),
      pairs: [{ firstName: null, lastName: "" }],
      recordBytes: 500,
    };
    const [read] = unpackBlock(encodeEntry(entry, "employment"), "employment");
    expect(read?.pairs).toEqual([{ firstName: null, lastName: "" }]);
    // Record sizes are kept in 16-byte units, rounded up.
    expect(read?.recordBytes).toBe(512);
    expect([...(read?.key ?? [])]).toEqual(new Array(ENTRY_KEY_BYTES).fill(0));
  });

  it("count more than 127 name pairs in two bytes", () => {
    const pairs = Array.from({ length: 300 }, (_, i) => ({ firstName: `f${i}`, lastName: null }));
    const [read] = unpackBlock(
      encodeEntry({ key: new Uint8Array(ENTRY_KEY_BYTES), pairs }, "person"),
      "person",
    );
    expect(read?.pairs).toEqual(pairs);
  });

  it("refuse what they cannot hold", () => {
    const base = {
      key: new Uint8Array(ENTRY_KEY_BYTES),
      pairs: [{ firstName: "a", lastName: "b" }],
      recordBytes: 16,
    };
    expect(() => encodeEntry({ ...base, key: new Uint8Array(3) }, "employment")).toThrow(/25 bytes/);
    expect(() => encodeEntry({ ...base, pairs: [] }, "employment")).toThrow(/one name pair/);
    expect(() => encodeEntry({ key: base.key, pairs: base.pairs }, "employment")).toThrow(/record size/);
    expect(() => encodeEntry({ ...base, recordBytes: 2_000_000 }, "employment")).toThrow(/record size/);
    expect(() =>
      encodeEntry({ ...base, pairs: [{ firstName: "x".repeat(70_000), lastName: null }] }, "person"),
    ).toThrow(/65,534/);
    expect(() => unpackBlock(Uint8Array.of(1, 2, 3), "employment")).toThrow();
  });
});
