/**
 * The DynamoDB work of the request being served: the capacity middleware
 * (./dynamo-capacity.ts) on the shared client, reporting each call to the tally of the
 * request whose code made it. The tally is found through AsyncLocalStorage, so the local server's
 * concurrent requests each count their own calls; calls made outside a request are not counted.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { type CallSink, instrumentClient, type RecordedCall } from "./dynamo-capacity.js";

/** What one request's code asked of DynamoDB. */
export interface DynamoWork {
  /** Read capacity units DynamoDB reported (ReturnConsumedCapacity TOTAL). */
  readCapacity: number;
  calls: number;
  /** Sum of the calls' durations, retries included, as the caller waited for them. */
  latencyMs: number;
}

const current = new AsyncLocalStorage<DynamoWork>();

const requestSink: CallSink = {
  record(call: RecordedCall): void {
    const work = current.getStore();
    if (!work) return;
    work.calls += 1;
    work.readCapacity += call.rcu;
    work.latencyMs += call.endMs - call.startMs;
  },
};

/** Makes the client ask for its reads' consumed capacity and count them per request. */
export function countRequestWork(client: DynamoDBClient): void {
  instrumentClient(client, requestSink, "TOTAL");
}

/** Runs `run`, counting the DynamoDB calls it makes into `work`. */
export function withDynamoWork<T>(work: DynamoWork, run: () => Promise<T>): Promise<T> {
  return current.run(work, run);
}

export const noDynamoWork = (): DynamoWork => ({ readCapacity: 0, calls: 0, latencyMs: 0 });
