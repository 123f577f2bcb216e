/** Runs one measured load (load-child.ts) in a child process and returns what it measured. */
import type { LoadMode } from "../load/change-lines.js";
import { runInChild } from "./bench-child.js";
import type { LoadChildResult } from "./load-child.js";

export interface LoadRun {
  readonly endpoint: string;
  readonly table: string;
  readonly file: string;
  readonly mode: LoadMode;
}

export async function runLoadInChild(run: LoadRun): Promise<LoadChildResult> {
  const answer = await runInChild<LoadChildResult>({
    script: new URL("./load-child.ts", import.meta.url),
    args: [run.endpoint, run.table, run.file, run.mode],
  });
  if (!answer.ok) throw new Error(`load of ${run.file} (${run.mode}) failed: ${answer.error}`);
  return answer.result;
}
