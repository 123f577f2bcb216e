/**
 * The load test's own server: the local service in a child process (server.ts, with --expose-gc)
 * on a generated dataset, so its memory is measured apart from the load generator and sampled
 * after a full GC. The probe (lib/probe/) starts the same server and reads its output.
 */
import { fork } from "node:child_process";
import { once } from "node:events";
import { say } from "../cli/terminal-text.js";
import { TYPESCRIPT_NODE_OPTIONS } from "../cli/typescript-node.js";
import type { EngineName } from "../local/engines.js";
import type { ChildMessage, ParentMessage } from "./server.js";
import type { LoadTarget } from "./target.js";
import type { LoadKeySpec } from "./workload.js";

export interface OwnServerOptions {
  readonly records: number;
  readonly companies: number;
  readonly engine: EngineName;
  readonly throttle: LoadKeySpec["throttle"];
  /** Receives everything the server writes to stdout and stderr; else stdout is dropped, stderr shown. */
  readonly output?: (data: Buffer) => void;
}

function startChild(output: OwnServerOptions["output"]) {
  const child = fork(new URL("./server.ts", import.meta.url).pathname, {
    execArgv: ["--expose-gc", ...TYPESCRIPT_NODE_OPTIONS],
    // Access logs would flood the terminal; they are still written (and their cost paid).
    stdio: output ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "ignore", "inherit", "ipc"],
    env: { ...process.env, POWERTOOLS_DEV: "false" },
  });
  if (output) {
    child.stdout?.on("data", output);
    child.stderr?.on("data", output);
  }
  const request = (message: ParentMessage) =>
    new Promise<ChildMessage>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`load-test server exited (${code})`));
      child.once("exit", onExit);
      child.once("message", (answer: ChildMessage) => {
        child.off("exit", onExit);
        resolve(answer);
      });
      child.send(message);
    });
  return { child, request };
}

export async function ownServer(options: OwnServerOptions): Promise<LoadTarget> {
  const { records, companies, engine, throttle, output } = options;
  say(`starting the local service on ${engine} with ${records} records over ${companies} companies…`);
  const { child, request } = startChild(output);
  // Resolves once the child has exited and its output is read to the end.
  const closed = once(child, "close").catch(() => undefined);
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send({ type: "stop" } satisfies ParentMessage);
    else child.kill();
    await closed;
  };
  try {
    const ready = await request({
      type: "start",
      dataset: { records, companies, seed: 1 },
      engine,
      throttle,
    });
    if (ready.type === "failed") throw new Error(`the server did not start: ${ready.message}`);
    if (ready.type !== "ready") throw new Error("unexpected answer from the server");
    return {
      server: `its own, on ${engine}`,
      url: ready.url,
      dynamodb: ready.dynamodb,
      companyIds: ready.companyIds,
      keys: ready.keys,
      main: ready.main,
      throttled: ready.throttled,
      dataset: { records: ready.employees, persons: ready.persons, companies },
      memory: async () => {
        const sample = await request({ type: "memory" });
        if (sample.type !== "memory") throw new Error("unexpected answer from the server");
        return { heapUsed: sample.heapUsed, rss: sample.rss };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
