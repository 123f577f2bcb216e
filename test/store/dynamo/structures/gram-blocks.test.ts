import fc from "fast-check";
import type { NamePair } from "../../../../lib/search/matching.js";
import type { OrderKey } from "../../../../lib/store/binary-keys.js";
import { LOWEST_ORDER_KEY } from "../../../../lib/store/dynamo/model/layout.js";
import {
  blocksToSplit,
  blocksTotal,
  companionCounts,
  companionsOf,
  GramBlockCutter,
  type GramBlockIndex,
  type GramBlockSizes,
  type GramDelta,
  GramDeltas,
  type Holder,
  holderGrams,
  keysAfter,
  planGramBlocks,
  rangeSegments,
  windowSpans,
} from "../../../../lib/store/dynamo/structures/gram-blocks.js";
import type { Gram } from "../../../../lib/store/dynamo/structures/name-grams.js";

/** Order keys as 25-character latin1 strings, from a number: byte order is number order. */
const key = (n: number) => n.toString().padStart(25, "0") as OrderKey;
const SMALL: GramBlockSizes = { target: 4, max: 8, min: 2 };
const A: Gram = { field: "firstName", text: "a" };
const B: Gram = { field: "lastName", text: "a" };

const pair = (firstName: string | null, lastName: string | null): NamePair => ({ firstName, lastName });

/** A holder of gram A: its order key, and its companions among `pairs` (none: no last name). */
const holderOf = (order: OrderKey, pairs: readonly NamePair[]): Holder => ({
  order,
  companions: companionsOf(A, pairs),
});

/** The companion counts of holders, as a block holds them. */
function companionCountsOf(holders: readonly Holder[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { companions } of holders)
    for (const gram of companions) counts.set(gram, (counts.get(gram) ?? 0) + 1);
  return counts;
}

/** Gram A's blocks after a load's deltas, the split blocks' holders given as the load leaves them or read before. */
function applyDeltas(
  index: GramBlockIndex,
  held: ReadonlyMap<OrderKey, readonly NamePair[]>,
  after: ReadonlyMap<OrderKey, readonly NamePair[]>,
  deltas: readonly GramDelta[],
  gen: number,
  readBefore: boolean,
) {
  const holders = (map: ReadonlyMap<OrderKey, readonly NamePair[]>, low: OrderKey, before?: OrderKey) =>
    [...map]
      .filter(([k]) => k >= low && (before === undefined || k < before))
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([k, pairs]) => holderOf(k, pairs));
  const contents = new Map(
    blocksToSplit(index, deltas, SMALL).map((range) => [
      range.low,
      readBefore
        ? keysAfter(holders(held, range.low, range.before), deltas, range)
        : holders(after, range.low, range.before),
    ]),
  );
  return planGramBlocks(index, deltas, gen, contents, SMALL);
}

/** Every invariant of gram A's blocks counting its holders `held`, companions included. */
function expectTiles(index: GramBlockIndex, held: ReadonlyMap<OrderKey, readonly NamePair[]>) {
  if (held.size === 0) {
    expect(index).toEqual([]);
    return;
  }
  expect(index[0]?.low).toBe(LOWEST_ORDER_KEY);
  const sorted = [...held].sort(([x], [y]) => (x < y ? -1 : 1));
  for (const [i, block] of index.entries()) {
    const next = index[i + 1]?.low;
    if (next !== undefined) expect(block.low < next).toBe(true);
    const inside = sorted
      .filter(([k]) => k >= block.low && (next === undefined || k < next))
      .map(([k, pairs]) => holderOf(k, pairs));
    expect(block.count).toBe(inside.length);
    expect(block.companions).toEqual(companionCountsOf(inside));
    expect(block.count).toBeGreaterThan(0);
    expect(block.count).toBeLessThanOrEqual(SMALL.max);
  }
  expect(blocksTotal(index)).toBe(held.size);
}

/** The holders of gram A among holders. */
const ofA = (map: ReadonlyMap<OrderKey, readonly NamePair[]>) =>
  new Map([...map].filter(([, pairs]) => pairs.some((p) => p.firstName?.includes("a"))));

/** A load's holders changed (`pairs` undefined or null: gone): the holders after, and gram A's deltas. */
function loadInto(
  all: ReadonlyMap<OrderKey, readonly NamePair[]>,
  load: readonly { n: number; pairs: readonly NamePair[] | null }[],
) {
  const deltas = new GramDeltas();
  const after = new Map(all);
  for (const { n, pairs } of load) {
    const order = key(n);
    const was = after.get(order);
    if (was) deltas.add(was, order, -1);
    if (pairs) {
      deltas.add(pairs, order, 1);
      after.set(order, pairs);
    } else after.delete(order);
  }
  const changes = deltas.changed().find(([gram]) => gram.field === A.field && gram.text === A.text)?.[1];
  return { after, changes: changes ?? [] };
}

const NONE = new Map<string, number>();
const adds = (...ns: number[]) => ns.map((n) => ({ order: key(n), delta: 1, companions: NONE }));
const removes = (...ns: number[]) => ns.map((n) => ({ order: key(n), delta: -1, companions: NONE }));
/** Blocks with no companion counted. */
const stored = (...blocks: { low: OrderKey; count: number; gen?: number }[]): GramBlockIndex =>
  blocks.map(({ low, count, gen }) => ({ low, count, gen: gen ?? 1, companions: NONE }));

describe("gram blocks", () => {
  it("counts a holder's companions per pair, as namesMatch matches both fragments", () => {
    // "ann smith" and "bob avery": "a" is held with the grams of smith, not with avery's "av".
    const pairs = [pair("ann", "smith"), pair("bob", "avery")];
    expect(companionsOf(A, pairs).sort()).toEqual(["h", "i", "it", "m", "mi", "s", "sm", "t", "th"]);
    expect(companionsOf({ field: "lastName", text: "ave" }, pairs).sort()).toEqual(["b", "bo", "o", "ob"]);
    expect(companionsOf(A, [pair("ann", null)])).toEqual([]);
    const grams = holderGrams([pair("ab", "q")]);
    expect(grams).toEqual([
      { gram: { field: "firstName", text: "ab" }, companions: ["q"] },
      { gram: { field: "firstName", text: "a" }, companions: ["q"] },
      { gram: { field: "firstName", text: "b" }, companions: ["q"] },
      { gram: { field: "lastName", text: "q" }, companions: ["a", "b", "ab"] },
    ]);
  });

  it("nets a holder's changes per gram; a holder reposted as it was changes nothing", () => {
    const deltas = new GramDeltas();
    deltas.add([pair("a", "a")], key(1), -1);
    deltas.add([pair("a", "a")], key(1), 1);
    deltas.add([pair(null, "a")], key(3), 1);
    deltas.add([pair(null, "a")], key(2), -1);
    expect(deltas.changed()).toEqual([
      [
        B,
        [
          { order: key(2), delta: -1, companions: NONE },
          { order: key(3), delta: 1, companions: NONE, posted: [] },
        ],
      ],
    ]);
  });

  it("keeps a holder reposted with other companions as a change of companions only", () => {
    const deltas = new GramDeltas();
    deltas.add([pair("a", "x")], key(1), -1);
    deltas.add([pair("a", "y")], key(1), 1);
    const [changed] = deltas.changed().filter(([gram]) => gram.field === "firstName");
    expect(changed).toEqual([
      A,
      [
        {
          order: key(1),
          delta: 0,
          companions: new Map([
            ["x", -1],
            ["y", 1],
          ]),
          posted: ["y"],
        },
      ],
    ]);
    const blocks = planGramBlocks(
      [{ low: LOWEST_ORDER_KEY, gen: 1, count: 2, companions: new Map([["x", 2]]) }],
      changed?.[1] ?? [],
      5,
    ).blocks;
    expect(blocks).toEqual([
      {
        low: LOWEST_ORDER_KEY,
        gen: 5,
        count: 2,
        companions: new Map([
          ["x", 1],
          ["y", 1],
        ]),
      },
    ]);
    // Read before the change, the holder is there with its new companions.
    expect(
      keysAfter([{ order: key(1), companions: ["x"] }], changed?.[1] ?? [], {
        low: LOWEST_ORDER_KEY,
        before: undefined,
      }),
    ).toEqual([{ order: key(1), companions: ["y"] }]);
    // Not read (posted and superseded within the load): not there.
    expect(keysAfter([], changed?.[1] ?? [], { low: LOWEST_ORDER_KEY, before: undefined })).toEqual([]);
  });

  it("cuts postings written whole every `target`, the first block from the lowest key", () => {
    const cutter = new GramBlockCutter(SMALL);
    for (let n = 1; n <= 9; n++) cutter.add([n === 5 ? pair("a", null) : pair("a", "a")], key(n));
    const only = (count: number) => new Map([["a", count]]);
    expect(cutter.blocks()).toEqual([
      // 9 postings: 4, 4, then 1 taken into the one before.
      [
        A,
        [
          { low: LOWEST_ORDER_KEY, count: 4, companions: only(4) },
          { low: key(5), count: 5, companions: only(4) },
        ],
      ],
      [
        B,
        [
          { low: LOWEST_ORDER_KEY, count: 4, companions: only(4) },
          { low: key(6), count: 4, companions: only(4) },
        ],
      ],
    ]);
    expect(() => cutter.add([pair("a", null)], key(3))).toThrow(/out of order/);
  });

  it("counts adds and removes into the blocks they fall in, rewriting only those", () => {
    const index = stored(
      { low: LOWEST_ORDER_KEY, count: 4 },
      { low: key(10), count: 4 },
      { low: key(20), count: 4 },
    );
    const plan = planGramBlocks(index, [...adds(11), ...removes(12)], 5, new Map(), SMALL);
    expect(plan.written).toEqual([]);
    expect(plan.superseded).toEqual([]);
    const changed = planGramBlocks(index, adds(1, 25), 5, new Map(), SMALL);
    expect(changed.written).toEqual([
      { low: LOWEST_ORDER_KEY, count: 5, companions: NONE },
      { low: key(20), count: 5, companions: NONE },
    ]);
    expect(changed.superseded).toEqual([index[0], index[2]]);
    expect(changed.blocks.map((block) => block.gen)).toEqual([5, 1, 5]);
    // A companion more than the postings, or fewer than none: refused.
    const companion = (n: number, count: number) => [
      { order: key(n), delta: 0, companions: new Map([["q", count]]) },
    ];
    expect(() => planGramBlocks(index, companion(1, -1), 5, new Map(), SMALL)).toThrow(
      /fewer than no postings/,
    );
    expect(() => planGramBlocks(index, companion(1, 5), 5, new Map(), SMALL)).toThrow(/companion more often/);
  });

  it("counts a split block's companions anew from the holders read, as companionCounts gives them", () => {
    const holders = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({
      order: key(n),
      companions: n < 3 ? ["q"] : [],
    }));
    const split = planGramBlocks(
      [{ low: LOWEST_ORDER_KEY, gen: 1, count: 8, companions: new Map([["q", 2]]) }],
      adds(9),
      5,
      new Map([[LOWEST_ORDER_KEY, holders]]),
      SMALL,
    );
    expect(split.blocks.map((block) => block.companions)).toEqual([new Map([["q", 2]]), NONE]);
    expect(companionCounts(split.blocks, "q")).toEqual([2, 0]);
    expect(companionCounts(split.blocks, "r")).toEqual([0, 0]);
  });

  it("merges a block below `min` into the one before, and a small first block with the next", () => {
    const index = stored(
      { low: LOWEST_ORDER_KEY, count: 4 },
      { low: key(10), count: 3 },
      { low: key(20), count: 4 },
    );
    const merged = planGramBlocks(index, removes(11, 12), 5, new Map(), SMALL);
    expect(merged.blocks).toEqual([
      { low: LOWEST_ORDER_KEY, gen: 5, count: 5, companions: NONE },
      { low: key(20), gen: 1, count: 4, companions: NONE },
    ]);
    const first = planGramBlocks(index, removes(1, 2, 3), 5, new Map(), SMALL);
    expect(first.blocks).toEqual([
      { low: LOWEST_ORDER_KEY, gen: 5, count: 4, companions: NONE },
      { low: key(20), gen: 1, count: 4, companions: NONE },
    ]);
    // An emptied first block passes its low to the next.
    const emptied = planGramBlocks(index, removes(1, 2, 3, 4), 5, new Map(), SMALL);
    expect(emptied.blocks[0]).toEqual({ low: LOWEST_ORDER_KEY, gen: 5, count: 3, companions: NONE });
    // Every posting gone: no block left.
    const none = planGramBlocks(index.slice(0, 1), removes(1, 2, 3, 4), 5, new Map(), SMALL);
    expect(none).toEqual({ blocks: [], written: [], superseded: [index[0]] });
  });

  it("splits a block above `max` from its holders as read, and refuses holders that disagree", () => {
    const index = stored({ low: LOWEST_ORDER_KEY, count: 8 });
    const deltas = adds(9);
    expect(blocksToSplit(index, deltas, SMALL)).toEqual([{ low: LOWEST_ORDER_KEY, before: undefined }]);
    expect(() => planGramBlocks(index, deltas, 5, new Map(), SMALL)).toThrow(/not read/);
    const holders = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ order: key(n), companions: [] }));
    const plan = planGramBlocks(index, deltas, 5, new Map([[LOWEST_ORDER_KEY, holders]]), SMALL);
    expect(plan.blocks).toEqual([
      { low: LOWEST_ORDER_KEY, gen: 5, count: 5, companions: NONE },
      { low: key(6), gen: 5, count: 4, companions: NONE },
    ]);
    expect(() =>
      planGramBlocks(index, deltas, 5, new Map([[LOWEST_ORDER_KEY, holders.slice(1)]]), SMALL),
    ).toThrow(/counts 9 postings after the load, but 8 were read/);
    expect(() => planGramBlocks(index, removes(1, 2, 3, 4, 5, 6, 7, 8, 9), 5, new Map(), SMALL)).toThrow(
      /fewer than no postings/,
    );
  });

  it("applies a chunk's changes to a range's holders read before them", () => {
    const deltas = [...adds(1, 3), ...removes(4), ...adds(9)];
    const read = (...ns: number[]) => ns.map((n) => ({ order: key(n), companions: [] }));
    expect(keysAfter(read(2, 4), deltas, { low: key(2), before: key(9) })).toEqual(read(2, 3));
    expect(keysAfter(read(4), deltas, { low: LOWEST_ORDER_KEY, before: undefined })).toEqual(read(1, 3, 9));
  });

  it("keeps blocks tiling the postings, companions counted exactly, through any sequence of changes", () => {
    const name = (letters: string) =>
      fc.oneof(
        fc.constant(null),
        fc.string({ unit: fc.constantFrom(...letters), minLength: 1, maxLength: 3 }),
      );
    const holder = fc.array(fc.record({ firstName: name("ab"), lastName: name("aqx") }), {
      minLength: 1,
      maxLength: 2,
    });
    const change = fc.array(fc.record({ n: fc.integer({ min: 1, max: 120 }), pairs: fc.option(holder) }), {
      maxLength: 50,
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(change, fc.boolean()), { minLength: 1, maxLength: 6 }), (loads) => {
        let index: GramBlockIndex = [];
        // Every holder, and those holding gram A.
        let all = new Map<OrderKey, readonly NamePair[]>();
        for (const [gen, [load, readBefore]] of loads.entries()) {
          const { after, changes } = loadInto(all, load);
          const plan = applyDeltas(index, ofA(all), ofA(after), changes, gen + 1, readBefore);
          const kept = new Set(plan.blocks);
          for (const block of index) expect(kept.has(block) || plan.superseded.includes(block)).toBe(true);
          index = plan.blocks;
          all = after;
          expectTiles(index, ofA(all));
        }
      }),
    );
  });

  it("cuts a range into segments: whole blocks and the two boundary segments", () => {
    const blocks = stored(
      { low: LOWEST_ORDER_KEY, count: 4 },
      { low: key(10), count: 4 },
      { low: key(20), count: 4 },
      { low: key(30), count: 4 },
    );
    expect(rangeSegments(blocks, key(5), key(25))).toEqual([
      { block: 0, from: key(5), before: key(10), whole: false },
      { block: 1, from: key(10), before: key(20), whole: true },
      { block: 2, from: key(20), before: key(25), whole: false },
    ]);
    expect(rangeSegments(blocks, undefined, key(10))).toEqual([
      { block: 0, from: LOWEST_ORDER_KEY, before: key(10), whole: true },
    ]);
    expect(rangeSegments(blocks, key(31), undefined)).toEqual([
      { block: 3, from: key(31), before: undefined, whole: false },
    ]);
    expect(rangeSegments(blocks, key(12), key(15))).toEqual([
      { block: 1, from: key(12), before: key(15), whole: false },
    ]);
    expect(rangeSegments([], undefined, undefined)).toEqual([]);
  });

  it("finds the spans of the segments holding a window", () => {
    expect(windowSpans([2, 0, 4, 4], 0, 3)).toEqual([
      { segment: 0, start: 0, end: 2 },
      { segment: 2, start: 0, end: 1 },
    ]);
    expect(windowSpans([2, 0, 4, 4], 5, 50)).toEqual([
      { segment: 2, start: 3, end: 4 },
      { segment: 3, start: 0, end: 4 },
    ]);
    expect(windowSpans([2, 4], 6, 10)).toEqual([]);
  });
});
