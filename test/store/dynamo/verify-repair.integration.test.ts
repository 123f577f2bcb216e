/** The repairs docs/runbook.md gives for what verify reports actually make it pass again. */
import { loadData } from "../../../lib/load/load-file.js";
import { dynamoDirectory } from "../../../lib/store/dynamo/directory.js";
import { employmentOrder } from "../../../lib/store/dynamo/items.js";
import {
  companyPartition,
  entrySort,
  FAMILY,
  gramMarkerSort,
  LOCATION_SORT,
  locationPartition,
} from "../../../lib/store/dynamo/layout.js";
import { verifyDirectory } from "../../../lib/store/dynamo/verify.js";
import { documentClientFor } from "../../../lib/store/dynamo-client.js";
import { describeEachEngine } from "../../support/engines.js";
import { fakeWatch } from "../../support/lease-watch.js";
import { E1, E3, loadTwice, recordOf, tableItems } from "./verify-fixture.js";

describeEachEngine("repairs of what verify reports", (getEngine) => {
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;
  const verify = () => verifyDirectory(documents(), table());

  beforeEach(async () => {
    await tableItems(documents(), table()).wipe();
    await loadTwice(documents(), table());
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
    // The company's postings marker too: the load then posts it again, the record's old postings gone.
    await items.remove({ p: companyPartition("acme"), s: gramMarkerSort(1) });
    const directory = dynamoDirectory(documents(), table(), { writer: { graceMs: 0 } });
    await loadData({ persons: [], employees: [recordOf(E1)] }, directory);
    expect((await verify()).problem).toBeUndefined();
  });
});
