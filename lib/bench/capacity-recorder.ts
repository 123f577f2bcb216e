/**
 * Capacity instrumentation for the benchmark and the cost test: an AWS SDK v3 middleware that asks
 * every read and write command for its consumed capacity (indexes included) and records, per call,
 * the capacity DynamoDB reports, the items a write sends, and when the call started and ended. The
 * code under test is not touched: the middleware sits on the client it is given.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { round } from "./report.js";

/** Commands that read; only these are billed in RCU. */
const READ_COMMANDS = new Set(["QueryCommand", "GetItemCommand", "BatchGetItemCommand", "ScanCommand"]);
/** Commands that write; billed in WCU (1 per started KB of each item written, deletes included). */
const WRITE_COMMANDS = new Set([
  "BatchWriteItemCommand",
  "PutItemCommand",
  "UpdateItemCommand",
  "DeleteItemCommand",
]);

export interface RecordedCall {
  readonly command: string;
  /** performance.now() when `send` was called and when its result (or error) came back. */
  readonly startMs: number;
  readonly endMs: number;
  /** Read capacity units the engine reported for a read (0 for a write, or when it reported none). */
  readonly rcu: number;
  /** Write capacity units the engine reported for a write (0 for a read). */
  readonly wcu: number;
  /** Items a write sent (puts, updates and deletes; a batch's every request); 0 for a read. */
  readonly items: number;
}

interface CapacityLike {
  CapacityUnits?: number | undefined;
}

/** Sum of CapacityUnits over a response's ConsumedCapacity: one object (Query) or an array (batch). */
export function capacityUnits(consumed: unknown): number {
  const entries: unknown[] = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
  let total = 0;
  for (const entry of entries) {
    const units = (entry as CapacityLike | null)?.CapacityUnits;
    if (typeof units === "number") total += units;
  }
  return total;
}

/** Items a write command's input sends: every request of a BatchWriteItem, else the one item. */
export function itemsWritten(command: string, input: unknown): number {
  if (!WRITE_COMMANDS.has(command)) return 0;
  if (command !== "BatchWriteItemCommand") return 1;
  const requests = (input as { RequestItems?: Record<string, unknown> } | null)?.RequestItems ?? {};
  let total = 0;
  for (const perTable of Object.values(requests)) if (Array.isArray(perTable)) total += perTable.length;
  return total;
}

/** Totals over recorded calls: what a measured run read and wrote. */
export interface CapacityTotals {
  readonly rcu: number;
  readonly readCalls: number;
  readonly wcu: number;
  readonly writeCalls: number;
  readonly itemsWritten: number;
}

/** Where the middleware reports each call. */
export interface CallSink {
  record(call: RecordedCall): void;
}

/**
 * Sums calls as they come, holding nothing per call: a load of a million records makes hundreds
 * of thousands of calls, and its memory is being measured.
 */
export class CapacityTally implements CallSink {
  private sums = { rcu: 0, readCalls: 0, wcu: 0, writeCalls: 0, itemsWritten: 0 };

  record(call: RecordedCall): void {
    if (WRITE_COMMANDS.has(call.command)) {
      this.sums.writeCalls += 1;
      this.sums.wcu += call.wcu;
      this.sums.itemsWritten += call.items;
    } else if (READ_COMMANDS.has(call.command)) {
      this.sums.readCalls += 1;
      this.sums.rcu += call.rcu;
    }
  }

  totals(): CapacityTotals {
    return { ...this.sums };
  }
}

export function capacityTotals(calls: readonly RecordedCall[]): CapacityTotals {
  const tally = new CapacityTally();
  for (const call of calls) tally.record(call);
  return tally.totals();
}

export class CapacityRecorder implements CallSink {
  private calls: RecordedCall[] = [];

  record(call: RecordedCall): void {
    this.calls.push(call);
  }

  /** The calls recorded since the last take(), and forgets them: one take() per measured run. */
  take(): RecordedCall[] {
    const taken = this.calls;
    this.calls = [];
    return taken;
  }
}

const MIDDLEWARE_NAME = "benchCapacityRecorder";

/**
 * Adds the recorder to the client's middleware stack (the bench's, and lib/store/request-capacity.ts's
 * per-request count in the route functions, which asks for the TOTAL only). A DynamoDBDocumentClient made from this
 * client shares the stack, so document commands are recorded too. It runs first in the initialize
 * step: the time measured spans marshalling, HTTP, retries and unmarshalling, as the caller sees it.
 */
export function instrumentClient(
  client: DynamoDBClient,
  recorder: CallSink,
  detail: "INDEXES" | "TOTAL" = "INDEXES",
): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? "unknown";
      const write = WRITE_COMMANDS.has(command);
      if (!write && !READ_COMMANDS.has(command)) return next(args);
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = detail;
      const items = itemsWritten(command, input);
      const startMs = performance.now();
      let units = 0;
      try {
        const result = await next(args);
        units = capacityUnits((result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity);
        return result;
      } finally {
        recorder.record({
          command,
          startMs,
          endMs: performance.now(),
          rcu: write ? 0 : units,
          wcu: write ? units : 0,
          items,
        });
      }
    },
    { step: "initialize", priority: "high", name: MIDDLEWARE_NAME, override: true },
  );
}

/** One measured write: capacity billed and wall time. */
export interface WriteFigures {
  readonly wcu: number;
  readonly writeCalls: number;
  readonly rcu: number;
  readonly seconds: number;
}

/** What `work` writes and reads through `client` (instrumented here, for good), and how long it takes. */
export async function writeFigures(
  client: DynamoDBClient,
  work: () => Promise<unknown>,
): Promise<WriteFigures> {
  const tally = new CapacityTally();
  instrumentClient(client, tally, "TOTAL");
  const started = performance.now();
  await work();
  const { wcu, writeCalls, rcu } = tally.totals();
  return {
    wcu: round(wcu, 2),
    writeCalls,
    rcu: round(rcu, 2),
    seconds: round((performance.now() - started) / 1000, 2),
  };
}
