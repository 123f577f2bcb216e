/**
 * The worst request of the scale mix in a process limited like a 1,024 MB Lambda: limited-child.ts
 * in a child Node (the bench's own, as load-run.ts starts it) with `--max-old-space-size=1024
 * --expose-gc`, reading the engine over its endpoint. A child that fails, or dies out of memory,
 * is reported as such (a missed target), not thrown: the run's other figures stand.
 */
import { fork } from "node:child_process";
import type { LimitedAnswer, LimitedJob, LimitedMessage, LimitedQueryResult } from "./limited-child.js";
import type { RunPlan } from "./measure.js";
import type { Progress } from "./progress.js";

const LIMITED_HEAP_MB = 1024;

/** Warm runs per query: at least 5, up to 100 while 3 s last (p99 is the slowest below 100 runs). */
const LIMITED_PLAN: RunPlan = { warmup: 1, minRuns: 5, maxRuns: 100, budgetMs: 3_000 };

export interface LimitedProcessReport {
  readonly maxOldSpaceMb: number;
  readonly queries?: readonly LimitedQueryResult[];
  /** The query with the highest p99. */
  readonly worst?: LimitedQueryResult;
  readonly heapBeforeMb?: number;
  readonly heapAfterMb?: number;
  readonly heapGrowthMb?: number;
  readonly peakRssMb?: number;
  /** Why the process gave no figures (an exception, or its exit: out of memory is a crash). */
  readonly failed?: string;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function inChild(job: LimitedJob, onDone: (done: number) => void): Promise<LimitedAnswer> {
  const child = fork(new URL("./limited-child.ts", import.meta.url).pathname, [], {
    execArgv: ["--import", "tsx", `--max-old-space-size=${LIMITED_HEAP_MB}`, "--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve) => {
    let answer: LimitedAnswer | undefined;
    child.on("message", (message: LimitedMessage) => {
      if ("done" in message) onDone(message.done);
      else answer = message;
    });
    child.once("error", (error) => resolve({ ok: false, error: error.message }));
    child.once("exit", (code, signal) =>
      resolve(
        answer ?? { ok: false, error: `the process ended (${signal ?? `exit ${code}`}) without an answer` },
      ),
    );
    child.send(job);
  });
}

export async function runLimited(
  job: Omit<LimitedJob, "plan">,
  progress: Progress,
): Promise<LimitedProcessReport> {
  progress.start(`queries again, in a ${LIMITED_HEAP_MB} MB heap`.padEnd(52), job.queries.length);
  const message = await inChild({ ...job, plan: LIMITED_PLAN }, (done) => progress.update(done));
  progress.finish();
  if (!message.ok) return { maxOldSpaceMb: LIMITED_HEAP_MB, failed: message.error };
  const { queries, heapBeforeBytes, heapAfterBytes, peakRssKb } = message.result;
  const worst = queries.reduce<LimitedQueryResult | undefined>(
    (slowest, query) => (slowest === undefined || query.p99Ms > slowest.p99Ms ? query : slowest),
    undefined,
  );
  return {
    maxOldSpaceMb: LIMITED_HEAP_MB,
    queries,
    ...(worst ? { worst } : {}),
    heapBeforeMb: mb(heapBeforeBytes),
    heapAfterMb: mb(heapAfterBytes),
    heapGrowthMb: mb(heapAfterBytes - heapBeforeBytes),
    peakRssMb: Math.round(peakRssKb / 102.4) / 10,
  };
}
