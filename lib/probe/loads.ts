/**
 * The probe's load case: `npm run load` (the same command as the npm script, without npm) against
 * the server's DynamoDB, given a FIFO with no writer, /dev/zero and a file whose one line is 3 MB
 * (and starts with key text). Each must be refused at once: exit 1 and one `load: refused, nothing
 * changed: …` line within a few seconds; one still running after 30 s is killed. Then
 * `npm run directory -- verify` must still find the directory clean.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TYPESCRIPT_NODE_OPTIONS } from "../cli/typescript-node.js";
import { callerText } from "../observability/caller-text.js";
import type { Answer, CaseResult } from "./verdict.js";

/** "Within a few seconds": a refusal reads no data, so this is Node's start and one stat, with room to spare. */
const REFUSAL_LIMIT_MS = 10_000;
const KILL_AFTER_MS = 30_000;
/** A clean verify of the probe's small directory takes seconds; a stuck one is killed. */
const VERIFY_LIMIT_MS = 60_000;

interface CliRun {
  /** The exit code; -1 when killed. */
  readonly code: number;
  readonly ms: number;
  readonly stdout: string;
  readonly stderr: string;
}

const cliPath = (name: string) => new URL(`../cli/${name}.ts`, import.meta.url).pathname;

/** Runs one of the project's CLIs as its npm script does; killed (SIGKILL) after `killAfterMs`. */
function runCli(name: string, args: readonly string[], killAfterMs: number): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [...TYPESCRIPT_NODE_OPTIONS, cliPath(name), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on("data", (data: Buffer) => stdout.push(data));
  child.stderr.on("data", (data: Buffer) => stderr.push(data));
  const killer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(killer);
      resolve({
        code: code ?? -1,
        ms: performance.now() - started,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
  });
}

/** The last line a CLI wrote to stderr. */
const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";

export interface LoadsContext {
  /** The server's DynamoDB endpoint. */
  readonly dynamodb: string;
  /** Key text to start the 3 MB line with: a refusal that quoted the line must not repeat it. */
  readonly keyText: string;
  /** Receives everything the CLIs wrote, for the final scan. */
  readonly cliOutput: (text: string) => void;
}

/** 7. Loads from a FIFO, /dev/zero and a 3 MB line: refused at once; verify clean after. */
export async function hostileLoads(context: LoadsContext): Promise<CaseResult> {
  const started = performance.now();
  const folder = mkdtempSync(join(tmpdir(), "probe-"));
  const answers: Answer[] = [];
  try {
    const fifo = join(folder, "records.fifo");
    execFileSync("mkfifo", [fifo]);
    const longLine = join(folder, "long-line.ndjson");
    writeFileSync(longLine, `{"id":"${context.keyText}","x":"${"x".repeat(3_000_000)}"}\n`);
    for (const [label, file, reason] of [
      ["a FIFO with no writer", fifo, "is a FIFO"],
      ["/dev/zero", "/dev/zero", "is a device"],
      ["a file whose line is 3 MB", longLine, "longer than 1 MiB"],
    ] as const) {
      const run = await runCli("load", [file, "--endpoint", context.dynamodb], KILL_AFTER_MS);
      context.cliOutput(run.stdout + run.stderr);
      const line = lastLine(run.stderr);
      const refused = line.startsWith("load: refused, nothing changed: ") && line.includes(reason);
      answers.push({
        label: `load ${label}`,
        status: run.code,
        expected: [1],
        ms: run.ms,
        limitMs: REFUSAL_LIMIT_MS,
        said: callerText(line.replaceAll(folder, "…")),
        ...(run.code === -1
          ? { problem: `still running after ${KILL_AFTER_MS / 1000} s: killed` }
          : refused
            ? {}
            : { problem: `said ${JSON.stringify(callerText(line))}, expected a refusal saying "${reason}"` }),
      });
    }
    const verify = await runCli("directory", ["verify", "--endpoint", context.dynamodb], VERIFY_LIMIT_MS);
    context.cliOutput(verify.stdout + verify.stderr);
    answers.push({
      label: "directory verify after them",
      status: verify.code,
      expected: [0],
      ms: verify.ms,
      limitMs: VERIFY_LIMIT_MS,
      said: callerText(lastLine(verify.stdout || verify.stderr)),
      ...(verify.code === 0 ? {} : { problem: callerText(lastLine(verify.stderr || verify.stdout)) }),
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return {
    name: "loads from a FIFO, /dev/zero, a 3 MB line: refused at once; verify clean",
    answers,
    problems: [],
    ms: performance.now() - started,
  };
}
