/**
 * A load that dies, seen by the next one (docs/data-model.md, "The lease, the journal and crashes"):
 * its lease is taken over at once when its holder's pid is gone on this host, and honoured until it
 * expires otherwise; what it wrote, including a record it deleted and wrote again in a later chunk,
 * is undone, and verify passes meanwhile and afterwards.
 */
import { spawn } from "node:child_process";
import type { SourceEmployee } from "../../lib/directory/source.js";
import { loadData } from "../../lib/load/load-file.js";
import { dynamoDirectory } from "../../lib/store/dynamo/index.js";
import { thisHost } from "../../lib/store/dynamo/manifest/lease-holder.js";
import { verifyDirectory } from "../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { LoadInProgressError } from "../../lib/store/port.js";
import { E1, E2, E3, E4, loadTwice, recordOf, SECOND } from "../store/dynamo/verify-fixture.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../support/engines.js";
import { dataFileOf, employeeInput, testUuid } from "../support/records.js";
import { tableItems } from "../support/table-items.js";

const renamed = (record: SourceEmployee): SourceEmployee => ({
  ...record,
  demographics: { ...record.demographics, lastName: "Abara" },
});
/** More applies than one page of the journal holds (8 entries), each journaled on its own. */
const JOURNALED_APPLIES = 20;
const newcomers = dataFileOf(
  [],
  Array.from({ length: JOURNALED_APPLIES - 3 }, (_, index) =>
    employeeInput({
      id: testUuid(0x7e, 2, index),
      companyId: "acme",
      personId: null,
      createdAt: "2024-04-01T00:00:00Z",
    }),
  ),
).employees;
/** Applies that each write a journal entry; the last ones supersede stored versions. */
const manyApplies = (): SourceEmployee[][] => [
  ...newcomers.map((record) => [record]),
  ...[E1, E2, E4].map((id) => [renamed(recordOf(id))]),
];
const acme = { filter: { companies: new Set(["acme"]) }, created: {}, offset: 0, limit: 100 };

/** A pid that existed and is gone. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  if (child.pid === undefined) throw new Error("no pid");
  return child.pid;
}

describeEachEngine(`a dead load and the next one (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  const it = itByTurns(TURN_SEED, engineName);
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;
  const verified = async () => expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
  /** A writer whose lease names `holder`, never renewed: it stands for a loader that stopped. */
  const writerAs = (holder: { host: string; pid: number }) =>
    dynamoDirectory(documents(), table(), { writer: { renewEveryMs: 3_600_000, holder } });
  const next = () =>
    dynamoDirectory(documents(), table(), { reader: { manifestTtlMs: 0 }, writer: { graceMs: 0 } });

  beforeEach(async () => {
    await tableItems(documents(), table()).wipe();
    await loadTwice(documents(), table());
  });

  it("a record deleted in one chunk and written again in a later one keeps its committed location, and is undone whole", async () => {
    const before = await next().employees(acme);
    const dead = await writerAs({ host: thisHost(), pid: await deadPid() }).beginLoad("dies");
    await dead.apply([{ op: "delete", employee: E1 }]);
    await dead.apply([{ op: "upsert", employee: renamed(recordOf(E1)) }]);
    await verified();
    expect(await next().employees(acme)).toEqual(before);
    // The next load takes the dead one's lease at once and undoes it first.
    await loadData({ persons: [], employees: [] }, next());
    await verified();
    expect(await next().employees(acme)).toEqual(before);
  });

  it("a dead load that journaled many pages is undone whole; a committed one is cleaned up whole", async () => {
    const before = await next().employees(acme);
    const dead = await writerAs({ host: thisHost(), pid: await deadPid() }).beginLoad("dies");
    for (const records of manyApplies())
      await dead.apply(records.map((employee) => ({ op: "upsert" as const, employee })));
    await loadData({ persons: [], employees: [] }, next());
    await verified();
    expect(await next().employees(acme)).toEqual(before);

    const session = await next().beginLoad("commits");
    for (const records of manyApplies())
      await session.apply(records.map((employee) => ({ op: "upsert" as const, employee })));
    expect(await session.commit()).toEqual({});
    await verified();
    const renamedTotal = before.total + JOURNALED_APPLIES - 3;
    expect(await next().employees(acme)).toMatchObject({ total: renamedTotal });
  });

  it("a lease whose holder's pid is gone on this host is taken over at once; the dead load is undone", async () => {
    const before = await next().employees(acme);
    const dead = await writerAs({ host: thisHost(), pid: await deadPid() }).beginLoad("dies");
    await dead.apply([{ op: "upsert", employee: { ...recordOf(E3), companyId: "acme" } }]);
    await loadData({ persons: [], employees: [recordOf(E1)] }, next());
    await verified();
    expect(await next().employees(acme)).toEqual(before);
    // The dead load lost its lease: whatever it still tries to write is refused.
    await expect(dead.commit()).rejects.toThrow(/lost its lease/);
  });

  it("a lease held by a live process, or by a process on another host, is refused until it expires", async () => {
    // Alive until killed below, however long the test takes on a busy machine.
    const sleeper = spawn(process.execPath, ["-e", "setInterval(() => {}, 1_000_000)"], { stdio: "ignore" });
    try {
      const live = sleeper.pid;
      if (live === undefined) throw new Error("no pid");
      for (const holder of [
        { host: thisHost(), pid: live },
        { host: thisHost(), pid: process.pid },
        { host: `${thisHost()} elsewhere`, pid: await deadPid() },
      ]) {
        const running = await writerAs(holder).beginLoad("runs");
        const refusal = await next()
          .beginLoad("second")
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        expect(refusal).toBeInstanceOf(LoadInProgressError);
        expect(refusal).toMatchObject({
          label: "runs",
          message: expect.stringMatching(/started .*; if it died, its lease expires at /),
        });
        await running.abort();
      }
      await verified();
      expect(await next().employees(acme)).toEqual({
        total: SECOND.employees.filter((record) => record.companyId === "acme").length,
        items: expect.any(Array),
      });
    } finally {
      sleeper.kill();
    }
  });
});
