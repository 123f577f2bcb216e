/**
 * A load run as many short steps (as the ingest runs it) ends exactly where the same load run in
 * one go ends, on the in-memory store; a failure in any step undoes it whole.
 */
import { createReadStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { type LoadMode, readChanges } from "../../lib/load/change-lines.js";
import type { OpenBytes } from "../../lib/load/lines.js";
import { loadFile } from "../../lib/load/load-file.js";
import { LoadIds } from "../../lib/load/load-ids.js";
import { firstStep, type LoadProgress, loadStep, type StepContext } from "../../lib/load/load-steps.js";
import { memoryDirectory } from "../../lib/store/memory/memory-directory.js";
import {
  type DirectoryWriter,
  LeaseLostError,
  LoadInProgressError,
  type LoadSession,
} from "../../lib/store/port.js";
import { employeeInput, testUuid } from "../support/records.js";
import { type Scenario, scenario, searchAnswers, stateAfter } from "./load-scenario.js";

/** A file's bytes from an offset, opened anew at each read (as an S3 object's ranged reads are). */
const fileBytes =
  (path: string): OpenBytes =>
  (offset) =>
    createReadStream(path, { start: offset });

let world: Scenario | undefined;
const ready = () => {
  if (!world) throw new Error("setup failed");
  return world;
};
beforeAll(async () => {
  world = await scenario(3, { records: 60, added: 50 });
});
afterAll(async () => {
  await world?.dispose();
});

/** Runs the load's steps to the end, each cut short after `every` questions of its deadline. */
async function inSteps(
  path: string,
  mode: LoadMode,
  directory: ReturnType<typeof memoryDirectory>,
  every: number,
  allowShrink = true,
) {
  let asked = 0;
  // Each step starts with what the last one carried: its progress, as JSON, and the ids, as bytes.
  let carried = {
    progress: JSON.stringify(firstStep(mode, `${mode} ${path}`, { allowShrink })),
    ids: new LoadIds().toBytes(),
  };
  for (let steps = 1; ; steps += 1) {
    const ids = LoadIds.fromBytes(carried.ids);
    const context: StepContext = {
      read: (from) => readChanges(fileBytes(path), mode, from),
      directory,
      ids,
      changesPerApply: 7,
      deadline: () => {
        asked += 1;
        return asked % every === 0;
      },
    };
    const result = await loadStep(JSON.parse(carried.progress) as LoadProgress, context);
    if ("outcome" in result) return { outcome: result.outcome, steps };
    carried = { progress: JSON.stringify(result.progress), ids: ids.toBytes() };
  }
}

describe("a load in steps", () => {
  it.each(["snapshot", "changes", "merge"] as const)(
    "of a %s file ends where the load in one go ends, however short its steps",
    async (mode) => {
      const { before, file } = ready();
      const expected = await searchAnswers(
        memoryDirectory(await stateAfter(before, [{ path: file(mode), mode }])),
      );
      for (const every of [1, 2, 5]) {
        const directory = memoryDirectory(ready().beforeState);
        const { outcome, steps } = await inSteps(file(mode), mode, directory, every);
        expect(outcome.status).toBe("applied");
        // Uncut, it takes 2: the lease, then the rest.
        expect(steps).toBeGreaterThan(2);
        expect(await searchAnswers(directory)).toEqual(expected);
      }
    },
  );

  it("is undone whole when a line is refused, naming the line and field", async () => {
    const { before, beforeState, dir } = ready();
    const bad = `${dir}/refused.ndjson`;
    await writeFile(bad, `{"op":"delete","person":"nope"}\n`);
    const directory = memoryDirectory(beforeState);
    const { outcome } = await inSteps(bad, "changes", directory, 1);
    expect(outcome).toMatchObject({
      status: "undone",
      failure: { kind: "refused", record: "line 1", field: "person" },
    });
    expect(await searchAnswers(directory)).toEqual(
      await searchAnswers(memoryDirectory(await stateAfter(before, []))),
    );
  });

  it("guards a snapshot over many steps: the count goes on page by page, more than 10% is refused", async () => {
    const { dir } = ready();
    const records = Array.from({ length: 250 }, (_, i) =>
      employeeInput({
        id: testUuid(0x5a, 1, i + 1),
        companyId: "acme",
        personId: null,
        createdAt: "2024-03-01T00:00:00Z",
      }),
    );
    const fileOf = async (name: string, kept: number) => {
      const path = `${dir}/${name}`;
      await writeFile(
        path,
        records
          .slice(0, kept)
          .map((employee) => `${JSON.stringify({ employee })}\n`)
          .join(""),
      );
      return path;
    };
    const directory = memoryDirectory();
    await loadFile(await fileOf("all.ndjson", 250), "merge", directory);
    const shrinks = await fileOf("shrinks.ndjson", 224);
    for (const every of [1, 3]) {
      const { outcome, steps } = await inSteps(shrinks, "snapshot", directory, every, false);
      expect(outcome).toMatchObject({
        status: "undone",
        failure: {
          kind: "refused",
          record: "snapshot",
          rule: expect.stringMatching(/^would delete 26 of the 250 stored employee records, more than 10%/),
        },
      });
      // The lease, validation, then the count's three pages of stored ids.
      if (every === 1) expect(steps).toBeGreaterThanOrEqual(5);
    }
    expect(directory.state().employees.size).toBe(250);
    const { outcome } = await inSteps(await fileOf("tenth.ndjson", 225), "snapshot", directory, 1, false);
    expect(outcome).toMatchObject({ status: "applied", summary: { deletedBySnapshot: 25 } });
  });

  it("takes the lease in a step of its own, before reading the file; LoadInProgressError while held", async () => {
    const { file } = ready();
    const directory = memoryDirectory();
    const held = await directory.beginLoad("another");
    const start = firstStep("changes", "x");
    let reads = 0;
    const context: StepContext = {
      read: (from) => {
        reads += 1;
        return readChanges(fileBytes(file("changes")), "changes", from);
      },
      directory,
      ids: new LoadIds(),
      changesPerApply: 10,
      deadline: () => false,
    };
    await expect(loadStep(start, context)).rejects.toBeInstanceOf(LoadInProgressError);
    await held.abort();
    const taken = await loadStep(start, context);
    expect("progress" in taken && taken.progress).toMatchObject({ phase: "validate", validated: 0 });
    expect("progress" in taken && taken.progress.session).toBeDefined();
    expect(reads).toBe(0);
    // The next step validates in the lease: a refusal there undoes the load and releases it.
    const bad = {
      ...context,
      read: () =>
        readChanges(async function* () {
          yield Buffer.from('{"op":"delete","person":"nope"}\n');
        }, "changes"),
    };
    const refused = "progress" in taken ? await loadStep(taken.progress, bad) : taken;
    expect(refused).toMatchObject({ outcome: { status: "undone", failure: { kind: "refused" } } });
    await (await directory.beginLoad("next")).abort();
  });

  /**
   * A loader woken from a pause: its writes meet connections dropped while it slept, and its lease
   * was taken over meanwhile (the resume that would undo its writes finds it so).
   */
  function wokenLoader(
    directory: ReturnType<typeof memoryDirectory>,
    resumeFails: () => Error,
  ): DirectoryWriter {
    let woken = false;
    const dropping = (session: LoadSession): LoadSession => ({
      ...session,
      get published() {
        return session.published;
      },
      apply: () => {
        woken = true;
        return Promise.reject(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
      },
    });
    return {
      beginLoad: async (label) => dropping(await directory.beginLoad(label)),
      resumeLoad: async (checkpoint) => {
        if (woken) throw resumeFails();
        return dropping(await directory.resumeLoad(checkpoint));
      },
    };
  }

  it("reports a lost lease found after a failure as the reason, naming what failed first", async () => {
    const { file, beforeState } = ready();
    const directory = memoryDirectory(beforeState);
    const expected = await searchAnswers(directory);
    const failure = await loadFile(
      file("changes"),
      "changes",
      wokenLoader(directory, () => new LeaseLostError()),
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(LeaseLostError);
    expect(String(failure)).toMatch(
      /lost its lease \(it expired and another load took over\); it failed first: socket hang up$/,
    );
    expect(await searchAnswers(directory)).toEqual(expected);
  });

  it("reports the failure itself when the resume fails for another reason", async () => {
    const { file, beforeState } = ready();
    const directory = memoryDirectory(beforeState);
    const failure = loadFile(
      file("changes"),
      "changes",
      wokenLoader(directory, () => new Error("connect ECONNREFUSED")),
    );
    await expect(failure).rejects.toThrow(/^socket hang up$/);
  });
});
