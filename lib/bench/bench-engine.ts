/**
 * The engine the benchmark runs on: DynamoDB Local as is, or dynalite in a process of its own
 * with a long keep-alive (dynalite-process.ts), its table in memory or on disk.
 */
import { type Engine, type EngineName, startDynamoDbLocal } from "../local/engines.js";
import { startDynaliteProcess } from "./dynalite-process.js";

export function startBenchEngine(name: EngineName, onDisk = false): Promise<Engine> {
  return name === "dynalite" ? startDynaliteProcess(onDisk) : startDynamoDbLocal();
}
