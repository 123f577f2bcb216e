/**
 * `repair` cut off at any call, as a kill would cut it: before a call reaches the engine, or after
 * the engine applied it but before the repair hears back (test/load/kill-proxy.ts, in this
 * process: past the kill point no call of the repair reaches the engine, so neither does its own
 * undo). Then the recovery every next load runs (it takes the dead repair's lease over, undoes its
 * generation or finishes its clean-up) must leave the directory exactly as before the repair, or,
 * once the flip reached the table, exactly as an uninterrupted repair leaves it: the same searches,
 * the same verify report, the same items.
 *
 * Of a directory as loaded (repair finds every entry and posting as it would write it) and of one
 * damaged where repair heals in place (a record's attribute, entries and postings deleted or
 * altered: rewrites.ts) and at new generations (an order index, the census, a scope's posting);
 * there, a repair after the recovery must heal it for good. The crash points come from
 * the calls of an uninterrupted repair of the same table: the lease, the first journal entry and
 * write, writes spread over the whole run, the last before the flip, the flip, the clean-up. Each
 * runs on one engine, by turns (`itByTurns`): TURN_SEED=1 and TURN_SEED=2 run every one on both.
 */
import { localClient } from "../../../../lib/local/engines.js";
import { readManifest } from "../../../../lib/store/dynamo/manifest/manifest.js";
import { batchWrite, type Item, keyOf, keyText } from "../../../../lib/store/dynamo/model/batch.js";
import {
  isJournalPartition,
  journalPartition,
  MANIFEST_KEY,
} from "../../../../lib/store/dynamo/model/layout.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { dynamoDirectoryWriter, repairDerived } from "../../../../lib/store/dynamo/write/load-session.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { type CallKind, describePoint, type KillPoint, startKillProxy } from "../../../load/kill-proxy.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../../../support/engines.js";
import { tableItems } from "../../../support/table-items.js";
import { familyOf, fixtureSearches, loadTwiceAndKeepScope } from "../verify-fixture.js";

type Variant = "as loaded" | "damaged";

/** What readers and verify see, and every item but the manifest, by key. */
interface State {
  readonly items: readonly Item[];
  readonly searches: unknown[];
  readonly verified: unknown;
}

/** The calls of an uninterrupted repair, and the state it leaves. */
interface Profile {
  readonly calls: readonly CallKind[];
  readonly after: State;
}

const isManifest = (item: Item) => keyText(keyOf(item)) === keyText(MANIFEST_KEY);

/** An item's value, comparable: its attributes in order, bytes as hex. */
function valueText(item: Item): string {
  return JSON.stringify(
    Object.keys(item)
      .sort()
      .map((name) => {
        const value = item[name];
        return [name, value instanceof Uint8Array ? Buffer.from(value).toString("hex") : value];
      }),
  );
}

const byKey = (items: readonly Item[]) =>
  new Map(items.filter((item) => !isManifest(item)).map((item) => [keyText(keyOf(item)), item]));

/** How `actual` differs from `expected`, item by item (each named by family and key). */
function differences(expected: readonly Item[], actual: readonly Item[]) {
  const [want, have] = [byKey(expected), byKey(actual)];
  const named = (item: Item) => `${familyOf(item)} ${keyText(keyOf(item))}`;
  return {
    missing: [...want].filter(([key]) => !have.has(key)).map(([, item]) => named(item)),
    left: [...have].filter(([key]) => !want.has(key)).map(([, item]) => named(item)),
    changed: [...want].flatMap(([key, item]) => {
      const other = have.get(key);
      return other && valueText(other) !== valueText(item) ? [named(item)] : [];
    }),
  };
}

const bytes = (item: Item, name: string) => item[name] as Uint8Array;
const inAcme = (item: Item, family: number) =>
  Buffer.from(bytes(item, A.partition)).equals(Buffer.from("acme")) && bytes(item, A.sort)[0] === family;
const inScope = (item: Item, family: number) =>
  bytes(item, A.partition)[0] === 0xfd && bytes(item, A.sort)[0] === family;
/** A name posting, not a gram block (whose sort key has 0x00 after the gram). */
const isPosting = (item: Item) => bytes(item, A.sort).length > 30;

/**
 * Damage repair heals: in place (a record's phone attribute removed, a key entry and a posting
 * deleted, a names entry and a posting altered) and with new versions (an order index and the
 * census altered, a scope's posting deleted).
 */
function damage(items: readonly Item[]): { put: Item[]; remove: Item[] } {
  const first = (test: (item: Item) => boolean, nth = 0) => {
    const found = items.filter((item) => item[A.supersededAt] === undefined && test(item))[nth];
    if (!found) throw new Error("no such item in the fixture");
    return found;
  };
  const flipped = (item: Item): Item => {
    const d = Uint8Array.from(bytes(item, A.data));
    d[d.length - 1] = (d[d.length - 1] ?? 0) ^ 1;
    return { ...item, [A.data]: d };
  };
  const { [A.phone]: _, ...phoneless } = first((item) => inAcme(item, 0x03) && item[A.phone] !== undefined);
  return {
    put: [
      phoneless,
      flipped(first((item) => inAcme(item, 0x04))),
      flipped(first((item) => inAcme(item, 0x0b) && isPosting(item), 1)),
      flipped(first((item) => inAcme(item, 0x0a))),
      flipped(first((item) => inAcme(item, 0x0c))),
    ],
    remove: [
      first((item) => inAcme(item, 0x01)),
      first((item) => inAcme(item, 0x0b) && isPosting(item), 2),
      first((item) => inScope(item, 0x0b) && isPosting(item)),
    ],
  };
}

/** A crash point of a profile's calls, named. */
type Crash = readonly [string, (calls: readonly CallKind[]) => KillPoint];

/** The call at `position` as a kill point: the n-th call of its kind. */
function pointAt(calls: readonly CallKind[], position: number, when: KillPoint["when"]): KillPoint {
  const kind = calls[position];
  if (kind === undefined) throw new Error(`no call at ${position}`);
  const index = calls.slice(0, position + 1).filter((call) => call === kind).length;
  return { kind, index, when };
}

/** Positions of the repair's writes before the flip: journal entries, batches of writes, stamps. */
const writesBeforeFlip = (calls: readonly CallKind[]) =>
  calls.flatMap((call, i) =>
    i < calls.indexOf("publish") && (call === "journal" || call === "write" || call === "stamp") ? [i] : [],
  );

const SPREAD = 6;
const count = (calls: readonly CallKind[], kind: CallKind) => calls.filter((call) => call === kind).length;

const CRASHES: readonly Crash[] = [
  ["the lease taken, nothing else", () => ({ kind: "lease", index: 1, when: "after" })],
  ["the first journal entry, before it lands", () => ({ kind: "journal", index: 1, when: "before" })],
  [
    "the first journal entry landed, none of its writes",
    () => ({ kind: "journal", index: 1, when: "after" }),
  ],
  ["the first batch of writes landed", () => ({ kind: "write", index: 1, when: "after" })],
  // Evenly over every write before the flip, landed or not by turns.
  ...Array.from({ length: SPREAD }, (_, i): Crash => {
    const when = i % 2 === 0 ? "after" : "before";
    return [
      `write ${i + 1} of ${SPREAD} spread over the run, ${when === "after" ? "landed" : "before it lands"}`,
      (calls) => {
        const writes = writesBeforeFlip(calls);
        return pointAt(calls, writes[Math.floor(((i + 1) * writes.length) / (SPREAD + 1))] ?? -1, when);
      },
    ];
  }),
  [
    "the last write before the flip landed",
    (calls) => pointAt(calls, writesBeforeFlip(calls).at(-1) ?? -1, "after"),
  ],
  ["the flip, before it lands", () => ({ kind: "publish", index: 1, when: "before" })],
  ["the flip landed, unheard", () => ({ kind: "publish", index: 1, when: "after" })],
  ["the clean-up's first batch, before it lands", () => ({ kind: "cleanup", index: 1, when: "before" })],
  [
    "the clean-up's last batch landed",
    (calls) => ({ kind: "cleanup", index: count(calls, "cleanup"), when: "after" }),
  ],
  ["the clean-up done, the manifest not told", () => ({ kind: "cleaned", index: 1, when: "before" })],
];

describeEachEngine(`a repair interrupted at any call (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  const it = itByTurns(TURN_SEED, engineName);
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;
  const items = () => tableItems(documents(), table());

  /** Makes the table hold exactly `held` (the manifest included). */
  async function restore(held: readonly Item[]) {
    await items().wipe();
    await batchWrite(
      documents(),
      table(),
      held.map((item) => ({ put: item })),
    );
  }

  async function stateNow(): Promise<State> {
    return {
      items: await items().all(),
      searches: await fixtureSearches(documents(), table()),
      verified: (await verifyDirectory(documents(), table())).problem,
    };
  }

  /** A repair through a proxy that cuts it off at `point` (none: it runs to its end); the calls it made. */
  async function repairCut(point: KillPoint | undefined) {
    const proxy = await startKillProxy(getEngine().engine.endpoint, point, () => undefined);
    // One attempt a call: a call cut off is lost, as with a process killed.
    const client = localClient(proxy.url, 1);
    try {
      const repaired = await repairDerived(documentClientFor(client), table(), {
        graceMs: 0,
        renewEveryMs: 3_600_000,
      }).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      await proxy.settled();
      return { error: repaired, calls: [...proxy.calls], fired: proxy.fired() };
    } finally {
      client.destroy();
      await proxy.close();
    }
  }

  /** The state before each variant's repair, and its uninterrupted repair's calls and state after. */
  const befores = new Map<Variant, Promise<State>>();
  const profiles = new Map<Variant, Promise<Profile>>();

  function before(variant: Variant): Promise<State> {
    let found = befores.get(variant);
    if (!found) {
      found = (async () => {
        await items().wipe();
        await loadTwiceAndKeepScope(documents(), table());
        if (variant === "damaged") {
          const { put, remove } = damage(await items().all());
          for (const item of put) await items().put(item);
          for (const item of remove) await items().remove(keyOf(item));
        }
        return stateNow();
      })();
      befores.set(variant, found);
    }
    return found;
  }

  function profile(variant: Variant): Promise<Profile> {
    let found = profiles.get(variant);
    if (!found) {
      found = (async () => {
        await restore((await before(variant)).items);
        const { error, calls } = await repairCut(undefined);
        expect(error).toBeUndefined();
        return { calls, after: await stateNow() };
      })();
      profiles.set(variant, found);
    }
    return found;
  }

  it("a repair run to its end heals the damage: verify passes, searches as of the directory as loaded", async () => {
    // One after the other: they share the suite's table.
    const loaded = await profile("as loaded");
    const healed = await profile("damaged");
    expect((await before("damaged")).verified).toBeDefined();
    expect({ verified: loaded.after.verified, searches: loaded.after.searches }).toEqual({
      verified: undefined,
      searches: (await before("as loaded")).searches,
    });
    expect({ verified: healed.after.verified, searches: healed.after.searches }).toEqual({
      verified: undefined,
      searches: (await before("as loaded")).searches,
    });
    expect(count(loaded.calls, "journal")).toBeGreaterThan(SPREAD);
  });

  async function crashThenRecover(variant: Variant, crash: Crash[1]) {
    const was = await before(variant);
    const { calls, after } = await profile(variant);
    const point = crash(calls);
    await restore(was.items);
    const manifest = await readManifest(documents(), table());
    const cut = await repairCut(point);
    const where = describePoint(point);
    expect({ where, fired: cut.fired, failed: cut.error !== undefined }).toEqual({
      where,
      fired: true,
      failed: true,
    });
    const published = cut.calls.includes("publish") && !(point.kind === "publish" && point.when === "before");
    const expected = published ? after : was;
    // Readers of the dead repair's directory see the committed generation only.
    if (variant === "as loaded")
      expect(await fixtureSearches(documents(), table())).toEqual(expected.searches);

    // The next load's recovery: it takes over the dead repair's lease at once (its holder is dead),
    // undoes its generation or finishes its clean-up, and publishes nothing of its own.
    const next = dynamoDirectoryWriter(documents(), table(), { graceMs: 0, isDead: () => true });
    await (await next.beginLoad("next")).commit();

    const now = await stateNow();
    expect({ searches: now.searches, verified: now.verified }).toEqual({
      searches: expected.searches,
      verified: expected.verified,
    });
    const repairGen = (manifest.issued ?? manifest.committed) + 1;
    const recovered = await readManifest(documents(), table());
    expect({
      committed: recovered.committed,
      lease: recovered.lease,
      cleanup: recovered.cleanup,
      abandoned: recovered.abandoned.includes(repairGen),
    }).toEqual({ committed: published ? repairGen : manifest.committed, abandoned: !published });
    // Bookkeeping, not the directory: an abandoned generation keeps its last journal entry (a
    // killed loader's writes of it may still be on their way; every later load undoes it again),
    // and the manifest's lease, `issued` and `abandoned` move on.
    const kept = (item: Item) =>
      Buffer.from(bytes(item, A.partition)).equals(Buffer.from(journalPartition(repairGen)));
    const leftJournal = now.items.filter((item) => isJournalPartition(bytes(item, A.partition)));
    expect(leftJournal.filter((item) => !kept(item)).map((item) => keyText(keyOf(item)))).toEqual([]);
    expect(leftJournal.length).toBeLessThanOrEqual(published ? 0 : 1);
    expect(
      differences(
        expected.items,
        now.items.filter((item) => !kept(item)),
      ),
    ).toEqual({ missing: [], left: [], changed: [] });

    if (variant === "as loaded") return;
    // A repair then heals what the dead one rewrote where it is, and the next load's recovery,
    // which goes over the dead repair's kept journal entry again, leaves it healed.
    await repairDerived(documents(), table(), { graceMs: 0 });
    await (await next.beginLoad("after")).commit();
    expect({
      searches: await fixtureSearches(documents(), table()),
      verified: (await verifyDirectory(documents(), table())).problem,
    }).toEqual({ searches: after.searches, verified: undefined });
  }

  for (const variant of ["as loaded", "damaged"] as const)
    for (const [title, crash] of CRASHES)
      it(`${variant}, cut off at ${title}: the next load's recovery leaves it as before (after, once flipped)`, () =>
        crashThenRecover(variant, crash));
});
