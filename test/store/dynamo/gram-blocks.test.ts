import fc from "fast-check";
import type { OrderKey } from "../../../lib/store/binary-keys.js";
import { LOWEST_ORDER_KEY } from "../../../lib/store/dynamo/model/layout.js";
import type { OrderIndex } from "../../../lib/store/dynamo/model/shapes.js";
import {
  blocksToSplit,
  blocksTotal,
  GramBlockCutter,
  type GramBlockSizes,
  type GramDelta,
  GramDeltas,
  keysAfter,
  planGramBlocks,
  rangeSegments,
  windowParts,
} from "../../../lib/store/dynamo/structures/gram-blocks.js";
import type { Gram } from "../../../lib/store/dynamo/structures/name-grams.js";

/** Order keys as 25-character latin1 strings, from a number: byte order is number order. */
const key = (n: number) => n.toString().padStart(25, "0") as OrderKey;
const SMALL: GramBlockSizes = { target: 4, max: 8, min: 2 };
const A: Gram = { field: "firstName", text: "a" };
const B: Gram = { field: "lastName", text: "a" };

/** A gram's stored blocks and the keys its postings hold, after applying a plan. */
function applyDeltas(index: OrderIndex, held: Set<OrderKey>, deltas: readonly GramDelta[], gen: number) {
  const after = new Set(held);
  for (const { order, delta } of deltas) {
    if (delta > 0) after.add(order);
    else after.delete(order);
  }
  const sorted = [...after].sort();
  const contents = new Map(
    blocksToSplit(index, deltas, SMALL).map(({ low, before }) => [
      low,
      sorted.filter((k) => k >= low && (before === undefined || k < before)),
    ]),
  );
  const plan = planGramBlocks(index, deltas, gen, contents, SMALL);
  return { plan, held: after };
}

/** Every invariant of a gram's blocks counting `held`. */
function expectTiles(index: OrderIndex, held: ReadonlySet<OrderKey>) {
  if (held.size === 0) {
    expect(index).toEqual([]);
    return;
  }
  expect(index[0]?.low).toBe(LOWEST_ORDER_KEY);
  const sorted = [...held].sort();
  for (const [i, block] of index.entries()) {
    const next = index[i + 1]?.low;
    if (next !== undefined) expect(block.low < next).toBe(true);
    const inside = sorted.filter((k) => k >= block.low && (next === undefined || k < next)).length;
    expect(block.count).toBe(inside);
    expect(block.count).toBeGreaterThan(0);
    expect(block.count).toBeLessThanOrEqual(SMALL.max);
  }
  expect(blocksTotal(index)).toBe(held.size);
}

/** A load's changes: each key added if not held, removed if held (once each), in order. */
function deltasOf(held: ReadonlySet<OrderKey>, load: readonly { n: number; add: boolean }[]): GramDelta[] {
  const next = new Map<OrderKey, number>();
  for (const { n, add } of load) {
    const order = key(n);
    if (!next.has(order) && held.has(order) !== add) next.set(order, add ? 1 : -1);
  }
  return [...next].sort(([a], [b]) => (a < b ? -1 : 1)).map(([order, delta]) => ({ order, delta }));
}

const adds = (...ns: number[]) => ns.map((n) => ({ order: key(n), delta: 1 }));
const removes = (...ns: number[]) => ns.map((n) => ({ order: key(n), delta: -1 }));

describe("gram blocks", () => {
  it("nets a holder's changes per gram; a holder reposted as it was changes nothing", () => {
    const deltas = new GramDeltas();
    deltas.add([A, B], key(1), -1);
    deltas.add([A, B], key(1), 1);
    deltas.add([B], key(3), 1);
    deltas.add([B], key(2), -1);
    expect(deltas.changed()).toEqual([[B, removes(2).concat(adds(3))]]);
  });

  it("cuts postings written whole every `target`, the first block from the lowest key", () => {
    const cutter = new GramBlockCutter(SMALL);
    for (let n = 1; n <= 9; n++) cutter.add(n === 5 ? [A] : [A, B], key(n));
    expect(cutter.blocks()).toEqual([
      // 9 postings: 4, 4, then 1 taken into the one before.
      [
        A,
        [
          { low: LOWEST_ORDER_KEY, count: 4 },
          { low: key(5), count: 5 },
        ],
      ],
      [
        B,
        [
          { low: LOWEST_ORDER_KEY, count: 4 },
          { low: key(6), count: 4 },
        ],
      ],
    ]);
    expect(() => cutter.add([A], key(3))).toThrow(/out of order/);
  });

  it("counts adds and removes into the blocks they fall in, rewriting only those", () => {
    const stored: OrderIndex = [
      { low: LOWEST_ORDER_KEY, gen: 1, count: 4 },
      { low: key(10), gen: 1, count: 4 },
      { low: key(20), gen: 1, count: 4 },
    ];
    const plan = planGramBlocks(stored, [...adds(11), ...removes(12)].sort(), 5, new Map(), SMALL);
    expect(plan.written).toEqual([]);
    expect(plan.superseded).toEqual([]);
    const changed = planGramBlocks(stored, adds(1, 25), 5, new Map(), SMALL);
    expect(changed.written).toEqual([
      { low: LOWEST_ORDER_KEY, count: 5 },
      { low: key(20), count: 5 },
    ]);
    expect(changed.superseded).toEqual([stored[0], stored[2]]);
    expect(changed.blocks.map((block) => block.gen)).toEqual([5, 1, 5]);
  });

  it("merges a block below `min` into the one before, and a small first block with the next", () => {
    const stored: OrderIndex = [
      { low: LOWEST_ORDER_KEY, gen: 1, count: 4 },
      { low: key(10), gen: 1, count: 3 },
      { low: key(20), gen: 1, count: 4 },
    ];
    const merged = planGramBlocks(stored, removes(11, 12), 5, new Map(), SMALL);
    expect(merged.blocks).toEqual([
      { low: LOWEST_ORDER_KEY, gen: 5, count: 5 },
      { low: key(20), gen: 1, count: 4 },
    ]);
    const first = planGramBlocks(stored, removes(1, 2, 3), 5, new Map(), SMALL);
    expect(first.blocks).toEqual([
      { low: LOWEST_ORDER_KEY, gen: 5, count: 4 },
      { low: key(20), gen: 1, count: 4 },
    ]);
    // An emptied first block passes its low to the next.
    const emptied = planGramBlocks(stored, removes(1, 2, 3, 4), 5, new Map(), SMALL);
    expect(emptied.blocks[0]).toEqual({ low: LOWEST_ORDER_KEY, gen: 5, count: 3 });
    // Every posting gone: no block left.
    const none = planGramBlocks([stored[0] as OrderIndex[number]], removes(1, 2, 3, 4), 5, new Map(), SMALL);
    expect(none).toEqual({ blocks: [], written: [], superseded: [stored[0]] });
  });

  it("splits a block above `max` from its keys as read, and refuses keys that disagree", () => {
    const stored: OrderIndex = [{ low: LOWEST_ORDER_KEY, gen: 1, count: 8 }];
    const deltas = adds(9);
    expect(blocksToSplit(stored, deltas, SMALL)).toEqual([{ low: LOWEST_ORDER_KEY, before: undefined }]);
    expect(() => planGramBlocks(stored, deltas, 5, new Map(), SMALL)).toThrow(/not read/);
    const keys = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(key);
    const plan = planGramBlocks(stored, deltas, 5, new Map([[LOWEST_ORDER_KEY, keys]]), SMALL);
    expect(plan.blocks).toEqual([
      { low: LOWEST_ORDER_KEY, gen: 5, count: 5 },
      { low: key(6), gen: 5, count: 4 },
    ]);
    expect(() =>
      planGramBlocks(stored, deltas, 5, new Map([[LOWEST_ORDER_KEY, keys.slice(1)]]), SMALL),
    ).toThrow(/counts 9 postings after the load, but 8 were read/);
    expect(() => planGramBlocks(stored, removes(1, 2, 3, 4, 5, 6, 7, 8, 9), 5, new Map(), SMALL)).toThrow(
      /fewer than no postings/,
    );
  });

  it("applies a chunk's changes to a range's keys read before them", () => {
    const deltas = [...adds(1, 3), ...removes(4), ...adds(9)];
    expect(keysAfter([key(2), key(4)], deltas, { low: key(2), before: key(9) })).toEqual([key(2), key(3)]);
    expect(keysAfter([key(4)], deltas, { low: LOWEST_ORDER_KEY, before: undefined })).toEqual([
      key(1),
      key(3),
      key(9),
    ]);
  });

  it("keeps blocks tiling the postings through any sequence of changes", () => {
    const change = fc.array(fc.record({ n: fc.integer({ min: 1, max: 200 }), add: fc.boolean() }), {
      maxLength: 60,
    });
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 6 }), (loads) => {
        let index: OrderIndex = [];
        let held = new Set<OrderKey>();
        for (const [gen, load] of loads.entries()) {
          const applied = applyDeltas(index, held, deltasOf(held, load), gen + 1);
          const kept = new Set(applied.plan.blocks);
          for (const block of index)
            expect(kept.has(block) || applied.plan.superseded.includes(block)).toBe(true);
          index = applied.plan.blocks;
          held = applied.held;
          expectTiles(index, held);
        }
      }),
    );
  });

  it("parts a range into whole blocks and the two boundary blocks' parts", () => {
    const blocks: OrderIndex = [
      { low: LOWEST_ORDER_KEY, gen: 1, count: 4 },
      { low: key(10), gen: 1, count: 4 },
      { low: key(20), gen: 1, count: 4 },
      { low: key(30), gen: 1, count: 4 },
    ];
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

  it("finds the parts of the segments holding a window", () => {
    expect(windowParts([2, 0, 4, 4], 0, 3)).toEqual([
      { segment: 0, start: 0, end: 2 },
      { segment: 2, start: 0, end: 1 },
    ]);
    expect(windowParts([2, 0, 4, 4], 5, 50)).toEqual([
      { segment: 2, start: 3, end: 4 },
      { segment: 3, start: 0, end: 4 },
    ]);
    expect(windowParts([2, 4], 6, 10)).toEqual([]);
  });
});
