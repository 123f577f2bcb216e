/**
 * Workarounds for how dynalite ends its LevelDB iterators.
 *
 * dynalite reads a Query or Scan through a stream over an iterator, and ends the stream early (at
 * `Limit` or 1 MB) by calling the iterator's `return()`, the async-iterator protocol's. abstract-
 * level's iterators have `close()` but no `return()`, so such an iterator was never closed:
 *
 * - abstract-level keeps every open iterator in its database's resource set until the database
 *   closes. In memory (memory-level) that held about 0.4 MB per persons search (RSS 1.08 → 1.95 GB
 *   in 180 s of the load test);
 * - on disk (classic-level, the scale bench) an open iterator pins LevelDB's files: a
 *   100,000-record bench's folder grew to 13 GB before its load ended.
 *
 * `closeLevelIteratorsOnReturn` gives them a `return()` that closes them. `untrackLevelIterators`,
 * the first workaround, stays for memory-level: an iterator dynalite abandons without ending its
 * stream (an error mid-query) is then garbage like any object.
 */
import { AbstractIterator, AbstractKeyIterator, AbstractLevel, AbstractValueIterator } from "abstract-level";

const ITERATORS = [AbstractIterator, AbstractKeyIterator, AbstractValueIterator];

let untracked = false;

export function untrackLevelIterators(): void {
  if (untracked) return;
  untracked = true;
  const attach = AbstractLevel.prototype.attachResource;
  AbstractLevel.prototype.attachResource = function attachResource(this: AbstractLevel<unknown>, resource) {
    const iterator = ITERATORS.some((kind) => resource instanceof kind);
    if (!iterator) attach.call(this, resource);
  };
}

let closing = false;

export function closeLevelIteratorsOnReturn(): void {
  if (closing) return;
  closing = true;
  for (const kind of ITERATORS)
    Object.defineProperty(kind.prototype, "return", {
      configurable: true,
      writable: true,
      value: async function close(this: { close(): Promise<void> }) {
        await this.close();
        return { done: true, value: undefined };
      },
    });
}
