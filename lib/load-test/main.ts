/**
 * `npm run load-test -- [--duration S] [--connections N] [--records N] [--companies N] [--engine E] [--out FILE]`
 *
 * Starts the local service in a child process on a generated dataset, then drives it with
 * autocannon for a fixed time: generous connections cycle through the mixed workload, and
 * connections of their own send a throttled key's requests at twice its rate. It samples the server's heap after
 * GC every two seconds (more often in short runs) and fails (exit 1) unless every check of verdict.ts holds.
 */
import { type ChildProcess, fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import autocannon, { type AutocannonResult } from "autocannon";
import { type CommandLine, choiceOption, cli, UsageError, wholeNumberOption } from "../cli/args.js";
import { DEMO_LIMITS } from "../directory/demo-data.js";
import { javaAvailable } from "../local/engines.js";
import { formatLoadReport, type LoadReport } from "./report.js";
import type { ChildMessage, ParentMessage } from "./server.js";
import {
  answeredEveryKind,
  type KindTally,
  type MemorySample,
  memoryFlat,
  noTransportErrors,
  rateLimitedOnlyThrottledKey,
  throttleHeld,
  unexpectedStatuses,
} from "./verdict.js";
import type { RequestKind } from "./workload.js";

const USAGE = `usage: npm run load-test -- [--duration S] [--connections N] [--records N] [--companies N] [--engine E] [--out FILE]

  --duration S      seconds of load (default 30)
  --connections N   concurrent connections of the mixed workload (default 8)
  --records N       employee records of the generated dataset (default 20000)
  --companies N     companies (default 10)
  --engine E        ddblocal (default: DynamoDB Local in its own process, needs java) or dynalite
                    (in the server's process, so its memory counts too)
  --out FILE        also write the report as JSON`;

const THROTTLE = { rateLimit: 5, burstLimit: 10 };
const THROTTLED_SEND_RATE = 10;
/** Enough connections that the throttled key can send at its rate even when searches are slow. */
const THROTTLED_CONNECTIONS = 6;
/** Memory samples: every 2 s, or often enough for 15 samples in a short run. */
const memoryEveryMs = (durationSeconds: number) => Math.min(2000, (durationSeconds * 1000) / 15);

function startServer(): { child: ChildProcess; request: (message: ParentMessage) => Promise<ChildMessage> } {
  const child = fork(new URL("./server.ts", import.meta.url).pathname, {
    execArgv: ["--expose-gc", "--import", "tsx"],
    // Access logs would flood the terminal; they are still written (and their cost paid).
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    env: { ...process.env, POWERTOOLS_DEV: "false" },
  });
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

function cannonRequests(
  kinds: readonly RequestKind[],
  keys: Record<string, string>,
  tallies: Map<string, Record<number, number>>,
) {
  return kinds.map((kind) => {
    const statuses: Record<number, number> = {};
    tallies.set(kind.name, statuses);
    return {
      method: kind.method,
      path: kind.path,
      headers: {
        authorization: `Bearer ${keys[kind.key]}`,
        ...(kind.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(kind.body === undefined ? {} : { body: kind.body }),
      onResponse: (status: number) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
      },
    };
  });
}

const OPTIONS = {
  duration: { type: "string" },
  connections: { type: "string" },
  records: { type: "string" },
  companies: { type: "string" },
  engine: { type: "string" },
  out: { type: "string" },
} as const;

type Request = ReturnType<typeof startServer>["request"];
type Ready = Extract<ChildMessage, { type: "ready" }>;

interface LoadTestOptions {
  readonly duration: number;
  readonly connections: number;
  readonly records: number;
  readonly companies: number;
  readonly engine: "ddblocal" | "dynalite";
}

function loadTestOptions(values: CommandLine<typeof OPTIONS>["values"]): LoadTestOptions {
  const duration = wholeNumberOption("duration", values.duration, { min: 8 }) ?? 30;
  const connections = wholeNumberOption("connections", values.connections, { min: 1 }) ?? 8;
  const records =
    wholeNumberOption("records", values.records, { min: 100, max: DEMO_LIMITS.employees.max }) ?? 20_000;
  const companies =
    wholeNumberOption("companies", values.companies, { min: 2, max: DEMO_LIMITS.companies.max }) ?? 10;
  const engine = choiceOption("engine", values.engine, ["ddblocal", "dynalite"]) ?? "ddblocal";
  if (engine === "ddblocal" && !javaAvailable())
    throw new UsageError("--engine ddblocal needs java on PATH; install Java 17, or use --engine dynalite");
  return { duration, connections, records, companies, engine };
}

async function startService(request: Request, options: LoadTestOptions): Promise<Ready> {
  const { records, companies, engine } = options;
  process.stderr.write(
    `starting the local service on ${engine} with ${records} records over ${companies} companies…\n`,
  );
  const ready = await request({
    type: "start",
    dataset: { records, companies, seed: 1 },
    engine,
    throttle: THROTTLE,
  });
  if (ready.type === "failed") throw new Error(`the server did not start: ${ready.message}`);
  if (ready.type !== "ready") throw new Error("unexpected answer from the server");
  return ready;
}

/** Samples the server's heap every `everyMs` (one request at a time) until `stop()`. */
function sampleMemory(request: Request, everyMs: number): { samples: MemorySample[]; stop: () => void } {
  const samples: MemorySample[] = [];
  const started = performance.now();
  let sampling = false;
  const sampler = setInterval(() => {
    if (sampling) return;
    sampling = true;
    void request({ type: "memory" }).then((sample) => {
      sampling = false;
      if (sample.type === "memory")
        samples.push({
          atSeconds: (performance.now() - started) / 1000,
          heapUsed: sample.heapUsed,
          rss: sample.rss,
        });
    });
  }, everyMs);
  return { samples, stop: () => clearInterval(sampler) };
}

/** The mixed workload and the throttled key's, at the same time; statuses counted per kind. */
async function drive(
  ready: Ready,
  options: LoadTestOptions,
  tallies: Map<string, Record<number, number>>,
): Promise<[AutocannonResult, AutocannonResult]> {
  const { duration, connections } = options;
  process.stderr.write(
    `loading for ${duration} s with ${connections} + ${THROTTLED_CONNECTIONS} (throttled key) connections…\n`,
  );
  return (await Promise.all([
    autocannon({
      url: ready.url,
      connections,
      duration,
      timeout: 10,
      requests: cannonRequests(ready.main, ready.keys, tallies),
    }),
    autocannon({
      url: ready.url,
      connections: THROTTLED_CONNECTIONS,
      duration,
      overallRate: THROTTLED_SEND_RATE,
      timeout: 10,
      requests: cannonRequests(ready.throttled, ready.keys, tallies),
    }),
  ])) as [AutocannonResult, AutocannonResult];
}

interface LoadRun {
  readonly ready: Ready;
  readonly options: LoadTestOptions;
  readonly tallies: Map<string, Record<number, number>>;
  readonly memory: MemorySample[];
  readonly mixed: AutocannonResult;
  readonly throttled: AutocannonResult;
}

function loadReport({ ready, options, tallies, memory, mixed, throttled }: LoadRun): LoadReport {
  const { engine, duration, connections, companies } = options;
  const kinds: KindTally[] = [...ready.main, ...ready.throttled].map((kind) => ({
    name: kind.name,
    key: kind.key,
    expected: kind.expected,
    statuses: tallies.get(kind.name) ?? {},
  }));
  const checks = [
    unexpectedStatuses(kinds),
    rateLimitedOnlyThrottledKey(kinds, "throttled"),
    throttleHeld(kinds, "throttled", {
      ...THROTTLE,
      durationSeconds: duration,
      sentRate: THROTTLED_SEND_RATE,
    }),
    noTransportErrors(mixed.errors + throttled.errors, mixed.timeouts + throttled.timeouts),
    answeredEveryKind(kinds),
    memoryFlat(memory),
  ];
  return {
    engine,
    dataset: { records: ready.employees, persons: ready.persons, companies },
    durationSeconds: duration,
    connections,
    throughput: {
      requestsPerSecond: mixed.requests.average,
      total: mixed.requests.total + throttled.requests.total,
    },
    latencyMs: {
      p50: mixed.latency.p50,
      p90: mixed.latency.p90,
      p99: mixed.latency.p99,
      max: mixed.latency.max,
    },
    kinds,
    memory,
    checks,
  };
}

async function main({ values }: CommandLine<typeof OPTIONS>): Promise<void> {
  const options = loadTestOptions(values);
  const { child, request } = startServer();
  try {
    const ready = await startService(request, options);
    const tallies = new Map<string, Record<number, number>>();
    const memory = sampleMemory(request, memoryEveryMs(options.duration));
    const [mixed, throttled] = await drive(ready, options, tallies);
    memory.stop();
    const report = loadReport({ ready, options, tallies, memory: memory.samples, mixed, throttled });
    console.log(formatLoadReport(report));
    if (values.out) writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
    if (report.checks.some((check) => !check.ok)) process.exitCode = 1;
  } finally {
    child.send({ type: "stop" } satisfies ParentMessage);
  }
}

cli({ name: "load-test", usage: USAGE, options: OPTIONS }, main);
