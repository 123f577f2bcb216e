/** `get employee`, `get person` and `company` read what searches see: the committed generation. */
import { directoryInspection } from "../../../../lib/store/dynamo/read/inspect.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { describeEachEngine } from "../../../support/engines.js";
import { E1, E2, E3, E5, loadTwice, P1, P2, P3, recordOf, SECOND } from "../verify-fixture.js";

describeEachEngine("directory inspection", (getEngine) => {
  const inspection = () =>
    directoryInspection(documentClientFor(getEngine().client), getEngine().tables.directory);

  beforeAll(async () => {
    const { client, tables } = getEngine();
    await loadTwice(documentClientFor(client), tables.directory);
  });

  it("gets an employee record with where it is stored", async () => {
    expect(await inspection().employee(E2)).toEqual({
      committed: 2,
      stored: { companyId: "acme", generation: 2 },
      record: recordOf(E2),
    });
    expect((await inspection().employee(E1))?.stored).toEqual({ companyId: "acme", generation: 1 });
    expect(await inspection().employee(E5)).toBeUndefined();
    expect(await inspection().employee(P1)).toBeUndefined();
  });

  it("gets a person with all their records", async () => {
    const person = await inspection().person(P1);
    expect(person?.person).toEqual(SECOND.persons.find((p) => p.id === P1));
    expect(person?.employees).toEqual([recordOf(E1), recordOf(E2)]);
    expect((await inspection().person(P3))?.employees.map((record) => record.id)).toEqual([E3]);
    expect((await inspection().person(P2))?.employees).toEqual([]);
    expect(await inspection().person(E1)).toBeUndefined();
  });

  it("summarizes a company, with its record ids in order when asked", async () => {
    expect(await inspection().company("acme", true)).toEqual({
      companyId: "acme",
      committed: 2,
      employeeRecords: 2,
      persons: 1,
      recordsWithNames: 2,
      recordsWithPhones: 1,
      recordIds: [E1, E2],
    });
    expect(await inspection().company("beta", false)).toEqual({
      companyId: "beta",
      committed: 2,
      employeeRecords: 2,
      persons: 1,
      recordsWithNames: 1,
      recordsWithPhones: 2,
    });
    expect(await inspection().company("nobody", false)).toBeUndefined();
  });
});
