/**
 * `npm run load` paused past its lease (SIGSTOP to its process group, as Ctrl-Z does) while
 * another load takes the lease over and publishes, then woken (SIGCONT): it fails saying it lost
 * its lease, and nothing it wrote is ever seen (docs/data-model.md, "Fencing"). The test waits for
 * the paused loader's lease to expire (30 s on its own clock), never for anything to be fast.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TYPESCRIPT_NODE_OPTIONS } from "../../lib/cli/typescript-node.js";
import { loadFile } from "../../lib/load/load-file.js";
import { dynamoDirectory } from "../../lib/store/dynamo/index.js";
import { readManifest } from "../../lib/store/dynamo/manifest/manifest.js";
import { verifyDirectory } from "../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../support/engines.js";
import { fakeWatch } from "../support/lease-watch.js";
import { employeeInput, testUuid } from "../support/records.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const RECORDS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const changesOf = (company: string, count: number, run: number) =>
  `${Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      op: "upsert",
      employee: employeeInput({
        id: testUuid(0x5709, run, i),
        companyId: company,
        personId: null,
        createdAt: new Date(Date.UTC(2024, 1, 1, 0, 0, i)).toISOString(),
      }),
    }),
  ).join("\n")}\n`;

describeEachEngine(`npm run load paused past its lease (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  const it = itByTurns(TURN_SEED, engineName);
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "load-paused-"));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("fails once woken, and nothing it wrote is seen, before or after", async () => {
    const context = getEngine();
    const table = context.tables.directory;
    const documents = documentClientFor(context.client);
    const taker = dynamoDirectory(documents, table, {
      reader: { manifestTtlMs: 0, answerCacheBytes: 0 },
      writer: { graceMs: 0, leaseWatch: fakeWatch() },
    });
    const total = async (company: string) =>
      (await taker.employees({ filter: { companies: new Set([company]) }, created: {}, offset: 0, limit: 1 }))
        .total;
    const big = join(folder, "big.ndjson");
    const small = join(folder, "small.ndjson");
    await writeFile(big, changesOf("acme", RECORDS, 1));
    await writeFile(small, changesOf("beta", 5, 2));

    // Its own process group, so the test can pause every process of the command at once.
    const child = spawn(
      process.execPath,
      [
        ...TYPESCRIPT_NODE_OPTIONS,
        "lib/cli/load.ts",
        big,
        "--mode",
        "changes",
        "--endpoint",
        context.engine.endpoint,
        "--table",
        table,
      ],
      { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env } },
    );
    let stderr = "";
    child.stderr?.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    const group = child.pid as number;
    // Paused as soon as it holds the lease: it has taken its generation and may be writing. (A
    // loader that ended first, having failed or loaded it all, fails the test here, saying why.)
    while (!(await readManifest(documents, table)).lease && child.exitCode === null) await sleep(50);
    if (child.exitCode !== null) throw new Error(`the loader ended before it was paused: ${stderr}`);
    process.kill(-group, "SIGSTOP");
    try {
      while (((await readManifest(documents, table)).lease?.expiresAt ?? 0) >= Date.now()) await sleep(500);
      // Another load takes the lease over (its heartbeat stands still) and publishes.
      await loadFile(small, "changes", taker);
      expect({ acme: await total("acme"), beta: await total("beta") }).toEqual({ acme: 0, beta: 5 });
    } finally {
      process.kill(-group, "SIGCONT");
    }

    expect(await exited).toBe(1);
    expect(stderr).toMatch(/failed, nothing changed: .*(lost its lease|superseded by another load)/);
    expect({ acme: await total("acme"), beta: await total("beta") }).toEqual({ acme: 0, beta: 5 });
    // The next load removes what the woken loader left; verify passes.
    await loadFile(small, "changes", taker);
    expect((await verifyDirectory(documents, table)).problem).toBeUndefined();
    expect({ acme: await total("acme"), beta: await total("beta") }).toEqual({ acme: 0, beta: 5 });
  });
});
