/**
 * DynamoDB capacity instrumentation: an AWS SDK v3 middleware that asks every read and write
 * command for its consumed capacity and reports, per call, the capacity DynamoDB returns, the
 * items a write sends, and when the call started and ended. The route functions count each
 * request's work with it (lib/observability/request-capacity.ts); the benchmark and the cost tests
 * record every call. The code under test is not touched: the middleware sits on the client.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";

/** Commands that read; only these are billed in RCU. */
export const READ_COMMANDS = new Set([
  "QueryCommand",
  "GetItemCommand",
  "BatchGetItemCommand",
  "ScanCommand",
]);
/** Commands that write; billed in WCU (1 per started KB of each item written, deletes included). */
export const WRITE_COMMANDS = new Set([
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

/** Where the middleware reports each call. */
export interface CallSink {
  record(call: RecordedCall): void;
}

const MIDDLEWARE_NAME = "dynamoCapacity";

/**
 * Adds the recorder to the client's middleware stack (the bench's, and the route functions'
 * per-request count, which asks for the TOTAL only). A DynamoDBDocumentClient made from this
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
