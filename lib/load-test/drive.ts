/**
 * One run of load against a ready server: autocannon drives the mixed workload and the throttled
 * key's at once, statuses are counted per kind, the server's memory is sampled meanwhile, and the
 * report holds every check of verdict.ts.
 */
import autocannon, { type AutocannonResult } from "autocannon";
import { say } from "../cli/terminal-text.js";
import type { LoadReport } from "./report.js";
import type { LoadTarget } from "./target.js";
import {
  answeredEveryKind,
  type KindTally,
  type MemorySample,
  memoryFlat,
  memorySkipped,
  noTransportErrors,
  rateLimitedOnlyThrottledKey,
  throttleHeld,
  unexpectedStatuses,
} from "./verdict.js";
import type { RequestKind } from "./workload.js";

export const THROTTLE = { rateLimit: 5, burstLimit: 10 };
const THROTTLED_SEND_RATE = 10;
/** Enough connections that the throttled key can send at its rate even when searches are slow. */
const THROTTLED_CONNECTIONS = 6;
/** Memory samples: every 2 s, or often enough for 15 samples in a short run. */
const memoryEveryMs = (durationSeconds: number) => Math.min(2000, (durationSeconds * 1000) / 15);

function cannonRequests(
  kinds: readonly RequestKind[],
  keys: Readonly<Record<string, string>>,
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

export interface LoadOptions {
  readonly duration: number;
  readonly connections: number;
}

/** Samples the server's memory every `everyMs` (one read at a time) until `stop()`. */
function sampleMemory(
  read: () => Promise<Omit<MemorySample, "atSeconds">>,
  everyMs: number,
): { samples: MemorySample[]; stop: () => void } {
  const samples: MemorySample[] = [];
  const started = performance.now();
  let sampling = false;
  const sampler = setInterval(() => {
    if (sampling) return;
    sampling = true;
    read()
      .then((sample) => samples.push({ atSeconds: (performance.now() - started) / 1000, ...sample }))
      // A sample the server did not give is missing: too few fail the memory check.
      .catch(() => undefined)
      .finally(() => {
        sampling = false;
      });
  }, everyMs);
  return { samples, stop: () => clearInterval(sampler) };
}

/** The mixed workload and the throttled key's, at the same time; statuses counted per kind. */
async function drive(
  target: LoadTarget,
  options: LoadOptions,
  tallies: Map<string, Record<number, number>>,
): Promise<[AutocannonResult, AutocannonResult]> {
  const { duration, connections } = options;
  say(
    `loading for ${duration} s with ${connections} + ${THROTTLED_CONNECTIONS} (throttled key) connections…`,
  );
  return (await Promise.all([
    autocannon({
      url: target.url,
      connections,
      duration,
      timeout: 10,
      requests: cannonRequests(target.main, target.keys, tallies),
    }),
    autocannon({
      url: target.url,
      connections: THROTTLED_CONNECTIONS,
      duration,
      overallRate: THROTTLED_SEND_RATE,
      timeout: 10,
      requests: cannonRequests(target.throttled, target.keys, tallies),
    }),
  ])) as [AutocannonResult, AutocannonResult];
}

interface LoadRun {
  readonly target: LoadTarget;
  readonly options: LoadOptions;
  readonly tallies: Map<string, Record<number, number>>;
  readonly memory: MemorySample[];
  readonly mixed: AutocannonResult;
  readonly throttled: AutocannonResult;
}

function loadReport({ target, options, tallies, memory, mixed, throttled }: LoadRun): LoadReport {
  const { duration, connections } = options;
  const kinds: KindTally[] = [...target.main, ...target.throttled].map((kind) => ({
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
    "skipped" in target.memory ? memorySkipped(target.memory.skipped) : memoryFlat(memory),
  ];
  return {
    server: target.server,
    dataset: target.dataset,
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

export async function runLoad(target: LoadTarget, options: LoadOptions): Promise<LoadReport> {
  const tallies = new Map<string, Record<number, number>>();
  const memory =
    "skipped" in target.memory ? undefined : sampleMemory(target.memory, memoryEveryMs(options.duration));
  const [mixed, throttled] = await drive(target, options, tallies);
  memory?.stop();
  return loadReport({ target, options, tallies, memory: memory?.samples ?? [], mixed, throttled });
}
