/**
 * dynalite in a Node process of its own, for the benchmark. In the bench's process it shared one
 * core and one heap with the loads and the measurements: a million-record load was mostly the
 * engine's work on the same thread as the loader's, and the bench's collections stalled the
 * engine. Apart, the two run on two cores. The child answers its endpoint once over IPC and ends
 * when the bench disconnects (stop, or the bench dying).
 */
import { fork } from "node:child_process";
import { attachEngine, type Engine, startDynalite } from "../local/engines.js";

/** Longer than any call of the run, so the server never drops a pooled connection by itself. */
const SERVER_KEEP_ALIVE_MS = 600_000;
/** The engine holds every item of the run in its heap: a million records are several GB. */
const ENGINE_HEAP_MB = 12_288;

interface Started {
  readonly endpoint: string;
}

export function startDynaliteProcess(): Promise<Engine> {
  const child = fork(new URL(import.meta.url).pathname, ["--serve"], {
    execArgv: ["--import", "tsx", `--max-old-space-size=${ENGINE_HEAP_MB}`],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.once("message", ({ endpoint }: Started) => {
      resolve(
        attachEngine("dynalite", endpoint, async () => {
          child.disconnect();
          await exited;
        }),
      );
    });
    child.once("error", reject);
    void exited.then(() => reject(new Error("dynalite's process ended before it answered")));
  });
}

async function serve(): Promise<void> {
  const engine = await startDynalite({ keepAliveMs: SERVER_KEEP_ALIVE_MS });
  process.once("disconnect", () => {
    void engine.stop().then(() => process.exit(0));
  });
  process.send?.({ endpoint: engine.endpoint } satisfies Started);
}

if (process.argv.includes("--serve") && process.send) void serve();
