/**
 * The engine the benchmark runs on: DynamoDB Local as is, or dynalite in a process of its own
 * (dynalite-process.ts), its table in memory, on disk, or in a folder kept across runs.
 */
import { type Engine, type EngineName, startDynamoDbLocal } from "../local/engines.js";
import { type DynaliteStorage, startDynaliteProcess } from "./dynalite-process.js";

/** dynalite's storage is for dynalite only: DynamoDB Local keeps its tables in memory. */
export function startBenchEngine(name: EngineName, storage: DynaliteStorage = "memory"): Promise<Engine> {
  return name === "dynalite" ? startDynaliteProcess(storage) : startDynamoDbLocal();
}
