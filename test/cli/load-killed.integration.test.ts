/**
 * `npm run load` killed the way a supervisor or a test harness kills a command: SIGKILL to npm's
 * own pid, which reaches npm alone and leaves sh and the loader running. The loader notices
 * its command is gone (lib/cli/command-watch.ts), undoes what it wrote and releases the lease, so
 * searches are unchanged and the same file can be run again at once.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { watchCommand } from "../../lib/cli/command-watch.js";
import { loadFile } from "../../lib/load/load-file.js";
import { LOCAL_TABLE_NAMES } from "../../lib/local/config.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { createTables } from "../../lib/store/create-tables.js";
import { type DynamoDirectory, dynamoDirectory } from "../../lib/store/dynamo/index.js";
import { readManifest } from "../../lib/store/dynamo/manifest/manifest.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { employeeInput, personInput, testUuid } from "../support/records.js";

const ROOT = new URL("../../", import.meta.url).pathname;
/**
 * Enough that the loader is still writing when its watch (every 250 ms) finds the command gone: a
 * load of them takes about 10 s on the 2-core machine. More only makes the reload below longer.
 */
const RECORDS = 1_000;
const EVERYONE = { companies: new Set(["acme"]) };
const employeesOfAcme = (directory: DynamoDirectory) =>
  directory.employees({ filter: EVERYONE, created: {}, offset: 0, limit: 1 });

let engine: Engine;
let directory: DynamoDirectory;
let folder: string;

beforeAll(async () => {
  engine = await startDynalite();
  const client = engine.client();
  await createTables(client, LOCAL_TABLE_NAMES);
  directory = dynamoDirectory(documentClientFor(client), LOCAL_TABLE_NAMES.directory, {
    reader: { manifestTtlMs: 0 },
    writer: { graceMs: 0 },
  });
  folder = await mkdtemp(join(tmpdir(), "load-killed-"));
});

afterAll(async () => {
  await engine?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Resolves with the child's stderr once every process holding its pipes has exited. */
function closed(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve) => child.once("close", () => resolve(stderr())));
}

describe("npm run load, its npm killed", () => {
  it("undoes what it wrote and releases the lease; the same file then loads", async () => {
    const person = testUuid(0x10ad, 0, 0);
    const changes = [
      JSON.stringify({ op: "upsert", person: personInput(person, "2024-01-01T00:00:00Z") }),
      ...Array.from({ length: RECORDS }, (_, i) =>
        JSON.stringify({
          op: "upsert",
          employee: employeeInput({
            id: testUuid(0x10ad, 1, i),
            companyId: "acme",
            personId: person,
            createdAt: new Date(Date.UTC(2024, 1, 1, 0, 0, i)).toISOString(),
          }),
        }),
      ),
    ];
    const file = join(folder, "changes.ndjson");
    await writeFile(file, `${changes.join("\n")}\n`);
    const before = await readManifest(documentClientFor(engine.client()), LOCAL_TABLE_NAMES.directory);

    // Its own process group, so the test can pause every process of the command at once.
    const child = spawn(
      "npm",
      ["run", "-s", "load", "--", file, "--endpoint", engine.endpoint, "--mode", "changes"],
      {
        cwd: ROOT,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    const done = closed(child, () => stderr);
    await new Promise<void>((resolve) =>
      child.stderr?.on("data", (data: Buffer) => {
        stderr += data.toString();
        if (stderr.includes("validated:")) resolve();
      }),
    );
    const group = child.pid as number;
    // Paused, the loader cannot get ahead of the kill, however fast the machine.
    process.kill(-group, "SIGSTOP");
    process.kill(group, "SIGKILL");
    process.kill(-group, "SIGCONT");

    expect(await done).toMatch(/failed, nothing changed: the command running this load was killed/);
    const after = await readManifest(documentClientFor(engine.client()), LOCAL_TABLE_NAMES.directory);
    expect(after.lease).toBeUndefined();
    expect(after.committed).toBe(before.committed);
    expect((await employeesOfAcme(directory)).total).toBe(0);

    await loadFile(file, "changes", directory);
    expect((await employeesOfAcme(directory)).total).toBe(RECORDS);
  });
});

describe("watchCommand", () => {
  it("stays quiet while the command's processes live", async () => {
    let gone = false;
    const stop = watchCommand(() => {
      gone = true;
    }, 10);
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop();
    expect(gone).toBe(false);
  });
});
