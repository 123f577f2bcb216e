/**
 * The load test's server: a child process (started by main.ts with --expose-gc) running the
 * local service on a generated dataset, so its memory is measured apart from the load generator
 * (and, with DynamoDB Local, apart from the database).
 * It answers the parent over IPC: `start` → `ready` (URL, keys, workload), `memory` → a post-GC
 * sample, `stop` → exits.
 */

import { OPERATIONS } from "../auth/operations.js";
import { buildDataset, type DatasetOptions } from "../bench/dataset.js";
import { generateApiKey } from "../keys/api-key.js";
import { type EngineName, startDynalite, startDynamoDbLocal } from "../local/engines.js";
import { parseKeysFile } from "../local/keys-file.js";
import { type LoadKeyId, type LoadKeySpec, loadKeys, mainWorkload, throttledWorkload } from "./workload.js";

export type ParentMessage =
  | { type: "start"; dataset: DatasetOptions; throttle: LoadKeySpec["throttle"]; engine: EngineName }
  | { type: "memory" }
  | { type: "stop" };

export type ChildMessage =
  | {
      type: "ready";
      url: string;
      /** Its DynamoDB's endpoint, for the CLIs (`npm run load -- --endpoint`). */
      dynamodb: string;
      /** The dataset's companies, largest first. */
      companyIds: string[];
      keys: Record<LoadKeyId | "unknown", string>;
      main: ReturnType<typeof mainWorkload>;
      throttled: ReturnType<typeof throttledWorkload>;
      persons: number;
      employees: number;
    }
  | { type: "memory"; heapUsed: number; rss: number }
  | { type: "failed"; message: string };

const send = (message: ChildMessage) => process.send?.(message);

async function start(message: Extract<ParentMessage, { type: "start" }>): Promise<void> {
  const dataset = buildDataset(message.dataset);
  const specs = loadKeys(dataset, message.throttle);
  const plain = Object.fromEntries(specs.map((spec) => [spec.id, generateApiKey("test")])) as Record<
    LoadKeyId,
    string
  >;
  const { records } = parseKeysFile(
    JSON.stringify({
      keys: specs.map((spec) => ({
        key: plain[spec.id],
        partner: `load test: ${spec.id}`,
        operations: [...OPERATIONS],
        companies: spec.companies,
        throttle: spec.throttle,
      })),
    }),
    "load test keys",
  );
  const { startLocalService } = await import("../local/service.js");
  // DynamoDB Local runs in its own (java) process, so this process's memory is the service's
  // alone; with dynalite it includes the database's (lib/load-test/README.md).
  const engine = message.engine === "ddblocal" ? await startDynamoDbLocal() : await startDynalite();
  const service = await startLocalService({
    port: 0,
    stage: "local",
    keys: records,
    data: dataset.data,
    engine,
  });
  send({
    type: "ready",
    url: service.url,
    dynamodb: engine.endpoint,
    companyIds: [...dataset.summary.companyIds],
    keys: { ...plain, unknown: generateApiKey("test") },
    main: mainWorkload(dataset),
    throttled: throttledWorkload(dataset),
    persons: dataset.summary.persons,
    employees: dataset.data.employees.length,
  });
}

process.on("message", (message: ParentMessage) => {
  if (message.type === "start") {
    start(message).catch((error: unknown) => {
      send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
    });
  } else if (message.type === "memory") {
    globalThis.gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    send({ type: "memory", heapUsed, rss });
  } else {
    // Nothing to keep: dynalite's tables live in this process, and DynamoDB Local (in memory) is
    // killed on exit by its engine. Exiting at once also spares searches still running after the
    // load stopped from a closed database.
    process.exit(0);
  }
});
