import fc from "fast-check";
import type { OrderKey } from "../../../../lib/store/binary-keys.js";
import type { BlockRef, OrderIndex } from "../../../../lib/store/dynamo/model/shapes.js";
import {
  BLOCK_ENTRIES,
  blockOf,
  blockStarts,
  blocksOfPositions,
  INDEX_PART_BLOCKS,
  indexParts,
  type OrderPlan,
  planOrder,
  planOrderChanges,
  rankIn,
} from "../../../../lib/store/dynamo/structures/counted-order.js";

/** Order keys as 25-character latin1 strings, from a number: byte order is number order. */
const key = (n: number) => n.toString().padStart(25, "0") as OrderKey;
const keys = (numbers: Iterable<number>) => [...new Set(numbers)].sort((a, b) => a - b).map(key);

/** An order as stored: its index and every block's keys, built by applying plans. */
interface Stored {
  index: OrderIndex;
  blocks: Map<OrderKey, readonly OrderKey[]>;
}

function apply(stored: Stored, plan: OrderPlan): Stored {
  const blocks = new Map(stored.blocks);
  for (const block of plan.superseded) blocks.delete(block.low);
  for (const block of plan.written) blocks.set(block.low, block.keys);
  return { index: plan.index ?? [], blocks };
}

const load = (stored: Stored, next: readonly OrderKey[], gen: number) => {
  const plan = planOrder(stored.index, stored.blocks, next, gen);
  return { plan, stored: apply(stored, plan) };
};

const EMPTY: Stored = { index: [], blocks: new Map() };

/** Every invariant of a stored order holding `expected`. */
function expectOrder(stored: Stored, expected: readonly OrderKey[]) {
  const contents = stored.index.map((block) => stored.blocks.get(block.low) ?? []);
  expect(contents.flat()).toEqual(expected);
  stored.index.forEach((block, i) => {
    const held = contents[i] ?? [];
    expect(block.count).toBe(held.length);
    expect(held.length).toBeGreaterThan(0);
    expect(held.length).toBeLessThanOrEqual(BLOCK_ENTRIES.max);
    expect(block.low <= (held[0] as OrderKey)).toBe(true);
    const before = contents[i - 1]?.at(-1);
    if (before !== undefined) expect(before < block.low).toBe(true);
  });
}

describe("planOrder", () => {
  it("cuts, merges and drops blocks by the sizes it is given", () => {
    const sizes = { target: 26, max: 52, min: 7 };
    const first = planOrder([], new Map(), keys(Array.from({ length: 80 }, (_, i) => i + 1)), 1, sizes);
    expect(first.index?.map((block) => block.count)).toEqual([27, 27, 26]);
    const stored = apply(EMPTY, first);
    // Keys 51-80 go: the second block keeps 23 (over min), the third is dropped.
    const shrunk = planOrder(
      stored.index,
      stored.blocks,
      keys(Array.from({ length: 50 }, (_, i) => i + 1)),
      2,
      sizes,
    );
    expect(shrunk.index?.map((block) => block.count)).toEqual([27, 23]);
    // Under min, the second block is merged into the first (27 + 5 fits max).
    const merged = planOrder(
      stored.index,
      stored.blocks,
      keys(Array.from({ length: 32 }, (_, i) => i + 1)),
      2,
      sizes,
    );
    expect(merged.index?.map((block) => block.count)).toEqual([32]);
  });

  it.each([
    { target: 0, max: 52, min: 7 },
    { target: 26, max: 20, min: 7 },
    { target: 26, max: 52, min: 0 },
    { target: 2.5, max: 52, min: 1 },
  ])("refuses block sizes that cannot cut blocks (%o)", (sizes) => {
    expect(() => planOrder([], new Map(), keys([1, 2, 3]), 1, sizes)).toThrow(/order block sizes need/);
  });

  it("cuts a new order into blocks of the target size", () => {
    const next = keys(Array.from({ length: 1_300 }, (_, i) => i * 3));
    const { plan, stored } = load(EMPTY, next, 7);
    expectOrder(stored, next);
    expect(plan.index?.map((block) => block.count)).toEqual([260, 260, 260, 260, 260]);
    expect(plan.index?.every((block) => block.gen === 7)).toBe(true);
    expect(plan.superseded).toEqual([]);
  });

  it("rewrites only the block a one-key change falls in", () => {
    const first = load(EMPTY, keys(Array.from({ length: 2_000 }, (_, i) => i * 10)), 1).stored;
    const next = keys([...Array.from({ length: 2_000 }, (_, i) => i * 10), 10_005]);
    const { plan, stored } = load(first, next, 2);
    expectOrder(stored, next);
    expect(plan.written).toHaveLength(1);
    expect(plan.superseded).toHaveLength(1);
    expect(plan.index?.filter((block) => block.gen === 2)).toHaveLength(1);
  });

  it("changes nothing when the keys are the same", () => {
    const next = keys(Array.from({ length: 700 }, (_, i) => i));
    const first = load(EMPTY, next, 1).stored;
    const { plan } = load(first, next, 2);
    expect(plan.changed).toBe(false);
    expect(plan.index).toEqual(first.index);
  });

  it("empties an order", () => {
    const first = load(EMPTY, keys([1, 2, 3]), 1).stored;
    const { plan } = load(first, [], 2);
    expect(plan.index).toBeUndefined();
    expect(plan.superseded).toHaveLength(1);
    expect(plan.changed).toBe(true);
  });

  it("moves the first block's bound below a new lowest key", () => {
    const first = load(EMPTY, keys([10, 20, 30]), 1).stored;
    const next = keys([5, 10, 20, 30]);
    const { stored } = load(first, next, 2);
    expectOrder(stored, next);
    expect(stored.index[0]?.low).toBe(key(5));
  });

  it("holds exactly the next keys after any sequence of loads, blocks within bounds", () => {
    const keySet = fc.uniqueArray(fc.integer({ min: 0, max: 5_000 }), { maxLength: 1_500 });
    fc.assert(
      fc.property(fc.array(keySet, { minLength: 1, maxLength: 5 }), (loads) => {
        let stored = EMPTY;
        loads.forEach((numbers, i) => {
          const next = keys(numbers);
          stored = load(stored, next, i + 1).stored;
          expectOrder(stored, next);
        });
      }),
      { numRuns: 60 },
    );
  });

  it("refuses to plan without a stored block's keys", () => {
    const first = load(EMPTY, keys([1, 2]), 1).stored;
    expect(() => planOrder(first.index, new Map(), keys([1]), 2)).toThrow(/not read/);
  });
});

describe("planOrderChanges", () => {
  /** The stored blocks a change of `touched` keys needs: the ones they fall in and their neighbours. */
  function needed(stored: Stored, touched: Iterable<OrderKey>): Map<OrderKey, readonly OrderKey[]> {
    const read = new Map<OrderKey, readonly OrderKey[]>();
    for (const touchedKey of touched) {
      const slot = blockOf(stored.index, touchedKey);
      for (const i of [slot - 1, slot, slot + 1]) {
        const block = stored.index[i];
        if (block) read.set(block.low, stored.blocks.get(block.low) ?? []);
      }
    }
    return read;
  }

  it("holds the keys after any changes, reading only the blocks they fall in and their neighbours", () => {
    const keySet = fc.uniqueArray(fc.integer({ min: 0, max: 5_000 }), { maxLength: 1_500 });
    const change = fc.tuple(fc.integer({ min: 0, max: 5_000 }), fc.boolean());
    fc.assert(
      fc.property(
        keySet,
        fc.array(fc.array(change, { maxLength: 300 }), { maxLength: 4 }),
        (first, loads) => {
          let stored = load(EMPTY, keys(first), 1).stored;
          const expected = new Set(keys(first));
          loads.forEach((changes, i) => {
            const changed = new Map(changes.map(([n, here]) => [key(n), here] as const));
            for (const [changedKey, here] of changed) {
              if (here) expected.add(changedKey);
              else expected.delete(changedKey);
            }
            const plan = planOrderChanges(stored.index, needed(stored, changed.keys()), changed, i + 2);
            stored = apply(stored, plan);
            expectOrder(stored, [...expected].sort());
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it("rewrites one block for a one-key change, and nothing for a change to what is there", () => {
    const stored = load(EMPTY, keys(Array.from({ length: 1_300 }, (_, i) => i * 3)), 1).stored;
    const added = new Map([[key(301), true]]);
    const plan = planOrderChanges(stored.index, needed(stored, added.keys()), added, 2);
    expect(plan.written).toHaveLength(1);
    expect(plan.superseded).toHaveLength(1);
    const same = new Map([
      [key(300), true],
      [key(301), false],
    ]);
    expect(planOrderChanges(stored.index, needed(stored, same.keys()), same, 2).changed).toBe(false);
  });

  it("refuses to plan without a changed block's neighbour", () => {
    const stored = load(EMPTY, keys(Array.from({ length: 1_300 }, (_, i) => i * 3)), 1).stored;
    const [, second] = stored.index;
    if (!second) throw new Error("one block");
    const only = new Map([[second.low, stored.blocks.get(second.low) ?? []]]);
    expect(() => planOrderChanges(stored.index, only, new Map([[second.low, false]]), 2)).toThrow(/not read/);
  });
});

describe("locating in an order", () => {
  const index: BlockRef[] = [
    { low: key(0), gen: 1, count: 3 },
    { low: key(100), gen: 1, count: 2 },
    { low: key(200), gen: 2, count: 4 },
  ];

  it("finds the block whose range holds a key", () => {
    expect(blockOf(index, key(0))).toBe(0);
    expect(blockOf(index, key(99))).toBe(0);
    expect(blockOf(index, key(100))).toBe(1);
    expect(blockOf(index, key(5_000))).toBe(2);
  });

  it("finds the blocks holding a window of positions", () => {
    const starts = blockStarts(index);
    expect(starts).toEqual([0, 3, 5, 9]);
    expect(blocksOfPositions(starts, 0, 2)).toEqual({ first: 0, last: 0 });
    expect(blocksOfPositions(starts, 2, 4)).toEqual({ first: 0, last: 1 });
    expect(blocksOfPositions(starts, 5, 50)).toEqual({ first: 2, last: 2 });
    expect(blocksOfPositions(starts, 9, 50)).toBeUndefined();
  });

  it("ranks a key within a block", () => {
    const held = keys([1, 5, 9]);
    expect(rankIn(held, key(0))).toBe(0);
    expect(rankIn(held, key(5))).toBe(1);
    expect(rankIn(held, key(6))).toBe(2);
    expect(rankIn(held, key(10))).toBe(3);
  });
});

describe("an index in parts", () => {
  const index: OrderIndex = Array.from({ length: 7 }, (_, i) => ({ low: key(i * 10), gen: 1, count: 256 }));

  it("is one part while it fits one item", () => {
    expect(indexParts(index)).toEqual([index]);
    expect(indexParts([])).toEqual([[]]);
    expect(indexParts(index, 7)).toEqual([index]);
  });

  it("is cut in runs of the blocks one item holds, which join back in order", () => {
    const parts = indexParts(index, 3);
    expect(parts.map((part) => part.length)).toEqual([3, 3, 1]);
    expect(parts.flat()).toEqual(index);
  });

  it("holds about 2.5 million keys in one item, 350 KB at 35 bytes a block at most", () => {
    expect(INDEX_PART_BLOCKS * BLOCK_ENTRIES.target).toBeGreaterThan(2_500_000);
    expect(INDEX_PART_BLOCKS * 35).toBeLessThanOrEqual(350_000);
  });

  it("refuses a part of no blocks", () => {
    expect(() => indexParts(index, 0)).toThrow("blocks per index part must be 1 or more: 0");
  });
});
