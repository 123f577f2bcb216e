/**
 * The ingest end to end on this machine: files put in an inbox on s3rver, applied to a directory
 * table on each engine by the ingest's own step (lib/ingest/ingest-step.ts) driven the way its
 * state machine drives it (lib/ingest/local-execution.ts). Steps are cut short on purpose, so a
 * load goes through many of them, resuming from what the last one left in the inbox.
 *
 * Each test runs on one engine, by turns from the seed (`itByTurns`; LOAD_TEST_SEED=N repeats a
 * run): every test meets both engines over an even and an odd seed.
 */

import { readFile } from "node:fs/promises";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { reportKey } from "../../lib/ingest/inbox.js";
import { InboxStore } from "../../lib/ingest/inbox-store.js";
import type { IngestState } from "../../lib/ingest/ingest-state.js";
import { ingestStep } from "../../lib/ingest/ingest-step.js";
import { type LocalExecution, runLocalExecution } from "../../lib/ingest/local-execution.js";
import { generateApiKey } from "../../lib/keys/api-key.js";
import { loadFile } from "../../lib/load/load-file.js";
import { ALLOW_SHRINK_METADATA } from "../../lib/load/shrink-guard.js";
import { dynamoDirectory } from "../../lib/store/dynamo/index.js";
import { readManifest } from "../../lib/store/dynamo/manifest/manifest.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { type Scenario, scenario, stateAfter } from "../load/load-scenario.js";
import { type LoadTable, loadTable } from "../load/load-tables.js";
import { describeEachEngine, itByTurns } from "../support/engines.js";
import { fakeWatch } from "../support/lease-watch.js";
import { pauseOn } from "../support/pause.js";
import { personInput, testUuid } from "../support/records.js";
import { type LocalS3, startLocalS3 } from "../support/s3rver.js";

let s3: LocalS3 | undefined;
const localS3 = () => {
  if (!s3) throw new Error("no s3rver: setup failed");
  return s3;
};

beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3?.stop();
});

let uploads = 0;
/**
 * Puts a file in the inbox under `key` (made unique); the version s3rver knows: "null". A snapshot
 * may shrink the directory (the metadata the load CLI sets) unless `guarded`.
 */
async function put(key: string, body: string | Uint8Array, options: { guarded?: boolean } = {}) {
  uploads += 1;
  const unique = key.replace("/", `/${uploads}-`);
  const metadata = options.guarded ? {} : { Metadata: { [ALLOW_SHRINK_METADATA]: "true" } };
  await localS3()
    .client()
    .send(new PutObjectCommand({ Bucket: localS3().bucket, Key: unique, Body: body, ...metadata }));
  return { bucket: localS3().bucket, key: unique, versionId: "null" };
}

/** A deadline that comes after every `every`-th question: steps end early and often. */
const everyNth = (every: number) => {
  let asked = 0;
  return () => {
    asked += 1;
    return asked % every === 0;
  };
};

const SEED = Number(process.env.LOAD_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));

describeEachEngine(`the ingest (LOAD_TEST_SEED=${SEED})`, (getEngine, engineName) => {
  const it = itByTurns(SEED, engineName);
  let table: LoadTable | undefined;
  let world: Scenario | undefined;
  const ready = () => {
    if (!table || !world) throw new Error("setup failed");
    return { table, world };
  };
  const inbox = () => new InboxStore(localS3().client());
  /** How an execution ended, with its report's error and a dead letter's crash: a failure says why. */
  const ended = async ({ state, deadLetter }: LocalExecution) => ({
    status: state.status,
    error: (await inbox().report(state.object))?.error,
    crash: deadLetter?.crash,
  });
  const APPLIED = { status: "applied", error: undefined };
  const ingest = (options: { every?: number; changesPerApply?: number; maxObjectBytes?: number } = {}) => {
    const directory = dynamoDirectory(ready().table.documents, ready().table.table, {
      writer: { graceMs: 0 },
    });
    return (state: IngestState) =>
      ingestStep(state, {
        inbox: inbox(),
        directory,
        deadline: everyNth(options.every ?? 2),
        changesPerApply: options.changesPerApply ?? 25,
        ...(options.maxObjectBytes === undefined ? {} : { maxObjectBytes: options.maxObjectBytes }),
      });
  };

  beforeEach(async () => {
    world = await scenario(7, { records: 40, added: 30 });
    table = await loadTable(getEngine(), world.before);
  });
  afterEach(async () => {
    await table?.drop();
    await world?.dispose();
  });

  for (const mode of ["snapshot", "changes", "merge"] as const)
    it(`applies a ${mode} file over many steps, exactly as the same load in one process`, async () => {
      const { table, world } = ready();
      const object = await put(`${mode}/file.ndjson`, await readFile(world.file(mode)));
      const execution = await runLocalExecution(object, ingest());
      const { state, deadLetter } = execution;
      expect(await ended(execution)).toEqual(APPLIED);
      expect(deadLetter).toBeUndefined();
      // Uncut, it takes 2: take the lease, then the rest.
      expect(state.steps).toBeGreaterThan(3);
      await table.expectState(await stateAfter(world.before, [{ path: world.file(mode), mode }]));
      await table.expectVerified();
      const report = await inbox().report(object);
      // Written at the flip: the clean-up's steps may come after it.
      expect(report).toMatchObject({ status: "applied", mode, object });
      expect(report?.steps).toBeLessThanOrEqual(state.steps ?? 0);
      expect(state.report).toBe(reportKey(object));
    });

  it("applies a version once: a second delivery, even at the same time, finds the report", async () => {
    const { table, world } = ready();
    const object = await put("changes/first.ndjson", await readFile(world.file("changes")));
    const [one, two] = await Promise.all([
      runLocalExecution(object, ingest(), { waitMs: 50 }),
      runLocalExecution(object, ingest(), { waitMs: 50 }),
    ]);
    const statuses = [one.state.status, two.state.status].sort();
    const reported = await inbox().report(object);
    // Compared with the report's error, so that a failure says why (seen once, in a clean-clone
    // run with two jest workers: one delivery failed, the other found its report).
    expect({ statuses, error: reported?.error }).toEqual({
      statuses: ["applied", "duplicate"],
      error: undefined,
    });
    const applied = [one, two].find((run) => run.state.status === "applied");
    expect(reported?.execution).toBe(applied?.state.execution);
    // A delivery whose own step crashed (its progress never saved) ends duplicate, not failed.
    const crashed = await ingest()({
      object,
      execution: "a-delivery-that-crashed",
      status: "running",
      steps: 2,
      crash: { Error: "TimeoutError", Cause: "socket hang up" },
    });
    expect(crashed.status).toBe("duplicate");
    expect((await inbox().report(object))?.execution).toBe(applied?.state.execution);
    // Delivered again after a later file changed the same records: that file's values stay.
    const later = await put("snapshot/later.ndjson", await readFile(world.file("snapshot")));
    expect(await ended(await runLocalExecution(later, ingest()))).toEqual(APPLIED);
    const again = await runLocalExecution(object, ingest());
    expect(again.state.status).toBe("duplicate");
    await table.expectState(world.afterState);
  });

  it("refuses a malformed file with its line and field, changing nothing, without a dead letter", async () => {
    const { table, world } = ready();
    const lines = (await readFile(world.file("changes"), "utf8")).trimEnd().split("\n");
    lines.splice(40, 0, JSON.stringify({ op: "upsert", person: { id: "not-a-uuid", createdAt: "x" } }));
    const object = await put("changes/bad.ndjson", `${lines.join("\n")}\n`);
    const { state, deadLetter } = await runLocalExecution(object, ingest());
    expect(deadLetter).toBeUndefined();
    expect(state.status).toBe("refused");
    expect((await inbox().report(object))?.refusal).toMatchObject({
      record: expect.stringContaining("line 41"),
    });
    await table.expectState(world.beforeState);
  });

  it("refuses an object over the maximum unread, and a file that is not NDJSON when first read, changing nothing", async () => {
    const { table, world } = ready();
    const body = await readFile(world.file("merge"));
    const big = await put("merge/big.ndjson", body);
    const refused = await runLocalExecution(big, ingest({ maxObjectBytes: body.length - 1 }));
    expect(refused.deadLetter).toBeUndefined();
    expect(await inbox().report(big)).toMatchObject({
      status: "refused",
      mode: "merge",
      refusal: {
        record: "object",
        field: null,
        rule: `is ${body.length.toLocaleString("en-US")} bytes, over the inbox's maximum of ${(body.length - 1).toLocaleString("en-US")} bytes`,
      },
    });
    // Three MB with no line break, not JSON: refused by the step that first reads it, the one
    // after the step that takes the lease.
    const junk = await put("merge/junk.json", `{"persons": [${"x".repeat(3_000_000)}`);
    const execution = await runLocalExecution(junk, ingest());
    const report = await inbox().report(junk);
    expect({ status: execution.state.status, steps: report?.steps }).toEqual({
      status: "refused",
      steps: 2,
    });
    expect((await readManifest(table.documents, table.table)).lease).toBeUndefined();
    expect(report?.refusal?.record).toMatch(/^data file/);
    await table.expectState(world.beforeState);
  });

  it("keeps the report's key within S3's 1,024 bytes for any key, and its texts redacted and short", async () => {
    const { table, world } = ready();
    const segment = "n".repeat(200);
    const long = await put(
      `changes/${[segment, segment, segment, segment, segment].join("/")}.ndjson`,
      await readFile(world.file("changes")),
    );
    expect(Buffer.byteLength(long.key)).toBeGreaterThan(1_000);
    const applied = await runLocalExecution(long, ingest());
    expect(await ended(applied)).toEqual(APPLIED);
    expect(applied.state.report).toBe(reportKey(long));
    expect(reportKey(long)).toMatch(/^reports\/long-keys\/[0-9a-f]{64}\/null\.json$/);
    await table.expectState(world.afterState);
    // A field named by the file: a key and 5,000 characters.
    const key = generateApiKey("test");
    const field = `${key}${"f".repeat(5_000)}`;
    const person = { ...personInput(testUuid(0x1e57, 0, 1), "2024-01-01T00:00:00Z"), [field]: 1 };
    const line = JSON.stringify({ op: "upsert", person });
    const bad = await put("changes/field.ndjson", `${line}\n`);
    await runLocalExecution(bad, ingest());
    const report = await inbox().report(bad);
    const written = JSON.stringify(report);
    expect(written).not.toContain(key.slice(8));
    expect(report?.refusal?.field?.length).toBeLessThan(300);
    expect(report?.status).toBe("refused");
  });

  it("refuses a snapshot deleting more than 10% unless its metadata allows it", async () => {
    const { table, world } = ready();
    const [person] = world.before.persons;
    const body = `${JSON.stringify({ person })}\n`;
    const guarded = await put("snapshot/shrinks.ndjson", body, { guarded: true });
    const refused = await runLocalExecution(guarded, ingest());
    expect(refused.deadLetter).toBeUndefined();
    expect((await inbox().report(guarded))?.refusal).toEqual({
      record: "snapshot",
      field: null,
      rule: expect.stringMatching(
        new RegExp(
          `^would delete ${world.before.employees.length} of the ${world.before.employees.length} stored employee records, more than 10%; to allow it, load with --allow-shrink \\(an inbox object: metadata allow-shrink=true\\)$`,
        ),
      ),
    });
    await table.expectState(world.beforeState);
    const allowed = await put("snapshot/shrinks.ndjson", body);
    expect(await ended(await runLocalExecution(allowed, ingest({ changesPerApply: 100 })))).toEqual(APPLIED);
    expect((await inbox().report(allowed))?.deletedBySnapshot).toBe(
      world.before.employees.length + world.before.persons.length - 1,
    );
  });

  it("undoes a load whose step crashed, reports it failed and sends it to the dead letters", async () => {
    const { table, world } = ready();
    const object = await put("snapshot/crash.ndjson", await readFile(world.file("snapshot")));
    const step = ingest();
    let calls = 0;
    const crashing = async (state: IngestState) => {
      calls += 1;
      // Step 1 takes the lease, 2 validates and applies, 3 applies more; 4 dies with it half written.
      if (calls === 4) throw new Error("Task timed out after 900.00 seconds");
      return step(state);
    };
    const { state, deadLetter } = await runLocalExecution(object, crashing);
    expect(state.status).toBe("failed");
    expect(deadLetter?.status).toBe("failed");
    expect((await inbox().report(object))?.error).toMatch(/a step crashed .*timed out/);
    await table.expectState(world.beforeState);
    await table.expectVerified();
    expect((await readManifest(table.documents, table.table)).lease).toBeUndefined();
  });

  it("a step paused past its lease, woken after another load published, changes nothing searches see", async () => {
    const { table, world } = ready();
    const object = await put("merge/paused.ndjson", await readFile(world.file("merge")));
    // The paused step's own client: its lease looks expired at once, and it is never renewed.
    const client = documentClientFor(getEngine().engine.client());
    const pause = pauseOn(client, (command) => command === "BatchWriteItemCommand");
    pause.arm();
    const paused = dynamoDirectory(client, table.table, {
      writer: { graceMs: 0, leaseTtlMs: 1, renewEveryMs: 3_600_000 },
    });
    const execution = runLocalExecution(object, (state) =>
      ingestStep(state, { inbox: inbox(), directory: paused, deadline: everyNth(2), changesPerApply: 25 }),
    );
    await pause.reached;

    // Another load takes the lease over (its heartbeat stood still) and publishes.
    const taker = dynamoDirectory(table.documents, table.table, {
      writer: { graceMs: 0, leaseWatch: fakeWatch() },
    });
    await loadFile(world.file("changes"), "changes", taker);
    const changed = await stateAfter(world.before, [{ path: world.file("changes"), mode: "changes" }]);
    await table.expectState(changed);

    // The step wakes: what it still sends lands in an abandoned generation, and the ingest fails.
    pause.release();
    const { state } = await execution;
    expect(state.status).not.toBe("applied");
    await table.expectState(changed);
    // The next load removes what the woken step left; the directory is the taker's.
    await loadFile(world.file("changes"), "changes", taker);
    await table.expectState(changed);
    await table.expectVerified();
  });

  it("waits while another load holds the lease, then applies", async () => {
    const { table, world } = ready();
    const other = await dynamoDirectory(table.documents, table.table).beginLoad("another load");
    const object = await put("merge/waits.ndjson", await readFile(world.file("merge")));
    const step = ingest();
    let waited = 0;
    const execution = runLocalExecution(
      object,
      async (state) => {
        const next = await step(state);
        if (next.status === "waiting") waited += 1;
        if (next.status === "waiting" && waited === 2) await other.abort();
        return next;
      },
      { waitMs: 20 },
    );
    expect(await ended(await execution)).toEqual(APPLIED);
    expect(waited).toBe(2);
    await table.expectState(await stateAfter(world.before, [{ path: world.file("merge"), mode: "merge" }]));
  });

  it("finds a key its event URL-encoded, and fails with a report for a version that is gone", async () => {
    const { world } = ready();
    const object = await put("merge/with space.ndjson", await readFile(world.file("merge")));
    const encoded = { ...object, key: object.key.replace(" ", "+") };
    expect(await ended(await runLocalExecution(encoded, ingest()))).toEqual(APPLIED);
    expect((await inbox().report(object))?.status).toBe("applied");
    const gone = { ...object, key: "merge/never-put.ndjson" };
    const { state, deadLetter } = await runLocalExecution(gone, ingest());
    expect(deadLetter?.status).toBe("failed");
    expect((await inbox().report(gone))?.error).toBe("the object version is gone from the inbox");
    expect(state.report).toBe(reportKey(gone));
  });

  it("keeps the applied report, and ends applied, when a step crashes after the flip", async () => {
    const { table, world } = ready();
    const object = await put("changes/flip-then-crash.ndjson", await readFile(world.file("changes")));
    const step = ingest({ every: 1 });
    let crashed = false;
    const crashingAfterFlip = async (state: IngestState) => {
      // The flip wrote the report; the clean-up goes on in later steps: the next one dies. On a
      // busy machine a step after the flip may have crashed by itself already (a call timed out):
      // its crash counts the same.
      if (!crashed && state.status === "running" && (await inbox().report(object))) {
        crashed = true;
        if (state.crash === undefined) throw new Error("Runtime exited with error: signal: killed");
      }
      return step(state);
    };
    const execution = await runLocalExecution(object, crashingAfterFlip);
    expect(crashed).toBe(true);
    expect(await ended(execution)).toEqual(APPLIED);
    expect(execution.deadLetter).toBeUndefined();
    expect((await inbox().report(object))?.status).toBe("applied");
    await table.expectState(world.afterState);
  });
});
