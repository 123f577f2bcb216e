/** `npm run load` as a child process, the way an operator runs it, against a given endpoint and table. */
import { type ChildProcess, spawn } from "node:child_process";
import type { LoadMode } from "../../lib/load/change-lines.js";

export interface LoaderExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Order in which the children of a test exited (1 for the first). */
  readonly exitOrder: number;
}

export interface LoaderProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<LoaderExit>;
}

/** A loader that has not exited by then is stuck, not slow: it is killed and the test fails. */
const STUCK_MS = 300_000;
let exits = 0;

export function startLoader(options: {
  file: string;
  mode: LoadMode;
  endpoint: string;
  table: string;
}): LoaderProcess {
  const child = spawn(
    "node_modules/.bin/tsx",
    [
      "lib/cli/load.ts",
      options.file,
      "--mode",
      options.mode,
      "--endpoint",
      options.endpoint,
      "--table",
      options.table,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (part: Buffer) => {
    stdout += part.toString("utf8");
  });
  child.stderr?.on("data", (part: Buffer) => {
    stderr += part.toString("utf8");
  });
  const stuck = setTimeout(() => child.kill("SIGKILL"), STUCK_MS);
  const exited = new Promise<LoaderExit>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(stuck);
      exits += 1;
      resolve({ code, signal, stdout, stderr, exitOrder: exits });
    });
  });
  return { child, exited };
}

/** Runs a loader to its end. */
export const runLoader = (options: Parameters<typeof startLoader>[0]) => startLoader(options).exited;
