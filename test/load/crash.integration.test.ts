/**
 * `npm run load` killed with SIGKILL at any point (docs/data-format.md, "All or nothing, for
 * searches too"): afterwards verify passes and searches show the state before the file (or after
 * it, once the flip reached the table), and running the same file again at once completes it: the
 * dead loader's lease names a pid that is gone on this host, so it is taken over without waiting
 * for it to expire, and what the dead load wrote is undone.
 *
 * Crash points come from a seeded generator over the calls an uninterrupted load makes (counted by
 * a proxy in front of the engine, which also does the killing): during chunk writes, the snapshot
 * phase, the flip and the clean-up, and while the next load undoes a dead one. LOAD_TEST_SEED=N
 * repeats a run.
 *
 * Each crash point runs on one engine, by turns from the seed (`itByTurns`): both engines meet half
 * of the points in every run, and every point on both engines over an even and an odd seed (each
 * costs two or three whole loads as child processes). The uninterrupted load runs on both.
 */
import { DemoRandom } from "../../lib/directory/demo-random.js";
import { describeEachEngine, itByTurns } from "../support/engines.js";
import { type CallKind, describePoint, type KillPoint, startKillProxy } from "./kill-proxy.js";
import { type Scenario, scenario } from "./load-scenario.js";
import { type LoadTable, loadTable } from "./load-tables.js";
import { type LoaderExit, type LoaderProcess, runLoader, startLoader } from "./loader-process.js";

const SEED = Number(process.env.LOAD_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
type Mode = "changes" | "snapshot";

/** The calls of an uninterrupted load, in order, and how long it took (for delays). */
interface Profile {
  readonly calls: readonly CallKind[];
  readonly ms: number;
}

/** The call at `position` of a profile as a kill point: the n-th call of its kind. */
function pointAt(calls: readonly CallKind[], position: number, when: KillPoint["when"]): KillPoint {
  const kind = calls[position];
  if (kind === undefined) throw new Error(`no call at ${position}`);
  const index = calls.slice(0, position + 1).filter((call) => call === kind).length;
  return { kind, index, when };
}

/** Positions of a profile in [from, to) whose calls come back the same on every run of the file. */
function positions(calls: readonly CallKind[], from: number, to: number): number[] {
  const stable = new Set<CallKind>([
    "lease",
    "journal",
    "write",
    "stamp",
    "ids",
    "read",
    "publish",
    "cleanup",
  ]);
  const found: number[] = [];
  for (let i = Math.max(0, from); i < Math.min(to, calls.length); i += 1)
    if (stable.has(calls[i] as CallKind)) found.push(i);
  if (found.length === 0) throw new Error(`no call between ${from} and ${to}: ${calls.join(" ")}`);
  return found;
}

describeEachEngine(`a loader killed with SIGKILL (LOAD_TEST_SEED=${SEED})`, (getEngine, engineName) => {
  let sc: Scenario;
  const profiles = new Map<Mode, Promise<Profile>>();
  /** Each test's own draws from the seed, so running one test alone kills at the same point. */
  let rng = new DemoRandom(SEED);
  beforeEach(() => {
    const name = expect.getState().currentTestName ?? "";
    rng = new DemoRandom(
      [...name].reduce((hash, char) => Math.imul(hash ^ char.charCodeAt(0), 16777619), SEED),
    );
  });

  beforeAll(async () => {
    // Small enough for CI (each test runs two or three whole loads, and a load's cost grows with
    // its records), big enough for several journal entries and every kind of change.
    sc = await scenario(SEED, { records: 36, added: 60 });
  });
  afterAll(async () => {
    await sc?.dispose();
  });

  const endpoint = () => getEngine().engine.endpoint;

  /** Runs the loader through a proxy that kills it at `kill` (a call, or a delay in ms). */
  async function killedRun(t: LoadTable, mode: Mode, kill: KillPoint | number) {
    let loader: LoaderProcess | undefined;
    const point = typeof kill === "number" ? undefined : kill;
    const proxy = await startKillProxy(endpoint(), point, () => loader?.kill());
    try {
      loader = startLoader({ file: sc.file(mode), mode, endpoint: proxy.url, table: t.table });
      const timer = typeof kill === "number" ? setTimeout(() => loader?.kill(), kill) : undefined;
      const exit = await loader.exited;
      clearTimeout(timer);
      await proxy.settled();
      // The flip reached the table if the loader sent it and the proxy passed it on.
      const published =
        proxy.calls.includes("publish") && !(point?.kind === "publish" && point.when === "before");
      return { exit, published, fired: proxy.fired() };
    } finally {
      await proxy.close();
    }
  }

  /** An uninterrupted load, counted: it applies the file and verify passes. */
  function profile(mode: Mode): Promise<Profile> {
    let found = profiles.get(mode);
    if (!found) {
      found = (async () => {
        const t = await loadTable(getEngine(), sc.before);
        try {
          const proxy = await startKillProxy(endpoint(), undefined, () => undefined);
          const started = performance.now();
          const exit = await runLoader({ file: sc.file(mode), mode, endpoint: proxy.url, table: t.table });
          const ms = performance.now() - started;
          await proxy.close();
          expectApplied(exit);
          await t.expectVerified();
          await t.expectState(sc.afterState);
          return { calls: [...proxy.calls], ms };
        } finally {
          await t.drop();
        }
      })();
      profiles.set(mode, found);
    }
    return found;
  }

  const expectApplied = (exit: LoaderExit) => {
    // The reason is part of what is compared, so a failure shows it.
    expect({ code: exit.code, reason: exit.code === 0 ? "" : exit.stderr }).toEqual({ code: 0, reason: "" });
    expect(exit.stdout).toMatch(/^applied .* \((changes|snapshot)\): \d+ in the file, \d+ changed/m);
  };

  /** Kills the loader at `kill`, checks the table, then re-runs the file (killed again at `again`, if given). */
  async function crashThenRerun(mode: Mode, kill: KillPoint | number, again?: KillPoint) {
    const t = await loadTable(getEngine(), sc.before);
    try {
      const first = await killedRun(t, mode, kill);
      const where = typeof kill === "number" ? `after ${Math.round(kill)} ms` : describePoint(kill);
      if (typeof kill !== "number") expect({ where, fired: first.fired }).toEqual({ where, fired: true });
      // A delay longer than the load lets it finish: then it must have applied.
      if (first.exit.signal !== "SIGKILL") expectApplied(first.exit);
      await t.expectVerified();
      await t.expectState(first.published ? sc.afterState : sc.beforeState);
      if (again) {
        const second = await killedRun(t, mode, again);
        expect({ signal: second.exit.signal, code: second.exit.code, stderr: second.exit.stderr }).toEqual({
          signal: "SIGKILL",
          code: null,
          stderr: expect.any(String),
        });
        await t.expectVerified();
        await t.expectState(first.published || second.published ? sc.afterState : sc.beforeState);
      }
      // Right away: the dead loader's lease is taken over, not waited out (it would refuse, exit 1).
      expectApplied(await runLoader({ file: sc.file(mode), mode, endpoint: endpoint(), table: t.table }));
      await t.expectVerified();
      await t.expectState(sc.afterState);
    } finally {
      await t.drop();
    }
  }

  const when = (): KillPoint["when"] => (rng.chance(0.5) ? "before" : "after");
  const pick = (calls: readonly CallKind[], from: number, to: number) =>
    pointAt(calls, rng.pick(positions(calls, from, to)), when());

  it("an uninterrupted load of the file applies it and verify passes (the calls the crash points are drawn from)", async () => {
    const { calls } = await profile("changes");
    expect(sc.changes).toBeGreaterThanOrEqual(80);
    // Several chunks, each journaled before its writes.
    expect(calls.filter((call) => call === "journal").length).toBeGreaterThanOrEqual(3);
  });

  /** The crash points: each runs on one engine, by turns (see the file's comment). */
  const crashes: [string, () => Promise<void>][] = [
    [
      "killed at a random call of the load, then re-run",
      async () => {
        const { calls } = await profile("changes");
        await crashThenRerun("changes", pick(calls, 0, calls.length));
      },
    ],
    [
      "killed during chunk writes (between a chunk's journal entry and its last write), then re-run",
      async () => {
        const { calls } = await profile("changes");
        const journals = calls.flatMap((call, i) => (call === "journal" ? [i] : []));
        const chunk = rng.int(0, journals.length - 1);
        const start = journals[chunk] ?? 0;
        await crashThenRerun("changes", pick(calls, start, journals[chunk + 1] ?? calls.indexOf("publish")));
      },
    ],
    [
      "killed during the snapshot phase (reading stored ids, deleting the absent), then re-run",
      async () => {
        const { calls } = await profile("snapshot");
        await crashThenRerun("snapshot", pick(calls, calls.indexOf("ids"), calls.indexOf("publish")));
      },
    ],
    ...(["before", "after"] as const).map((moment): [string, () => Promise<void>] => [
      moment === "before"
        ? "killed just before the flip reaches the table, then re-run"
        : "killed just after the flip, before the loader hears of it, then re-run",
      async () => {
        await profile("changes");
        await crashThenRerun("changes", { kind: "publish", index: 1, when: moment });
      },
    ]),
    [
      "killed during the clean-up after the flip, then re-run",
      async () => {
        const { calls } = await profile("changes");
        await crashThenRerun("changes", pick(calls, calls.indexOf("publish") + 1, calls.length));
      },
    ],
    [
      "killed after a random delay, then re-run",
      async () => {
        const { ms } = await profile("changes");
        await crashThenRerun("changes", rng.next() * ms);
      },
    ],
    [
      "killed during chunk writes, the next load killed while undoing it, then a third load completes",
      async () => {
        const { calls } = await profile("changes");
        const publish = calls.indexOf("publish");
        // Late in the load, so the undo has several chunks to take back.
        const first = pick(calls, Math.floor(publish / 2), publish);
        await crashThenRerun("changes", first, { kind: "write", index: rng.int(1, 3), when: when() });
      },
    ],
  ];
  const crashTest = itByTurns(SEED, engineName);
  for (const [title, run] of crashes) crashTest(title, run);
});
