/** Runs a command-line tool as its npm script does: on this Node 24, with the TypeScript hooks. */
import { execFile } from "node:child_process";
import { dirname } from "node:path";
import { TYPESCRIPT_NODE_OPTIONS } from "../../lib/cli/typescript-node.js";

const ROOT = new URL("../../", import.meta.url).pathname;

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a tool to its end; its exit code is part of the outcome, not a rejection. */
export function runTool(file: string, args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...TYPESCRIPT_NODE_OPTIONS, file, ...args],
      {
        cwd: ROOT,
        // Whatever the tool starts runs on this Node 24 too, not a system one.
        env: { ...process.env, ...env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A line of a stack trace: no tool's output may hold one. */
export const STACK_FRAME = /^\s+at /m;
