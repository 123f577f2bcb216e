/**
 * What the benchmark and the cost tests make of the calls lib/observability/dynamo-capacity.ts
 * reports: every call kept (`CapacityRecorder`), or sums (`CapacityTally`), and a measured write.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  type CallSink,
  instrumentClient,
  READ_COMMANDS,
  type RecordedCall,
  WRITE_COMMANDS,
} from "../observability/dynamo-capacity.js";
import { round } from "./report.js";

/** Totals over recorded calls: what a measured run read and wrote. */
export interface CapacityTotals {
  readonly rcu: number;
  readonly readCalls: number;
  readonly wcu: number;
  readonly writeCalls: number;
  readonly itemsWritten: number;
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

/** One measured write: capacity billed and wall time. */
export interface WriteFigures {
  readonly wcu: number;
  readonly writeCalls: number;
  readonly rcu: number;
  readonly seconds: number;
}

/**
 * Starts measuring what goes through `client` (instrumented here, for good): the capacity and time
 * so far, each time it is asked.
 */
export function writeMeter(client: DynamoDBClient): () => WriteFigures {
  const tally = new CapacityTally();
  instrumentClient(client, tally, "TOTAL");
  const started = performance.now();
  return () => {
    const { wcu, writeCalls, rcu } = tally.totals();
    return {
      wcu: round(wcu, 2),
      writeCalls,
      rcu: round(rcu, 2),
      seconds: round((performance.now() - started) / 1000, 2),
    };
  };
}

/** What `work` writes and reads through `client` (instrumented here, for good), and how long it takes. */
export async function writeFigures(
  client: DynamoDBClient,
  work: () => Promise<unknown>,
): Promise<WriteFigures> {
  const measured = writeMeter(client);
  await work();
  return measured();
}
