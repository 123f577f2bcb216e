/**
 * A whole `repair` rebuilds the id index (what a snapshot reads its stored ids from): a table
 * whose entries are all gone, as one loaded before the index existed, gets one for each stored
 * record and person, and an entry of an id that is not stored is superseded; verify passes after.
 * Then a snapshot finds the ids it lacks and deletes them. A table loaded before the index existed
 * (no entries, no `idIndex` in its manifest) refuses a snapshot, changing nothing, until repaired.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { loadData } from "../../../../lib/load/load-file.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import { keyOf } from "../../../../lib/store/dynamo/model/batch.js";
import { idEntryItem } from "../../../../lib/store/dynamo/model/items.js";
import { isIdsPartition, MANIFEST_KEY } from "../../../../lib/store/dynamo/model/layout.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { ID_INDEX_NOT_BUILT, repairDerived } from "../../../../lib/store/dynamo/write/load-session.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
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

  it("refuses a snapshot on a table loaded before the index existed, until a whole repair", async () => {
    await loadTwice(documents(), table());
    const items = tableItems(documents(), table());
    for (const item of await items.all()) if (isIdsPartition(keyOf(item).p)) await items.remove(keyOf(item));
    await documents().send(
      new UpdateCommand({
        TableName: table(),
        Key: { [A.partition]: MANIFEST_KEY.p, [A.sort]: MANIFEST_KEY.s },
        UpdateExpression: "REMOVE idIndex",
      }),
    );
    // What searches and verify read: every item but the manifest's lease bookkeeping and journals.
    const stored = async () => (await items.all()).filter((item) => (keyOf(item).p[0] ?? 0) < 0xfe);
    const before = await stored();
    const directory = dynamoDirectory(documents(), table(), { writer: { graceMs: 0 } });
    const [kept] = SECOND.employees;
    const file = { persons: SECOND.persons, employees: kept ? [kept] : [] };
    await expect(loadData(file, directory, "snapshot", { allowShrink: true })).rejects.toThrow(
      ID_INDEX_NOT_BUILT,
    );
    expect(await stored()).toEqual(before);

    // A merge keeps the index unbuilt; a whole repair builds it, and the snapshot goes through.
    await loadData(SECOND, directory, "merge");
    await expect(loadData(file, directory, "snapshot", { allowShrink: true })).rejects.toThrow(
      ID_INDEX_NOT_BUILT,
    );
    await repairDerived(documents(), table(), { graceMs: 0 });
    const summary = await loadData(file, directory, "snapshot", { allowShrink: true });
    expect(summary.deletedBySnapshot).toBe(SECOND.employees.length - 1);
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
  });
});
