/** Runs one measured load (load-child.ts) in a child process and returns what it measured. */
import { fork } from "node:child_process";
import type { LoadMode } from "../load/change-lines.js";
import type { LoadChildMessage, LoadChildResult } from "./load-child.js";

export interface LoadRun {
  readonly endpoint: string;
  readonly table: string;
  readonly file: string;
  readonly mode: LoadMode;
}

export function runLoadInChild(run: LoadRun): Promise<LoadChildResult> {
  const child = fork(
    new URL("./load-child.ts", import.meta.url).pathname,
    [run.endpoint, run.table, run.file, run.mode],
    { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  return new Promise((resolve, reject) => {
    let answer: LoadChildMessage | undefined;
    child.once("message", (message: LoadChildMessage) => {
      answer = message;
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (answer?.ok) resolve(answer.result);
      else reject(new Error(`load of ${run.file} (${run.mode}) failed: ${answer?.error ?? `exit ${code}`}`));
    });
  });
}
