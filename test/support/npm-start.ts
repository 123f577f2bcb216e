/**
 * `npm start` in a child process for tests of the commands that find it: its endpoints recorded in
 * a temporary file (ENDPOINTS_FILE), dynalite (its default engine), any free port.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { TYPESCRIPT_NODE_OPTIONS } from "../../lib/cli/typescript-node.js";
import { readEndpoints } from "../../lib/local/endpoints-file.js";

export const ROOT = new URL("../../", import.meta.url).pathname;

export interface NpmStart {
  /** A temporary folder of the test's own, removed by `stop`. */
  readonly folder: string;
  /** The endpoints record `npm start` writes and removes. */
  readonly file: string;
  /** The environment that points a command at this server (Node 24 first on the PATH). */
  readonly env: NodeJS.ProcessEnv;
  /** Stops the server with SIGINT, as Ctrl-C does, and waits for it; idempotent. */
  stop(): Promise<void>;
}

/** Until `check` holds, polling; the test's own timeout bounds it. */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Ends the server: SIGINT, as Ctrl-C does, so it removes its endpoints record. */
async function interrupt(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGINT");
  await exited;
}

export async function startNpmStart(prefix: string): Promise<NpmStart> {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  const file = join(folder, "endpoints.json");
  const env = {
    ...process.env,
    ENDPOINTS_FILE: file,
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
  };
  const server = spawn(process.execPath, [...TYPESCRIPT_NODE_OPTIONS, "lib/local/main.ts"], {
    cwd: ROOT,
    env: { ...env, PORT: "0" },
    stdio: "ignore",
  });
  await until(() => readEndpoints(file) !== undefined || server.exitCode !== null);
  if (server.exitCode !== null)
    throw new Error(`npm start exited (${server.exitCode}) before it recorded its endpoints`);
  return {
    folder,
    file,
    env,
    async stop() {
      await interrupt(server);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
