/** Runs a command-line tool as a person runs it: through node_modules/.bin/tsx on this Node 24. */
import { execFile } from "node:child_process";
import { dirname } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;
const TSX = `${ROOT}node_modules/.bin/tsx`;

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a tool to its end; its exit code is part of the outcome, not a rejection. */
export function runTool(file: string, args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      [file, ...args],
      {
        cwd: ROOT,
        // tsx runs on the `node` of PATH: this Node 24's first, not a system one.
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
