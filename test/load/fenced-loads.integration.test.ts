/**
 * Loads fenced by generation (docs/data-model.md, "Fencing"): a loader that lost its lease while
 * paused can never change what a search sees, however late it wakes, and a take-over never trusts
 * another host's clock. A pause is a hold on every call of the loader's own client, released by the
 * test; the taker's clock is a fake that moves only when told. Nothing waits on time.
 */
import type { SourceEmployee } from "../../lib/directory/source.js";
import { loadFile } from "../../lib/load/load-file.js";
import { dynamoDirectory } from "../../lib/store/dynamo/index.js";
import type { LeaseWatch } from "../../lib/store/dynamo/manifest/manifest.js";
import { readManifest } from "../../lib/store/dynamo/manifest/manifest.js";
import { dynamoDirectoryReader } from "../../lib/store/dynamo/read/reader.js";
import { verifyDirectory } from "../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { type Change, LeaseLostError, LoadInProgressError } from "../../lib/store/port.js";
import { describeEachEngine, type EngineContext, itByTurns, TURN_SEED } from "../support/engines.js";
import { fakeWatch } from "../support/lease-watch.js";
import { PAUSES, pauseOn, type Starts } from "../support/pause.js";
import { memoryReaderOf, type Scenario, scenario, searchAnswers } from "./load-scenario.js";
import { type LoadTable, loadTable } from "./load-tables.js";

const SEED = 28_001;
/** How a loader that lost its lease fails: at its next write, or at the flip. */
const LOST = /lost its lease|superseded by another load/;

/** What the paused loader was applying: every record renamed, and records of a company of its own. */
function pausedChanges(before: Scenario["before"]): Change[] {
  const renamed = before.employees.map(
    (employee): SourceEmployee => ({
      ...employee,
      demographics: { ...employee.demographics, lastName: "Fenced" },
    }),
  );
  const moved = before.employees.slice(0, 5).map((employee) => ({ ...employee, companyId: "fenced" }));
  return [
    ...renamed.map((employee) => ({ op: "upsert" as const, employee })),
    ...moved.map((employee) => ({ op: "upsert" as const, employee })),
    ...before.persons.slice(0, 3).map((person) => ({ op: "delete" as const, person: person.id })),
  ];
}

describeEachEngine(`loads fenced by generation (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  const it = itByTurns(TURN_SEED, engineName);
  let context: EngineContext;
  let s: Scenario;
  let t: LoadTable;

  beforeAll(async () => {
    context = getEngine();
    s = await scenario(SEED, { records: 50, added: 30 });
  });
  afterAll(async () => {
    await s?.dispose();
  });
  beforeEach(async () => {
    t = await loadTable(context, s.before);
  });
  afterEach(async () => {
    await t?.drop();
  });

  /** A loader on a client of its own, whose lease looks expired at once and is never renewed. */
  function pausedLoader(starts: Starts) {
    const client = documentClientFor(context.engine.client());
    const pause = pauseOn(client, starts);
    const directory = dynamoDirectory(client, t.table, {
      writer: { leaseTtlMs: 1, renewEveryMs: 3_600_000, graceMs: 0 },
    });
    return { directory, pause };
  }

  const taker = (watch: LeaseWatch = fakeWatch()) =>
    dynamoDirectory(documentClientFor(context.client), t.table, {
      reader: { manifestTtlMs: 0 },
      writer: { graceMs: 0, leaseWatch: watch },
    });

  const problemOf = async () => (await verifyDirectory(t.documents, t.table)).problem?.what;

  /** Every search, on a reader that keeps no answer and reads the manifest each time, as the model's. */
  async function expectSeen(state: Scenario["afterState"]) {
    const reader = dynamoDirectoryReader(t.documents, t.table, { manifestTtlMs: 0, answerCacheBytes: 0 });
    expect(await searchAnswers(reader)).toEqual(await searchAnswers(memoryReaderOf(state)));
  }

  for (const [what, starts] of PAUSES)
    it(`a loader paused before ${what}, woken after a take-over and a publish, changes nothing searches see`, async () => {
      const paused = pausedLoader(starts);
      const session = await paused.directory.beginLoad("paused");
      paused.pause.arm();
      const applying = session.apply(pausedChanges(s.before)).then(
        () => undefined,
        (error: unknown) => error,
      );
      await paused.pause.reached;

      // Another load takes the lease over (its holder's heartbeat stood still) and publishes.
      await loadFile(s.file("changes"), "changes", taker());
      await expectSeen(s.afterState);

      // The paused loader wakes: whatever it still writes lands in a generation no one reads.
      paused.pause.release();
      const failure = await applying;
      if (failure) expect(String(failure)).toMatch(LOST);
      await expectSeen(s.afterState);
      await expect(session.commit()).rejects.toThrow(LOST);
      await expectSeen(s.afterState);
      const left = await problemOf();
      if (left) expect(left).toMatch(/abandoned when its load lost its lease/);

      // Its own undo, and the next load, remove what it left; the directory is the source's.
      await session.abort().catch(() => undefined);
      await loadFile(s.file("snapshot"), "snapshot", taker());
      await expectSeen(s.afterState);
      expect(await problemOf()).toBeUndefined();
      const manifest = await readManifest(t.documents, t.table);
      expect(manifest.abandoned.length).toBeGreaterThan(0);
    });

  it("a loader whose renewals met dropped connections, woken after a take-over, says it lost its lease", async () => {
    const holderClient = documentClientFor(context.engine.client());
    let asleep = false;
    let failed = false;
    let inFlight = 0;
    let settled: () => void = () => {};
    // A renewal failed, and none sent before the sleep is still on its way to move the heartbeat.
    const beatStandsStill = new Promise<void>((resolve) => {
      settled = () => {
        if (failed && inFlight === 0) resolve();
      };
    });
    holderClient.middlewareStack.add(
      (next, ctx) => async (args) => {
        // Asleep, only renewals are sent, and each meets a connection dropped meanwhile.
        if (asleep && String(ctx.commandName) === "UpdateItemCommand") {
          failed = true;
          settled();
          throw Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
        }
        inFlight += 1;
        try {
          return await next(args);
        } finally {
          inFlight -= 1;
          settled();
        }
      },
      { step: "initialize", name: "dropRenewals" },
    );
    const holder = dynamoDirectory(holderClient, t.table, {
      writer: { leaseTtlMs: 1, renewEveryMs: 20, graceMs: 0 },
    });
    const session = await holder.beginLoad("woken");
    asleep = true;
    try {
      await beatStandsStill;
      // Its heartbeat stands still: another load takes the lease over and publishes (nothing: what
      // the taker changes is the other tests' matter).
      const taken = await taker().beginLoad("taker");
      await taken.commit();
      asleep = false;
      await expect(session.apply(pausedChanges(s.before))).rejects.toBeInstanceOf(LeaseLostError);
      await expectSeen(s.beforeState);
    } finally {
      await session.abort().catch(() => undefined);
    }
  });

  it("a holder whose clock is minutes behind keeps its lease while it renews", async () => {
    const holderClient = documentClientFor(context.engine.client());
    let renewals = 0;
    let renewed: () => void = () => {};
    holderClient.middlewareStack.add(
      (next, ctx) => async (args) => {
        const result = await next(args);
        if (String(ctx.commandName) === "UpdateItemCommand") {
          renewals += 1;
          renewed();
        }
        return result;
      },
      { step: "initialize", name: "countRenewals" },
    );
    // Ten minutes behind: its expiry always looks past to everyone else.
    const holder = dynamoDirectory(holderClient, t.table, {
      writer: { now: () => Date.now() - 600_000, renewEveryMs: 20 },
    });
    const session = await holder.beginLoad("skewed");
    // The taker's clock moves by a wait only once the holder renewed meanwhile, as a live one does.
    const afterARenewal = () => {
      const seen = renewals;
      return new Promise<void>((resolve) => {
        renewed = () => {
          if (renewals > seen) resolve();
        };
      });
    };
    const attempt = taker(fakeWatch(afterARenewal)).beginLoad("taker");
    await expect(attempt).rejects.toBeInstanceOf(LoadInProgressError);
    await session.abort();
    await expectSeen(s.beforeState);
    expect(await problemOf()).toBeUndefined();
  });

  it("a holder whose clock is minutes ahead is taken over once its heartbeat stops, on the taker's clock", async () => {
    const holder = dynamoDirectory(documentClientFor(context.client), t.table, {
      writer: { now: () => Date.now() + 600_000, renewEveryMs: 3_600_000 },
    });
    const session = await holder.beginLoad("ahead");
    await session.apply(pausedChanges(s.before).slice(0, 50));
    // Its expiry looks ten minutes away: refused at once, however dead it is.
    await expect(taker().beginLoad("too early")).rejects.toBeInstanceOf(LoadInProgressError);
    // A taker whose own clock has passed that expiry watches the heartbeat, sees none, and takes over.
    const later = dynamoDirectory(documentClientFor(context.client), t.table, {
      reader: { manifestTtlMs: 0 },
      writer: { graceMs: 0, now: () => Date.now() + 1_200_000, leaseWatch: fakeWatch() },
    });
    await loadFile(s.file("changes"), "changes", later);
    await expectSeen(s.afterState);
    expect(await problemOf()).toBeUndefined();
    await expect(session.commit()).rejects.toThrow(LOST);
    await expectSeen(s.afterState);
  });
});
