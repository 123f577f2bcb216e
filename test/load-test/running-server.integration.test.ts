/**
 * `npm run load-test` drives the running `npm start` (found through its endpoints record): keys of
 * its own in the server's keys table, revoked at the end and on Ctrl-C, a workload from the
 * server's directory, and the server's RSS sampled. Short runs; no check of speed. (npm start's
 * own engine, dynalite: the load test reaches it over HTTP as it would reach DynamoDB Local.)
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TYPESCRIPT_NODE_OPTIONS } from "../../lib/cli/typescript-node.js";
import type { SourceEmployee } from "../../lib/directory/source.js";
import type { LoadReport } from "../../lib/load-test/report.js";
import { readEndpoints } from "../../lib/local/endpoints-file.js";
import { runTool } from "../cli/run-tool.js";
import { type NpmStart, ROOT, startNpmStart, until } from "../support/npm-start.js";

let server: NpmStart;
let folder: string;
let file: string;

/** The load test's keys on the running server, as `keys list` shows them. */
async function loadTestKeys(): Promise<{ keyId: string; status: string }[]> {
  const { stdout } = await runTool("lib/cli/keys.ts", ["list"], { ENDPOINTS_FILE: file });
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { keyId: string; status: string; partner: string })
    .filter((key) => key.partner.startsWith("load test"));
}

beforeAll(async () => {
  server = await startNpmStart("load-test-running-");
  ({ folder, file } = server);
});

afterAll(() => server.stop());

it("drives the running npm start with keys of its own, and revokes them after", async () => {
  const out = join(folder, "report.json");
  const { code, stderr } = await runTool(
    "lib/load-test/main.ts",
    ["--duration", "8", "--connections", "2", "--out", out],
    { ENDPOINTS_FILE: file },
  );
  const { url, pid } = readEndpoints(file) ?? { url: "", pid: 0 };
  expect(stderr).toContain(`driving the running npm start at ${url}`);
  // The throttle's and the memory's verdicts depend on the machine's pace: not checked here.
  expect([0, 1]).toContain(code);
  const report = JSON.parse(readFileSync(out, "utf8")) as LoadReport;
  expect(report.server).toBe(`the running server at ${url}`);

  const demo = JSON.parse(readFileSync(`${ROOT}lib/local/demo/data.json`, "utf8")) as {
    employees: SourceEmployee[];
  };
  expect(report.dataset).toMatchObject({
    records: demo.employees.length,
    companies: new Set(demo.employees.map((record) => record.companyId)).size,
  });
  const check = (name: string) => report.checks.find((candidate) => candidate.name === name);
  expect(check("no unexpected status")).toMatchObject({ ok: true });
  expect(check("429 only on the throttled key")).toMatchObject({ ok: true });
  expect(check("every kind of request was sent")).toMatchObject({ ok: true });
  expect(check("memory flat")?.skipped).toBeUndefined();
  expect(check("memory flat")?.detail).toMatch(/^RSS /);
  expect(report.memory.every((sample) => sample.rss > 0 && sample.heapUsed === undefined)).toBe(true);
  expect(pid).toBeGreaterThan(0);

  const keys = await loadTestKeys();
  expect(keys).toHaveLength(3);
  expect(keys.map((key) => key.status)).toEqual(["revoked", "revoked", "revoked"]);
});

it("revokes its keys when interrupted", async () => {
  const before = (await loadTestKeys()).length;
  const run = spawn(
    process.execPath,
    [...TYPESCRIPT_NODE_OPTIONS, "lib/load-test/main.ts", "--duration", "600", "--connections", "1"],
    {
      cwd: ROOT,
      env: server.env,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  run.stderr?.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  // "close": after its stderr is read to the end ("exit" may come first).
  const exited = new Promise<number | null>((resolve) => run.once("close", resolve));
  await until(() => stderr.includes("loading for 600 s") || run.exitCode !== null);
  run.kill("SIGINT");
  expect(await exited).toBe(130);
  expect(stderr).toContain("interrupted: cleaning up…");
  const keys = await loadTestKeys();
  expect(keys).toHaveLength(before + 3);
  expect(keys.every((key) => key.status === "revoked")).toBe(true);
});
