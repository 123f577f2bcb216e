/**
 * Two `npm run load` processes started together on one directory, with different files
 * (docs/data-format.md, "One load at a time"): each either applies its file (exit 0) or is refused
 * naming the running load and when it started (exit 1), having changed nothing; at least one
 * applies; the directory ends as the applied files make it, in the order they applied; verify passes.
 * The second is started at a seeded delay (LOAD_TEST_SEED=N repeats a run), from at once to after
 * the first is likely done, so both the refusal and the one-after-the-other outcome occur.
 */
import { DemoRandom } from "../../lib/directory/demo-random.js";
import { describeEachEngine, itByTurns } from "../support/engines.js";
import { type FileMode, type Scenario, scenario, stateAfter } from "./load-scenario.js";
import { loadTable } from "./load-tables.js";
import { type LoaderExit, startLoader } from "./loader-process.js";

const SEED = Number(process.env.LOAD_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachEngine(`two loaders started together (LOAD_TEST_SEED=${SEED})`, (getEngine, engineName) => {
  const it = itByTurns(SEED, engineName);
  let sc: Scenario;

  beforeAll(async () => {
    // Smaller than the crash scenario: the race is at the lease, not in the chunks.
    sc = await scenario(SEED, { records: 60, added: 40 });
  });
  afterAll(async () => {
    await sc?.dispose();
  });

  /** Round 0 starts both at once, 1 a moment apart, 2 several seconds apart. */
  async function race(round: 0 | 1 | 2) {
    const rng = new DemoRandom(SEED + round);
    const delayMs = [0, rng.int(0, 1_500), rng.int(3_000, 9_000)][round] ?? 0;
    const t = await loadTable(getEngine(), sc.before);
    try {
      const started = Date.now();
      const runs = [
        { mode: "changes" as FileMode, other: "merge" as FileMode },
        { mode: "merge" as FileMode, other: "changes" as FileMode },
      ];
      // Which file goes first is the seed's choice too.
      if (rng.chance(0.5)) runs.reverse();
      const exits: Promise<LoaderExit>[] = [];
      for (const [i, run] of runs.entries()) {
        if (i > 0) await sleep(delayMs);
        const loader = startLoader({
          file: sc.file(run.mode),
          mode: run.mode,
          endpoint: getEngine().engine.endpoint,
          table: t.table,
        });
        exits.push(loader.exited);
      }
      const outcomes = (await Promise.all(exits)).map((exit, i) => ({
        ...exit,
        ...(runs[i] as (typeof runs)[0]),
      }));

      for (const outcome of outcomes) {
        if (outcome.code === 0) {
          expect(outcome.stdout).toMatch(/^applied .*: \d+ in the file, \d+ changed/m);
          continue;
        }
        // Refused: the message names the other load (its mode and file) and when it started.
        expect({ code: outcome.code, stderr: outcome.stderr }).toEqual({
          code: 1,
          stderr: expect.stringContaining("load: refused, nothing changed: another load is running ("),
        });
        const named = /another load is running \((\w+) (.+), started (\S+)\);/.exec(outcome.stderr);
        expect(named?.slice(1, 3)).toEqual([outcome.other, sc.file(outcome.other)]);
        const at = Date.parse(named?.[3] ?? "");
        expect(at).toBeGreaterThanOrEqual(started - 1_000);
        expect(at).toBeLessThanOrEqual(Date.now());
      }
      const applied = outcomes
        .filter((outcome) => outcome.code === 0)
        .sort((a, b) => a.exitOrder - b.exitOrder);
      expect(applied.length).toBeGreaterThanOrEqual(1);

      await t.expectVerified();
      await t.expectState(
        await stateAfter(
          sc.before,
          applied.map((outcome) => ({ path: sc.file(outcome.mode), mode: outcome.mode })),
        ),
      );
    } finally {
      await t.drop();
    }
  }

  for (const [apart, round] of [
    ["at the same moment", 0],
    ["a moment apart", 1],
    ["several seconds apart", 2],
  ] as const)
    it(`started ${apart}: one applies, the other applies after it or is refused naming the running load`, () =>
      race(round));
});
