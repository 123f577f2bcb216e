/**
 * A workaround for a leak in dynalite: a Query it stops early (at `Limit` or 1 MB) never closes
 * its LevelDB iterator, and abstract-level keeps every open iterator in its database's resource
 * set until the database closes. Under load that held about 0.4 MB per persons search (RSS 1.08 →
 * 1.95 GB in 180 s of the load test). dynalite's in-memory store (memory-level) holds nothing
 * outside the JS heap, so its iterators need no closing: they are simply not tracked any more, and
 * an abandoned one is garbage like any object. Only iterators change; batches and snapshots are
 * still tracked and closed with the database.
 */
import { AbstractIterator, AbstractKeyIterator, AbstractLevel, AbstractValueIterator } from "abstract-level";

let installed = false;

export function untrackLevelIterators(): void {
  if (installed) return;
  installed = true;
  const attach = AbstractLevel.prototype.attachResource;
  AbstractLevel.prototype.attachResource = function attachResource(this: AbstractLevel<unknown>, resource) {
    const iterator =
      resource instanceof AbstractIterator ||
      resource instanceof AbstractKeyIterator ||
      resource instanceof AbstractValueIterator;
    if (!iterator) attach.call(this, resource);
  };
}
