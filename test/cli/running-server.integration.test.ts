/**
 * `npm start` records its endpoints, and `directory` and `keys` given no target use its engine;
 * it removes the record when it stops. (npm start's own engine, dynalite: the commands reach it
 * over HTTP as they would reach DynamoDB Local.)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { readEndpoints } from "../../lib/local/endpoints-file.js";
import { runTool } from "./run-tool.js";

const ROOT = new URL("../../", import.meta.url).pathname;
let folder: string;
let file: string;
let server: ChildProcess;

/** Until `check` holds, polling; the test's own timeout bounds it. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 100));
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "running-server-"));
  file = join(folder, "endpoints.json");
  server = spawn(`${ROOT}node_modules/.bin/tsx`, ["lib/local/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: "0",
      ENDPOINTS_FILE: file,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
    },
    stdio: "ignore",
  });
  await until(() => readEndpoints(file) !== undefined);
});

afterAll(async () => {
  // SIGINT, which tsx passes on: a SIGKILL would end tsx and leave the server running.
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGINT");
    await exited;
  }
  rmSync(folder, { recursive: true, force: true });
});

describe("commands without --endpoint while npm start runs", () => {
  it("directory verify checks the running server's directory", async () => {
    const { code, stdout, stderr } = await runTool("lib/cli/directory.ts", ["verify"], {
      ENDPOINTS_FILE: file,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ok: generation \d+, the whole table: \d+ records/);
    expect(stderr).toBe(`using the DynamoDB of the running npm start: ${readEndpoints(file)?.dynamodb}\n`);
  });

  it("keys list lists the running server's keys", async () => {
    const { code, stdout } = await runTool("lib/cli/keys.ts", ["list"], { ENDPOINTS_FILE: file });
    expect(code).toBe(0);
    expect(stdout).toContain('"partner":"Acme Integrator (two companies)"');
  });

  it("keys create makes a key there, warning about a company the directory does not hold", async () => {
    const { code, stdout, stderr } = await runTool(
      "lib/cli/keys.ts",
      [
        "create",
        "--partner",
        "P",
        "--operations",
        "companies.hello",
        "--companies",
        "acme-home-care,acme-typo",
      ],
      { ENDPOINTS_FILE: file },
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^pd_test_\w+\n$/);
    expect(stderr).toContain(
      "warning: not in the directory (no employee records): acme-typo; the key reads nothing there until they are loaded",
    );
  });

  it("the record goes when npm start stops", async () => {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGINT");
    await exited;
    expect(existsSync(file)).toBe(false);
  });
});
