/**
 * `npm run load` as a child process, against a given endpoint and table: lib/cli/load.ts on this
 * Node with the project's TypeScript hooks, as the npm script runs it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { TYPESCRIPT_NODE_OPTIONS } from "../../lib/cli/typescript-node.js";
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
  /** SIGKILL to every process of the command. */
  kill(): void;
  readonly exited: Promise<LoaderExit>;
}

/**
 * A loader that has not exited by then is stuck, not slow: it is killed and the test fails, saying
 * so, just before jest's 10-minute test timeout (jest.config.js) would end the test without a word.
 */
const STUCK_MS = 540_000;
let exits = 0;

export function startLoader(options: {
  file: string;
  mode: LoadMode;
  endpoint: string;
  table: string;
}): LoaderProcess {
  const child = spawn(
    process.execPath,
    [
      ...TYPESCRIPT_NODE_OPTIONS,
      "lib/cli/load.ts",
      options.file,
      "--mode",
      options.mode,
      "--endpoint",
      options.endpoint,
      "--table",
      options.table,
      // The scenarios' snapshots delete what they mean to: the shrink guard has tests of its own.
      ...(options.mode === "snapshot" ? ["--allow-shrink"] : []),
    ],
    // Its own process group, so that a kill reaches whatever the command starts.
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  const kill = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (part: Buffer) => {
    stdout += part.toString("utf8");
  });
  child.stderr?.on("data", (part: Buffer) => {
    stderr += part.toString("utf8");
  });
  const stuck = setTimeout(kill, STUCK_MS);
  const exited = new Promise<LoaderExit>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(stuck);
      exits += 1;
      resolve({ code, signal, stdout, stderr, exitOrder: exits });
    });
  });
  return { child, kill, exited };
}

/** Runs a loader to its end. */
export const runLoader = (options: Parameters<typeof startLoader>[0]) => startLoader(options).exited;
