/**
 * `repair` heals any single damaged entry or derived item: one at a time, an entry, record
 * attribute, order item, posting, census or marker of a company or a kept scope is deleted or has
 * a byte of `d` flipped; repair runs and verify must pass. Records' contents, locations and bundles
 * are the source repair derives from, so they are not damaged here.
 *
 * Every family of item (verify-fixture.ts `familyOf`) is damaged at its first and last item and at
 * one drawn from the seed (REPAIR_SEED=N repeats a run): each damage to each kind of item in every
 * run, and over runs, every item. The damages are shared out between the engines (`sharedOut`).
 */
import { DemoRandom } from "../../../../lib/directory/demo-random.js";
import { type Item, keyOf, keyText } from "../../../../lib/store/dynamo/model/batch.js";
import { isCompanyPartition, isScopePartition } from "../../../../lib/store/dynamo/model/layout.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { repairDerived } from "../../../../lib/store/dynamo/write/load-session.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { describeEachEngine, sharedOut } from "../../../support/engines.js";
import { tableItems } from "../../../support/table-items.js";
import { itemAt, loadTwiceAndKeepScope, sampleOfEachFamily } from "../verify-fixture.js";

const RECORD = 0x03;
const SEED = Number(process.env.REPAIR_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** Entries and derived items: the ones repair rebuilds. */
const healable = (item: Item) => {
  const { p } = keyOf(item);
  return (isCompanyPartition(p) || isScopePartition(p)) && item[A.supersededAt] === undefined;
};

/**
 * The damaged item to put, or null to delete it, or undefined when this damage does not apply: a
 * record loses its phone attribute (its content is the source), another item is deleted or has the
 * byte after its format byte flipped.
 */
function damaged(item: Item, damage: "deleted" | "flipped"): Item | null | undefined {
  const d = item[A.data] as Uint8Array;
  if (keyOf(item).s[0] === RECORD) {
    if (damage === "flipped" || item[A.phone] === undefined) return undefined;
    const { [A.phone]: _, ...phoneless } = item;
    return phoneless;
  }
  if (damage === "deleted") return null;
  if (d.length < 2) return undefined;
  const flipped = Uint8Array.from(d);
  flipped[1] = (flipped[1] ?? 0) ^ 0x01;
  return { ...item, [A.data]: flipped };
}

describeEachEngine(
  `repair heals any single damaged entry or derived item (REPAIR_SEED=${SEED})`,
  (getEngine, engineName) => {
    const documents = () => documentClientFor(getEngine().client);
    const table = () => getEngine().tables.directory;

    beforeAll(() => loadTwiceAndKeepScope(documents(), table()));

    it("deleted, or a byte of `d` flipped, each is healed by repair and verify passes", async () => {
      const items = tableItems(documents(), table());
      const current = async () => (await items.all()).filter(healable);
      const targets = sampleOfEachFamily(await current(), new DemoRandom(SEED));
      expect(new Set(targets.map(([family]) => family)).size).toBeGreaterThan(10);
      /** Damages an item (repair writes new versions: of the table as it is now), repairs; what verify says then. */
      const healedOrNot = async (target: [string, number], damage: "deleted" | "flipped") => {
        const item = itemAt(await current(), target);
        const put = item && damaged(item, damage);
        if (!item || put === undefined) return undefined;
        const key = keyOf(item);
        if (put === null) await items.remove(key);
        else await items.put(put);
        expect((await verifyDirectory(documents(), table())).problem).toBeDefined();
        await repairDerived(documents(), table(), { graceMs: 0 });
        const { problem } = await verifyDirectory(documents(), table());
        return problem && `${keyText(key)} ${damage}: ${problem.what}`;
      };
      const damages = targets.flatMap((target) =>
        (["deleted", "flipped"] as const).map((damage) => [target, damage] as const),
      );
      const unhealed: string[] = [];
      for (const [target, damage] of sharedOut(damages, SEED, engineName)) {
        const left = await healedOrNot(target, damage);
        if (left) unhealed.push(left);
      }
      expect(unhealed).toEqual([]);
    });
  },
);
