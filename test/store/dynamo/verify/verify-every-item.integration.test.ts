/**
 * `verify` notices any single damaged item. A directory of two loads and a kept scope is read
 * whole; then, one item at a time and undone after each, stored items (but the manifest) are
 * deleted, altered (a byte of `d` flipped, a byte added, an attribute removed, a count lowered) and
 * copied where they do not belong (another generation, another record or person, the other
 * company): verify must report each, unless what the item holds is unchanged (below). The misses
 * are gathered, so a failure lists them all. The items are every family's first, last and one
 * drawn from the seed (VERIFY_SEED=N repeats a run; verify-fixture.ts `sampleOfEachFamily`). The
 * test runs on one engine, by turns from the seed (`itByTurns`): both over an even and an odd seed.
 */
import { DemoRandom } from "../../../../lib/directory/demo-random.js";
import { type Item, type ItemKey, keyOf } from "../../../../lib/store/dynamo/model/batch.js";
import { decodeOrderIndex, decompress, encodeOrderIndex } from "../../../../lib/store/dynamo/model/codec.js";
import {
  companyPartition,
  isCompanyPartition,
  isGramCensusSort,
  isJournalPartition,
  isLocationPartition,
  isOrderBlockSort,
  isOrderIndexSort,
  isPersonPartition,
  isPostingSort,
  isScopePartition,
  MANIFEST_KEY,
  type SortKey,
} from "../../../../lib/store/dynamo/model/layout.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { describeEachEngine, itByTurns } from "../../../support/engines.js";
import { tableItems } from "../../../support/table-items.js";
import { familyOf, itemAt, loadTwiceAndKeepScope, sampleOfEachFamily } from "../verify-fixture.js";

const SEED = Number(process.env.VERIFY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const named = ({ p, s }: ItemKey) => `p=${hex(p)} s=${hex(s)}`;
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** A damage: what it is, and the items to put (an altered or added item) or delete. */
interface Damage {
  readonly what: string;
  readonly put?: Item;
  readonly remove?: ItemKey;
}

const bytes = (value: unknown) => value as Uint8Array;
const withData = (item: Item, d: Uint8Array): Item => ({ ...item, [A.data]: d });

/** `s` with the 4 bytes at `at` (a generation, big-endian) set to `gen`. */
function regen(s: Uint8Array, at: number, gen: number): SortKey {
  const copy = Uint8Array.from(s);
  new DataView(copy.buffer).setUint32(at, gen);
  return copy as SortKey;
}

/** Where the generation sits in an item's sort key, and what it is; undefined for locations. */
function genAt(item: Item): number | undefined {
  const { p, s } = keyOf(item);
  if (isLocationPartition(p)) return undefined;
  if (isPersonPartition(p)) return 0;
  if (isCompanyPartition(p) || isScopePartition(p)) return isGramCensusSort(s) ? 1 : s.length - 4;
  return s.length - 4; // the scope registry
}

/** Whether the sort key ends with an order key and a generation: entries, records, blocks, postings. */
const hasOrderKey = ({ p, s }: ItemKey) =>
  (isCompanyPartition(p) || isScopePartition(p)) && (s[0] ?? 0) <= 0x0b && !isOrderIndexSort(s);

/** Each attribute removed but the key. */
const withoutEach = (item: Item): Damage[] =>
  Object.keys(item)
    .filter((attr) => attr !== A.partition && attr !== A.sort)
    .map((attr) => {
      const { [attr]: _, ...rest } = item;
      return { what: `without \`${attr}\``, put: rest };
    });

/** `d` with a byte added, with its first and last bytes after the format byte flipped, a count lowered. */
function altered(item: Item): Damage[] {
  const d = bytes(item[A.data]);
  if (!d) return [];
  const list: Damage[] = [{ what: "a byte added to `d`", put: withData(item, Uint8Array.from([...d, 0])) }];
  for (const at of new Set([1, d.length - 1].filter((i) => i >= 1 && i < d.length))) {
    const flipped = Uint8Array.from(d);
    flipped[at] = (flipped[at] ?? 0) ^ 0x01;
    list.push({ what: `byte ${at} of \`d\` flipped`, put: withData(item, flipped) });
  }
  const [first, ...rest] = isOrderIndexSort(keyOf(item).s) ? decodeOrderIndex(d) : [];
  if (first) {
    const lowered = encodeOrderIndex([{ ...first, count: first.count - 1 }, ...rest]);
    list.push({ what: "its first block's count lowered", put: withData(item, lowered) });
  }
  return list;
}

/** A copy of the item under sort key `s`, or in partition `p`: put, then removed. */
const copy = (item: Item, what: string, to: ItemKey): Damage => ({
  what,
  put: { ...item, [A.partition]: to.p, [A.sort]: to.s },
  remove: to,
});

/** Copies at another generation, for another record or person, in the other company. */
function copies(item: Item): Damage[] {
  const key = keyOf(item);
  const list: Damage[] = [];
  const at = genAt(item);
  if (at !== undefined) {
    const gen = new DataView(key.s.buffer, key.s.byteOffset).getUint32(at);
    for (const other of [0, gen === 3 ? 2 : 3].filter((g) => g !== gen))
      list.push(copy(item, `copied to generation ${other}`, { p: key.p, s: regen(key.s, at, other) }));
  }
  if (hasOrderKey(key) && !isOrderBlockSort(key.s)) {
    // The uuid of its order key (a record's or a person's) changed: a copy for one that does not exist.
    const s = Uint8Array.from(key.s) as SortKey;
    s[s.length - 5] = (s[s.length - 5] ?? 0) ^ 0x40;
    list.push(copy(item, "copied to another id", { p: key.p, s }));
  }
  if (isCompanyPartition(key.p) && !isPostingSort(key.s) && (key.s[0] ?? 0) <= 0x07) {
    const other = same(key.p, companyPartition("acme")) ? "beta" : "acme";
    list.push(copy(item, `copied to ${other}`, { p: companyPartition(other), s: key.s }));
  }
  return list;
}

const damages = (item: Item): Damage[] => [
  { what: "deleted", remove: keyOf(item) },
  ...withoutEach(item),
  ...altered(item),
  ...copies(item),
];

/**
 * A compressed value whose altered bytes still decompress to what it held (a padding bit of
 * brotli's last byte): nothing any reader sees changed, and verify cannot tell without compressing
 * again, which it does not (brotli's output may change with its library).
 */
function holdsTheSame(item: Item, damage: Damage): boolean {
  const altered = damage.put?.[A.data];
  if (!(altered instanceof Uint8Array) || damage.remove) return false;
  try {
    return JSON.stringify(decompress(altered)) === JSON.stringify(decompress(bytes(item[A.data])));
  } catch {
    return false;
  }
}

describeEachEngine(
  `verify notices any single damaged item (VERIFY_SEED=${SEED})`,
  (getEngine, engineName) => {
    // Hundreds of damaged tables verified: one engine a run, by turns from the seed.
    const it = itByTurns(SEED, engineName);
    const documents = () => documentClientFor(getEngine().client);
    const table = () => getEngine().tables.directory;

    beforeAll(() => loadTwiceAndKeepScope(documents(), table()));

    it("reports every item deleted, altered or copied where it does not belong", async () => {
      const items = tableItems(documents(), table());
      expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
      const stored = (await items.all()).filter((item) => {
        const { p } = keyOf(item);
        return !same(p, MANIFEST_KEY.p) && !isJournalPartition(p);
      });
      expect(stored.length).toBeGreaterThan(50);
      /** Whether verify reports the damage; undone after (a copy removed, the item put back). */
      const reported = async (item: Item, damage: Damage) => {
        if (damage.put) await items.put(damage.put);
        else if (damage.remove) await items.remove(damage.remove);
        const { problem } = await verifyDirectory(documents(), table());
        if (damage.put && damage.remove) await items.remove(damage.remove);
        await items.put(item);
        return problem !== undefined;
      };
      const misses: string[] = [];
      const sampled = sampleOfEachFamily(stored, new DemoRandom(SEED)).flatMap((target): Item[] => {
        const item = itemAt(stored, target);
        return item ? [item] : [];
      });
      expect(new Set(sampled.map(familyOf)).size).toBeGreaterThan(10);
      for (const item of sampled)
        for (const damage of damages(item))
          if (!(await reported(item, damage)) && !holdsTheSame(item, damage))
            misses.push(`${named(keyOf(item))}: ${damage.what}`);
      expect(misses).toEqual([]);
      expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    });
  },
);
