/** The repairs docs/runbook.md gives for what verify reports actually make it pass again. */
import { keepScopes } from "../../../../lib/load/keep-scopes.js";
import { loadData } from "../../../../lib/load/load-file.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import { type Item, keyOf } from "../../../../lib/store/dynamo/model/batch.js";
import { decodeOrderIndex, encodeOrderIndex } from "../../../../lib/store/dynamo/model/codec.js";
import { employmentOrder, idEntryKey } from "../../../../lib/store/dynamo/model/items.js";
import {
  companyPartition,
  entrySort,
  FAMILY,
  gramMarkerSort,
  isScopePartition,
  LOCATION_SORT,
  locationPartition,
  personPartition,
} from "../../../../lib/store/dynamo/model/layout.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { repairDerived } from "../../../../lib/store/dynamo/write/load-session.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../../../support/engines.js";
import { fakeWatch } from "../../../support/lease-watch.js";
import { tableItems } from "../../../support/table-items.js";
import { COMPANIES, E1, E2, E3, fixtureSearches, loadTwice, P1, recordOf } from "../verify-fixture.js";

describeEachEngine(`repairs of what verify reports (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  const it = itByTurns(TURN_SEED, engineName);
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;
  const verify = () => verifyDirectory(documents(), table());

  beforeEach(async () => {
    await tableItems(documents(), table()).wipe();
    await loadTwice(documents(), table());
  });

  it("repair rebuilds damaged entries, orders, postings, census and scope items: verify passes, searches as a fresh load", async () => {
    const keep = () =>
      keepScopes(dynamoDirectory(documents(), table(), { writer: { graceMs: 0 } }), [COMPANIES]);
    await keep();
    const items = tableItems(documents(), table());
    const all = await items.all();
    const first = (test: (item: Item) => boolean) => {
      const found = all.find(test);
      if (!found) throw new Error("no such item in the fixture");
      return found;
    };
    const inAcme = (item: Item, family: number) =>
      Buffer.from(item.p as Uint8Array).equals(Buffer.from("acme")) && (item.s as Uint8Array)[0] === family;
    const lowered = (item: Item): Item => {
      const [block, ...rest] = decodeOrderIndex(item.d as Uint8Array);
      if (!block) throw new Error("an empty index");
      return { ...item, d: encodeOrderIndex([{ ...block, count: block.count - 1 }, ...rest]) };
    };
    await items.remove(keyOf(first((item) => inAcme(item, 0x08))));
    await items.remove(keyOf(first((item) => inAcme(item, 0x0b))));
    await items.put(lowered(first((item) => inAcme(item, 0x0a))));
    const census = first((item) => inAcme(item, 0x0c));
    const d = Uint8Array.from(census.d as Uint8Array);
    d[d.length - 1] = (d[d.length - 1] ?? 0) ^ 1;
    await items.put({ ...census, d });
    await items.put(
      lowered(first((item) => isScopePartition(item.p as Uint8Array) && (item.s as Uint8Array)[0] === 0x0a)),
    );
    await items.remove(
      keyOf(first((item) => isScopePartition(item.p as Uint8Array) && (item.s as Uint8Array)[0] === 0x0b)),
    );
    // Entries: a key entry and a person names entry deleted, a record's phone attribute removed,
    // a person key entry copied to a company where the person has no record.
    await items.remove(keyOf(first((item) => inAcme(item, 0x01))));
    await items.remove(keyOf(first((item) => inAcme(item, 0x05))));
    const { t: _, ...phoneless } = first((item) => inAcme(item, 0x03) && item.t !== undefined);
    await items.put(phoneless);
    await items.put({ ...first((item) => inAcme(item, 0x02)), p: companyPartition("beta") });
    expect((await verify()).problem).toBeDefined();

    expect(await repairDerived(documents(), table(), { graceMs: 0 })).toEqual({
      companies: COMPANIES,
      unhealed: [],
    });
    expect((await verify()).problem).toBeUndefined();
    const repaired = await fixtureSearches(documents(), table());
    await items.wipe();
    await loadTwice(documents(), table());
    await keep();
    expect(repaired).toEqual(await fixtureSearches(documents(), table()));
  });

  it("repair says what it cannot heal, a deleted bundle of a person with records, and leaves their items", async () => {
    const items = tableItems(documents(), table());
    const bundle = (await items.all()).filter((item) =>
      Buffer.from(item.p as Uint8Array).equals(Buffer.from(personPartition(P1))),
    );
    for (const item of bundle) await items.remove(keyOf(item));
    const broken = (await verify()).problem?.what;
    expect(broken).toContain(`person ${P1}`);
    const { unhealed } = await repairDerived(documents(), table(), { graceMs: 0, companyId: "acme" });
    expect(unhealed).toEqual(
      [E1, E2].map((id) => `record ${id} links to person ${P1}, who has no visible bundle`),
    );
    expect((await verify()).problem?.what).toBe(broken);
  });

  it("a dead load is undone by the next load once its lease expired", async () => {
    const dying = dynamoDirectory(documents(), table(), { writer: { renewEveryMs: 3_600_000 } });
    const dead = await dying.beginLoad("dies");
    await dead.apply([{ op: "upsert", employee: { ...recordOf(E3), companyId: "acme" } }]);
    // Verify sees the expired lease as soon as the clock passes it.
    const later = Date.now() + 60_000;
    expect((await verifyDirectory(documents(), table(), { now: () => later })).problem?.what).toMatch(
      /stale lease of load "dies"/,
    );
    const next = dynamoDirectory(documents(), table(), {
      writer: { graceMs: 0, now: () => later, leaseWatch: fakeWatch() },
    });
    await loadData({ persons: [], employees: [recordOf(E1)] }, next);
    expect((await verifyDirectory(documents(), table(), { now: () => later })).problem).toBeUndefined();
    await dead.abort().catch(() => undefined);
  });

  it("a record whose items are broken is repaired by deleting them and loading its line again", async () => {
    const items = tableItems(documents(), table());
    const order = employmentOrder(recordOf(E1));
    await items.remove({ p: companyPartition("acme"), s: entrySort(FAMILY.employmentKey, order, 1) });
    expect((await verify()).problem?.what).toMatch(/no employment key entry/);
    for (const family of [FAMILY.record, FAMILY.employmentNames])
      await items.remove({ p: companyPartition("acme"), s: entrySort(family, order, 1) });
    await items.remove({ p: locationPartition(E1), s: LOCATION_SORT });
    await items.remove(idEntryKey("employee", E1, 1));
    // The company's postings marker too: the load then posts it again, the record's old postings gone.
    await items.remove({ p: companyPartition("acme"), s: gramMarkerSort(1) });
    const directory = dynamoDirectory(documents(), table(), { writer: { graceMs: 0 } });
    await loadData({ persons: [], employees: [recordOf(E1)] }, directory);
    expect((await verify()).problem).toBeUndefined();
  });
});
