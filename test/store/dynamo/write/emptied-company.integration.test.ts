/**
 * A company whose last record leaves keeps nothing in its partition: no entry, order, census or
 * postings marker, as if it had never been loaded. So the directory after many loads holds what
 * one load of the same file writes. A record coming back is posted again, and found by name.
 */
import { loadData } from "../../../../lib/load/load-file.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import { keyOf } from "../../../../lib/store/dynamo/model/batch.js";
import { companyPartition } from "../../../../lib/store/dynamo/model/layout.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../../../support/engines.js";
import { tableItems } from "../../../support/table-items.js";
import { E3, E4, loadTwice, recordOf, SECOND } from "../verify-fixture.js";

const beta = companyPartition("beta");
const inBeta = SECOND.employees.filter((record) => record.companyId === "beta").map((record) => record.id);

describeEachEngine(`a company emptied (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  const it = itByTurns(TURN_SEED, engineName);
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;
  const directory = () =>
    dynamoDirectory(documents(), table(), {
      reader: { manifestTtlMs: 0, answerCacheBytes: 0 },
      writer: { graceMs: 0 },
    });
  const betaItems = async () =>
    (await tableItems(documents(), table()).all()).filter((item) =>
      Buffer.from(keyOf(item).p).equals(Buffer.from(beta)),
    );

  beforeEach(async () => {
    await tableItems(documents(), table()).wipe();
    await loadTwice(documents(), table());
  });

  it("leaves no item in its partition, and takes a record back", async () => {
    expect(inBeta.sort()).toEqual([E3, E4].sort());
    expect(await betaItems()).not.toEqual([]);
    const rest = SECOND.employees.filter((record) => record.companyId !== "beta");
    await loadData({ persons: SECOND.persons, employees: rest }, directory(), "snapshot");
    expect(await betaItems()).toEqual([]);
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();

    const back = recordOf(E4);
    await loadData({ persons: [], employees: [back] }, directory());
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    const lastName = back.demographics.lastName ?? "";
    const found = await directory().employees({
      // The filter takes a normalized fragment (lower case).
      filter: { companies: new Set(["beta"]), lastName: lastName.slice(0, 3).toLowerCase() },
      created: {},
      offset: 0,
      limit: 10,
    });
    expect(found.items.map((record) => record.id)).toEqual([E4]);
  });
});
