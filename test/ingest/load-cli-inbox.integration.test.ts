/**
 * `npm run load -- FILE --inbox BUCKET` as a person runs it, against s3rver: the file is uploaded,
 * the inbox's put event starts the ingest (driven here as its state machine drives it on AWS), and
 * the command prints the ingest's report and exits by it. The same command with `--stage S` only
 * reads the bucket's name from the stage's SSM parameter first.
 */
import { readFile, writeFile } from "node:fs/promises";
import { modeOfKey } from "../../lib/ingest/inbox.js";
import { InboxStore } from "../../lib/ingest/inbox-store.js";
import { ingestStep } from "../../lib/ingest/ingest-step.js";
import { runLocalExecution } from "../../lib/ingest/local-execution.js";
import { dynamoDirectory } from "../../lib/store/dynamo/index.js";
import { runTool, STACK_FRAME } from "../cli/run-tool.js";
import { type Scenario, scenario, stateAfter } from "../load/load-scenario.js";
import { type LoadTable, loadTable } from "../load/load-tables.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../support/engines.js";
import { type LocalS3, S3RVER_CREDENTIALS, startLocalS3 } from "../support/s3rver.js";

describeEachEngine(`npm run load through the inbox (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  const it = itByTurns(TURN_SEED, engineName);
  let s3: LocalS3 | undefined;
  let table: LoadTable | undefined;
  let world: Scenario | undefined;
  const ready = () => {
    if (!s3 || !table || !world) throw new Error("setup failed");
    return { s3, table, world };
  };
  const loadCli = (file: string, ...args: string[]) =>
    runTool("lib/cli/load.ts", [file, "--inbox", ready().s3.bucket, ...args], {
      AWS_ENDPOINT_URL_S3: ready().s3.endpoint,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      AWS_REGION: "us-east-1",
    });

  beforeAll(async () => {
    s3 = await startLocalS3();
    world = await scenario(11, { records: 60, added: 40 });
    table = await loadTable(getEngine(), world.before);
    const { documents, table: name } = table;
    const inbox = new InboxStore(s3.client());
    const directory = dynamoDirectory(documents, name, { writer: { graceMs: 0 } });
    const bucket = s3.bucket;
    // The inbox's rule: an object under a load prefix starts an ingest (reports and work do not).
    s3.onPut((key) => {
      if (!modeOfKey(key)) return;
      void runLocalExecution({ bucket, key, versionId: "null" }, (state) =>
        ingestStep(state, { inbox, directory, deadline: () => false }),
      );
    });
  });

  afterAll(async () => {
    await table?.drop();
    await world?.dispose();
    await s3?.stop();
  });

  it("uploads the file, waits for the ingest's report and prints it (exit 0); --allow-shrink reaches the ingest", async () => {
    const { table, world } = ready();
    // This snapshot deletes more than 10% of the records: without the flag the ingest refuses it.
    const outcome = await loadCli(world.file("snapshot"), "--mode", "snapshot", "--allow-shrink");
    expect(outcome.stderr).toMatch(/^uploaded .* to s3:\/\/inbox\/snapshot\/\d{8}T\d{6}Z-snapshot\.ndjson/m);
    expect(outcome.stdout).toMatch(
      /^applied s3:\/\/inbox\/snapshot\/.* \(snapshot\): \d+ in the file, \d+ changed, \d+ stored ids absent from it deleted, in [\d.]+ s \(\d+ ingest steps\)$/m,
    );
    expect(outcome.code).toBe(0);
    await table.expectState(
      await stateAfter(world.before, [{ path: world.file("snapshot"), mode: "snapshot" }]),
    );
  });

  it("prints the ingest's refusal, naming line and field, and exits 1", async () => {
    const { world } = ready();
    const text = await readFile(world.file("changes"), "utf8");
    const bad = `${world.dir}/bad.ndjson`;
    await writeFile(bad, `${text}{"op":"upsert","employee":{"id":"not-a-uuid"}}\n`);
    const outcome = await loadCli(bad, "--mode", "changes");
    expect(outcome.stderr.trimEnd().split("\n").at(-1)).toMatch(
      /^load: refused, nothing changed: employee at line \d+: id: /,
    );
    expect(outcome.stderr).not.toMatch(STACK_FRAME);
    expect(outcome.code).toBe(1);
  });
});
