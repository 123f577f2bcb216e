/**
 * Read instrumentation for the benchmark and the cost test: an AWS SDK v3 middleware that asks
 * every read command for its consumed capacity (indexes included) and records, per call, the
 * capacity DynamoDB reports and when the call started and ended. The searches under test are not
 * touched: the middleware sits on the client they are given.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";

/** Commands that read; only these accept `ReturnConsumedCapacity` and are billed in RCU. */
const READ_COMMANDS = new Set(["QueryCommand", "GetItemCommand", "BatchGetItemCommand", "ScanCommand"]);

export interface RecordedCall {
  readonly command: string;
  /** performance.now() when `send` was called and when its result (or error) came back. */
  readonly startMs: number;
  readonly endMs: number;
  /** Read capacity units the engine reported for the call (0 when it reported none). */
  readonly rcu: number;
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

export class CapacityRecorder {
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
 * Adds the recorder to the client's middleware stack. A DynamoDBDocumentClient made from this
 * client shares the stack, so document commands are recorded too. It runs first in the initialize
 * step: the time measured spans marshalling, HTTP, retries and unmarshalling, as the caller sees it.
 */
export function instrumentClient(client: DynamoDBClient, recorder: CapacityRecorder): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? "unknown";
      if (!READ_COMMANDS.has(command)) return next(args);
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = "INDEXES";
      const startMs = performance.now();
      let rcu = 0;
      try {
        const result = await next(args);
        rcu = capacityUnits((result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity);
        return result;
      } finally {
        recorder.record({ command, startMs, endMs: performance.now(), rcu });
      }
    },
    { step: "initialize", priority: "high", name: MIDDLEWARE_NAME, override: true },
  );
}
