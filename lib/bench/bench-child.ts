/**
 * A measurement in a child Node running the bench's TypeScript (the loads profile's load, the scale
 * profile's limited process): it gets its own memory figures and limits, apart from the bench's
 * dataset and engine. The child may report progress, then answers once over IPC and disconnects.
 */
import { fork } from "node:child_process";
import { TYPESCRIPT_NODE_OPTIONS } from "../cli/typescript-node.js";

export type ChildAnswer<T> = { ok: true; result: T } | { ok: false; error: string };
/** The answer, or how many parts of the job are done so far. */
type ChildMessage<T> = ChildAnswer<T> | { done: number };

export interface ChildRun {
  /** The child's module, resolved from the caller's import.meta.url. */
  readonly script: URL;
  readonly args?: readonly string[];
  /** Node options beyond the TypeScript hooks (heap limits, --expose-gc). */
  readonly nodeOptions?: readonly string[];
  /** Sent to the child once it is started. */
  readonly job?: object;
  readonly onDone?: (done: number) => void;
}

/** The child's answer; a failed one when it cannot start, or ends (out of memory, a crash) without answering. */
export function runInChild<T>(run: ChildRun): Promise<ChildAnswer<T>> {
  const child = fork(run.script.pathname, [...(run.args ?? [])], {
    execArgv: [...TYPESCRIPT_NODE_OPTIONS, ...(run.nodeOptions ?? [])],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve) => {
    let answer: ChildAnswer<T> | undefined;
    child.on("message", (message: ChildMessage<T>) => {
      if ("done" in message) run.onDone?.(message.done);
      else answer = message;
    });
    child.once("error", (error) => resolve({ ok: false, error: error.message }));
    child.once("exit", (code, signal) =>
      resolve(
        answer ?? { ok: false, error: `the process ended (${signal ?? `exit ${code}`}) without an answer` },
      ),
    );
    if (run.job !== undefined) child.send(run.job);
  });
}

/** In the child: how many parts of its job are done. */
export const reportDone = (done: number) => process.send?.({ done } satisfies ChildMessage<never>);

/** In the child: sends `work`'s result, or why it failed, then disconnects so the process can end. */
export function answerParent<T>(work: Promise<T>): void {
  const answer = (message: ChildAnswer<T>) => process.send?.(message, () => process.disconnect());
  work.then(
    (result) => answer({ ok: true, result }),
    (error: unknown) => answer({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
}
