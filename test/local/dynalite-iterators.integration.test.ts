/**
 * dynalite ends every Query's iterator through `return()`, which abstract-level's iterators lack;
 * closeLevelIteratorsOnReturn() (run by startDynalite) makes it close them. Without it each
 * iterator stays open until the database closes: a leak in memory, files pinned on disk. Checked
 * on dynalite in this process, in memory and on disk, for Queries stopped at their `Limit` and
 * Queries that read their whole range.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AbstractIterator, AbstractKeyIterator, AbstractValueIterator } from "abstract-level";
import { startDynalite } from "../../lib/local/engines.js";
import { partitionOf, queryPartition } from "./engine-partition.js";

const ITEMS = 5;
const QUERIES = 10;

type Method = (this: object, ...args: unknown[]) => unknown;

/** Counts iterators opened (first read) and closed while `work` runs, by wrapping their methods. */
async function iteratorsDuring(work: () => Promise<void>): Promise<{ opened: number; closed: number }> {
  const counts = { opened: 0, closed: 0 };
  const open = new WeakSet<object>();
  const restores: (() => void)[] = [];
  const wrap = (prototype: Record<string, Method>, name: string, before: (self: object) => void) => {
    const had = Object.hasOwn(prototype, name);
    const original = prototype[name] as Method;
    prototype[name] = function (this: object, ...args: unknown[]) {
      before(this);
      return original.apply(this, args);
    };
    restores.push(() => {
      if (had) prototype[name] = original;
      else delete prototype[name];
    });
  };
  for (const kind of [AbstractIterator, AbstractKeyIterator, AbstractValueIterator]) {
    const prototype = kind.prototype as unknown as Record<string, Method>;
    wrap(prototype, "next", (self) => {
      if (!open.has(self)) counts.opened += 1;
      open.add(self);
    });
    wrap(prototype, "close", (self) => {
      if (open.delete(self)) counts.closed += 1;
    });
  }
  try {
    await work();
  } finally {
    for (const restore of restores) restore();
  }
  return counts;
}

describe.each([
  ["in memory", false],
  ["on disk", true],
])("dynalite %s", (_name, onDisk) => {
  let folder: string | undefined;
  afterEach(() => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it.each([
    ["stopped at their Limit", 1],
    ["that read their whole range", undefined],
  ])("closes the iterator of each Query %s", async (_what, limit) => {
    folder = onDisk ? mkdtempSync(join(tmpdir(), "dynalite-iterators-")) : undefined;
    const engine = await startDynalite(folder === undefined ? {} : { path: folder });
    try {
      const documents = await partitionOf(engine, ITEMS);
      const counts = await iteratorsDuring(async () => {
        for (let i = 0; i < QUERIES; i += 1)
          expect(await queryPartition(documents, limit)).toBe(limit ?? ITEMS);
      });
      expect(counts.opened).toBeGreaterThanOrEqual(QUERIES);
      expect(counts.closed).toBe(counts.opened);
    } finally {
      await engine.stop();
    }
  });
});
