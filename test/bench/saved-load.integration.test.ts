/**
 * A benchmark load kept in a folder: suspended before every step, it goes on run after run from
 * what the folder saved, and ends with the directory a load in one go makes (same answers, verify
 * clean); once loaded, a run reuses it without writing; measured writes, another dataset, or a
 * load that failed (and was undone) make the folder unusable with a message saying why.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDataset } from "../../lib/bench/dataset.js";
import { LoadSuspendedError, SavedLoadFolder, savedLoad } from "../../lib/bench/saved-load.js";
import { keepScopes } from "../../lib/load/keep-scopes.js";
import { loadData } from "../../lib/load/load-file.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { createTables } from "../../lib/store/create-tables.js";
import { dynamoDirectory, verifyDirectory } from "../../lib/store/dynamo/index.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";

const dataset = buildDataset({ records: 240, companies: 6, seed: 5, companySizes: { zipf: 1 } });
const companies = dataset.summary.companyIds;
const scopes = [companies, companies.slice(0, 3)];
const PER_APPLY = 50;

let engine: Engine;
let folder: string;

beforeAll(async () => {
  engine = await startDynalite();
  folder = mkdtempSync(join(tmpdir(), "saved-load-"));
});

afterAll(async () => {
  await engine.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** The directory in table `name`, over a client of its own (as a new process has). */
function directoryIn(name: string) {
  const client = engine.client();
  const documents = documentClientFor(client);
  const directory = dynamoDirectory(documents, name, {
    reader: { manifestTtlMs: 0, answerCacheBytes: 0 },
    writer: { graceMs: 0 },
  });
  return { client, documents, directory, name };
}

async function table(name: string) {
  await createTables(engine.client(), { directory: `${name}-directory`, keys: `${name}-keys` });
  return directoryIn(`${name}-directory`);
}

/** One run, the load suspended before its first step. */
async function suspendedRun(target: ReturnType<typeof directoryIn>, saved: SavedLoadFolder) {
  const stop = new AbortController();
  stop.abort();
  const run = directoryIn(target.name);
  return savedLoad(saved, run.client, run.directory, {
    dataset,
    mode: "snapshot",
    scopes,
    changesPerApply: PER_APPLY,
    stop: stop.signal,
  });
}

const answers = async (directory: ReturnType<typeof directoryIn>["directory"]) => {
  const all = new Set(companies);
  const page = { created: {}, offset: 3, limit: 20 };
  return {
    employees: await directory.employees({ filter: { companies: new Set([companies[0] ?? ""]) }, ...page }),
    persons: await directory.persons({ filter: { companies: all }, readable: all, ...page }),
    named: await directory.persons({ filter: { companies: all, lastName: "a" }, readable: all, ...page }),
  };
};

test("a load suspended before every step goes on run after run, to what one load makes", async () => {
  const reference = await table("reference");
  await keepScopes(reference.directory, scopes);
  await loadData(dataset.data, reference.directory, "snapshot", { changesPerApply: PER_APPLY });

  const kept = await table("kept");
  const saved = new SavedLoadFolder(folder);
  let runs = 0;
  let figures: Awaited<ReturnType<typeof savedLoad>> | undefined;
  while (figures === undefined && runs < 100) {
    runs += 1;
    figures = await suspendedRun(kept, saved).catch((error: unknown) => {
      if (!(error instanceof LoadSuspendedError)) throw error;
      expect(error.message).toContain(`in ${folder}: run the same command to go on`);
      return undefined;
    });
  }
  // The lease, validation, every apply of 50 and the commit's steps each took a run.
  expect(runs).toBeGreaterThan(dataset.data.employees.length / PER_APPLY);
  expect(figures?.writeCalls).toBeGreaterThan(0);
  const expected = await answers(reference.directory);
  expect(expected.named.total).toBeGreaterThan(0);
  expect(await answers(kept.directory)).toEqual(expected);
  expect((await verifyDirectory(kept.documents, kept.name)).problem).toBeUndefined();

  // Loaded: the next run writes nothing and gives the same figures.
  expect(await suspendedRun(kept, saved)).toEqual(figures);

  saved.markWritten();
  await expect(suspendedRun(kept, saved)).rejects.toThrow(
    `a run's measured writes changed the tables in ${folder}: remove it to load again`,
  );
});

test("a folder holding another dataset's load is refused, naming both", async () => {
  const other = mkdtempSync(join(tmpdir(), "saved-load-other-"));
  try {
    const saved = new SavedLoadFolder(other);
    saved.save({
      load: '{"records":10}',
      status: "loading",
      figures: { wcu: 0, writeCalls: 0, rcu: 0, seconds: 0 },
    });
    const target = await table("other");
    await expect(suspendedRun(target, saved)).rejects.toThrow(
      `${other} holds a load of {"records":10}, not of`,
    );
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});

test("a load that fails is undone, and the folder then says to remove it", async () => {
  const failing = mkdtempSync(join(tmpdir(), "saved-load-failing-"));
  try {
    const saved = new SavedLoadFolder(failing);
    // Started before, with no step done: this run loads from the start, into a table that is not there.
    saved.save({
      load: JSON.stringify({ ...dataset.summary, mode: "snapshot" }),
      status: "loading",
      figures: { wcu: 0, writeCalls: 0, rcu: 0, seconds: 0 },
    });
    const missing = directoryIn("missing-directory");
    const run = () =>
      savedLoad(saved, missing.client, missing.directory, {
        dataset,
        mode: "snapshot",
        changesPerApply: PER_APPLY,
        stop: new AbortController().signal,
      });
    await expect(run()).rejects.toThrow(`; the load kept in ${failing} was undone: remove it to load again`);
    expect(saved.read()?.status).toBe("undone");
    await expect(run()).rejects.toThrow(
      `the load kept in ${failing} failed and was undone: remove it to load again`,
    );
  } finally {
    rmSync(failing, { recursive: true, force: true });
  }
});
