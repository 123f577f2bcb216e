/**
 * A whole `repair` rebuilds the id index (what a snapshot reads its stored ids from): a table
 * whose entries are all gone gets one for each stored record and person, and an entry of an id
 * that is not stored is superseded; verify passes after. Then a snapshot finds the ids it lacks
 * and deletes them.
 */
import { loadData } from "../../../../lib/load/load-file.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import { keyOf } from "../../../../lib/store/dynamo/model/batch.js";
import { idEntryItem } from "../../../../lib/store/dynamo/model/items.js";
import { isIdsPartition } from "../../../../lib/store/dynamo/model/layout.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { repairDerived } from "../../../../lib/store/dynamo/write/load-session.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../../../support/engines.js";
import { testUuid } from "../../../support/records.js";
import { tableItems } from "../../../support/table-items.js";
import { loadTwice, SECOND } from "../verify-fixture.js";

describeEachEngine(`repair rebuilds the id index (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  const it = itByTurns(TURN_SEED, engineName);
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;

  it("puts back every entry, supersedes a stray one, and a snapshot then deletes what it lacks", async () => {
    await loadTwice(documents(), table());
    const items = tableItems(documents(), table());
    const entries = (await items.all()).filter((item) => isIdsPartition(keyOf(item).p));
    expect(entries.length).toBe(SECOND.persons.length + SECOND.employees.length);
    for (const entry of entries) await items.remove(keyOf(entry));
    await items.put(idEntryItem("employee", testUuid(0x7e, 1, 99), 2));
    expect((await verifyDirectory(documents(), table())).problem?.what).toMatch(/id index entry/);

    await repairDerived(documents(), table(), { graceMs: 0 });
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();

    const [kept, ...dropped] = SECOND.employees;
    const directory = dynamoDirectory(documents(), table(), { writer: { graceMs: 0 } });
    const file = { persons: SECOND.persons, employees: kept ? [kept] : [] };
    const summary = await loadData(file, directory, "snapshot", { allowShrink: true });
    expect(summary.deletedBySnapshot).toBe(dropped.length);
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
  });
});
