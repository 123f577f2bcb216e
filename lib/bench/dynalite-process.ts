/**
 * dynalite in a Node process of its own, for the benchmark. In the bench's process it shared one
 * core and one heap with the loads and the measurements, and the bench's collections stalled the
 * engine; apart, the two run on two cores. In memory, dynalite keeps every item as JSON in its
 * heap: a million-record run passed 11 GB halfway through its load. On disk (a LevelDB folder
 * under the system's temporary folder), the heap holds only what requests are doing, and a
 * 100,000-record load took 529 s (546 s in memory). The child answers its endpoint (and folder)
 * once over IPC and ends when the bench disconnects (stop, or the bench dying), removing its folder,
 * unless the bench gave the folder (a load kept across runs: saved-load.ts). It ignores Ctrl-C: the
 * bench says when it ends, after what it was writing is written.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TYPESCRIPT_NODE_OPTIONS } from "../cli/typescript-node.js";
import { attachEngine, type Engine, startDynalite } from "../local/engines.js";

interface Started {
  readonly endpoint: string;
  /** The table's folder, on disk. */
  readonly folder?: string;
}

export type DynaliteProcess = Engine & Started;

/** Tables in memory, on disk in a temporary folder, or in `{ folder }`, kept when it ends. */
export type DynaliteStorage = "memory" | "disk" | { readonly folder: string };

const storageArgs = (storage: DynaliteStorage) =>
  storage === "memory" ? [] : storage === "disk" ? ["--disk"] : ["--folder", storage.folder];

export function startDynaliteProcess(storage: DynaliteStorage): Promise<DynaliteProcess> {
  const child = fork(new URL(import.meta.url).pathname, ["--serve", ...storageArgs(storage)], {
    execArgv: [...TYPESCRIPT_NODE_OPTIONS],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.once("message", ({ endpoint, folder }: Started) => {
      const engine = attachEngine("dynalite", endpoint, async () => {
        child.disconnect();
        await exited;
      });
      resolve(folder === undefined ? engine : Object.assign(engine, { folder }));
    });
    child.once("error", reject);
    void exited.then(() => reject(new Error("dynalite's process ended before it answered")));
  });
}

async function serve(args: readonly string[]): Promise<void> {
  const given = args.indexOf("--folder") >= 0 ? args[args.indexOf("--folder") + 1] : undefined;
  const folder =
    given ?? (args.includes("--disk") ? mkdtempSync(join(tmpdir(), "bench-dynalite-")) : undefined);
  process.on("SIGINT", () => {});
  const engine = await startDynalite(folder === undefined ? {} : { path: folder });
  process.once("disconnect", () => {
    void engine.stop().finally(() => {
      if (folder !== undefined && given === undefined) rmSync(folder, { recursive: true, force: true });
      process.exit(0);
    });
  });
  process.send?.({
    endpoint: engine.endpoint,
    ...(folder === undefined ? {} : { folder }),
  } satisfies Started);
}

if (process.argv.includes("--serve") && process.send) void serve(process.argv);
