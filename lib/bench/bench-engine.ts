/**
 * The engine the benchmark runs on: DynamoDB Local as is, or dynalite with a long keep-alive
 * (see StartDynaliteOptions: the naive design's scans keep the event loop busy for seconds).
 */
import { type Engine, type EngineName, startDynalite, startDynamoDbLocal } from "../local/engines.js";

/** Longer than any call of the run, so the server never drops a pooled connection by itself. */
const SERVER_KEEP_ALIVE_MS = 600_000;

export function startBenchEngine(name: EngineName): Promise<Engine> {
  return name === "dynalite" ? startDynalite({ keepAliveMs: SERVER_KEEP_ALIVE_MS }) : startDynamoDbLocal();
}
