/**
 * The abandoned list stays bounded (docs/architecture.md, "How a load becomes visible"): a load that
 * wrote nothing gives its generation back, and a generation whose holder is known dead leaves the
 * list at the second flip that finds it dead, undone whole; one whose holder may still run stays,
 * and is undone again by each load. Searches and verify are right throughout.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { SourceEmployee } from "../../../../lib/directory/source.js";
import { loadData } from "../../../../lib/load/load-file.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import { thisHost } from "../../../../lib/store/dynamo/manifest/lease-holder.js";
import { readManifest } from "../../../../lib/store/dynamo/manifest/manifest.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../../../support/engines.js";
import { dataFileOf } from "../../../support/records.js";
import { tableItems } from "../../../support/table-items.js";
import { E1, E2, loadTwice, recordOf } from "../verify-fixture.js";

const renamed = (record: SourceEmployee, lastName: string): SourceEmployee => ({
  ...record,
  demographics: { ...record.demographics, lastName },
});
const acme = { filter: { companies: new Set(["acme"]) }, created: {}, offset: 0, limit: 100 };

/** A process that stays alive until killed (a loader that may still write). */
const sleeper = (): ChildProcess =>
  spawn(process.execPath, ["-e", "setInterval(() => {}, 1_000_000)"], { stdio: "ignore" });

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((resolve) => child.once("exit", resolve));
  child.kill();
  await done;
}

describeEachEngine(`the abandoned list (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  const it = itByTurns(TURN_SEED, engineName);
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;
  const manifest = () => readManifest(documents(), table());
  const verified = async () => expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
  const next = () =>
    dynamoDirectory(documents(), table(), { reader: { manifestTtlMs: 0 }, writer: { graceMs: 0 } });
  /** A writer whose lease and abandoned generation name `pid` on this host. */
  const writerAs = (pid: number) =>
    dynamoDirectory(documents(), table(), {
      writer: { graceMs: 0, renewEveryMs: 3_600_000, holder: { host: thisHost(), pid } },
    });

  beforeEach(async () => {
    await tableItems(documents(), table()).wipe();
    await loadTwice(documents(), table());
  });

  it("loads that write nothing, or stop before writing, give their generation back", async () => {
    const before = await manifest();
    await loadData({ persons: [], employees: [] }, next());
    await loadData(dataFileOf([], [recordOf(E1)]), next());
    const refused = await next().beginLoad("refused");
    await refused.abort();
    const after = await manifest();
    expect(after).toMatchObject({ committed: before.committed, abandoned: [] });
    expect(after.issued).toBe(before.committed);
    // The next load that writes gets the generation after the committed one.
    await loadData(dataFileOf([], [renamed(recordOf(E1), "Abara")]), next());
    expect(await manifest()).toMatchObject({ committed: before.committed + 1, abandoned: [] });
    await verified();
  });

  it("a generation undone after its holder died leaves the list at the next flip; one whose holder runs stays", async () => {
    const searches = async () => next().employees(acme);
    const before = await searches();
    const running = sleeper();
    const stopped = sleeper();
    try {
      const pids = [running.pid, stopped.pid];
      if (pids.some((pid) => pid === undefined)) throw new Error("no pid");
      const [runningPid = 0, stoppedPid = 0] = pids;
      const gens: number[] = [];
      for (const [pid, lastName] of [
        [runningPid, "Abara"],
        [stoppedPid, "Okoro"],
      ] as const) {
        const session = await writerAs(pid).beginLoad("undone");
        await session.apply([{ op: "upsert", employee: renamed(recordOf(E2), lastName) }]);
        gens.push((await manifest()).lease?.gen ?? 0);
        await session.abort();
      }
      expect((await manifest()).abandoned).toEqual(gens);
      expect(await searches()).toEqual(before);
      await verified();

      // Both holders still run: both stay through a load that commits.
      await loadData(dataFileOf([], [renamed(recordOf(E1), "Eze")]), next());
      expect((await manifest()).abandoned).toEqual(gens);
      const committed = await searches();

      // The first flip to find a holder dead marks it; the next one drops its generation.
      await exited(stopped);
      await loadData(dataFileOf([], [renamed(recordOf(E1), "Nwosu")]), next());
      expect((await manifest()).abandoned).toEqual(gens);
      expect((await manifest()).abandonedBy?.[String(gens[1])]).toMatchObject({ seenDead: true });
      expect((await manifest()).abandonedBy?.[String(gens[0])]).not.toHaveProperty("seenDead");
      await loadData(dataFileOf([], [renamed(recordOf(E1), "Ngozi")]), next());
      expect((await manifest()).abandoned).toEqual([gens[0]]);
      expect(Object.keys((await manifest()).abandonedBy ?? {})).toEqual([String(gens[0])]);
      await verified();
      expect((await searches()).total).toBe(committed.total);

      await exited(running);
      for (const lastName of ["Obi", "Uche"])
        await loadData(dataFileOf([], [renamed(recordOf(E1), lastName)]), next());
      expect(await manifest()).toMatchObject({ abandoned: [], abandonedBy: {} });
      await verified();
      // Nothing of the undone generations became visible with them off the list.
      const names = (await searches()).items.map((item) => item.demographics.lastName);
      expect(names).not.toContain("Abara");
      expect(names).not.toContain("Okoro");
    } finally {
      await Promise.all([exited(running), exited(stopped)]);
    }
  });
});
