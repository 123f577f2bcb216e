/**
 * The engine the benchmark runs on. DynamoDB Local is startDynamoDbLocal() as is. dynalite is
 * started like startDynalite() (in this process, tables ACTIVE at once) with one difference: a
 * long keep-alive timeout. Under the naive design's scans dynalite keeps the event loop busy for
 * seconds; Node's default 5 s keep-alive timer then fires before the server reads a request that
 * already arrived on a pooled socket, and the call fails with ECONNRESET. (lib/local/engines.ts
 * could take this as an option; the benchmark does not change it.)
 */
import type { AddressInfo } from "node:net";
import dynalite from "dynalite";
import { attachEngine, type Engine, type EngineName, startDynamoDbLocal } from "../local/engines.js";

/** Longer than any call of the run, so the server never drops a pooled connection by itself. */
export const SERVER_KEEP_ALIVE_MS = 600_000;

async function startBenchDynalite(): Promise<Engine> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return attachEngine(
    "dynalite",
    `http://127.0.0.1:${port}`,
    () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  );
}

export function startBenchEngine(name: EngineName): Promise<Engine> {
  return name === "dynalite" ? startBenchDynalite() : startDynamoDbLocal();
}
