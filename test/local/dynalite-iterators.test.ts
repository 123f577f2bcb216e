/**
 * dynalite abandons the LevelDB iterator of every Query it stops early; abstract-level would keep
 * each one for the life of the database (a leak of the local server under load). Once
 * untrackLevelIterators() runs, an abandoned iterator is garbage like any other object.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { MemoryLevel } from "memory-level";
import { untrackLevelIterators } from "../../lib/local/dynalite-iterators.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function abandonedIteratorIsCollected(db: MemoryLevel<string, string>): Promise<boolean> {
  let ref: WeakRef<object> | undefined;
  await (async () => {
    const iterator = db.values();
    await iterator.next(); // read one value and walk away, as dynalite does at Limit
    ref = new WeakRef(iterator);
  })();
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  return ref?.deref() === undefined;
}

describe("untrackLevelIterators", () => {
  it("lets an abandoned iterator be garbage collected, and the database still close", async () => {
    untrackLevelIterators();
    const db = new MemoryLevel<string, string>();
    await db.put("a", "1");
    await db.put("b", "2");
    expect(await abandonedIteratorIsCollected(db)).toBe(true);
    // Iterators still work as before, and closing still works.
    expect(await db.values().all()).toEqual(["1", "2"]);
    await db.close();
    expect(db.status).toBe("closed");
  });
});
