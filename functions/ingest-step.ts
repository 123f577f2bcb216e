/**
 * One step of an ingest, called by the ingest's state machine (infra/constructs/ingest.ts) with
 * the ingest's state, which it returns with the status that says what comes next. The work of a
 * step stops well before the function's timeout; the next call goes on from where it stopped.
 * Called by EventBridge with an execution that failed, timed out or was stopped, it writes the
 * version's failed report if the ingest left none (lib/ingest/execution-end.ts).
 */
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import middy from "@middy/core";
import type { Context } from "aws-lambda";
import {
  type ExecutionEndEvent,
  executionEndEvent,
  reportExecutionEnd,
} from "../lib/ingest/execution-end.js";
import { InboxStore, inboxClient } from "../lib/ingest/inbox-store.js";
import { INGEST_LEASE_MS, type IngestState } from "../lib/ingest/ingest-state.js";
import { ingestStep } from "../lib/ingest/ingest-step.js";
import { callerText } from "../lib/observability/caller-text.js";
import { logger } from "../lib/observability/logger.js";
import { dynamoDirectoryWriter } from "../lib/store/dynamo/index.js";
import {
  AWS_SETTLE_MS,
  boundedClientConfig,
  documentClientFor,
  tableNameFromEnv,
} from "../lib/store/dynamo-client.js";
import { INGEST_RETRY_LIMITS } from "../lib/store/retry-limits.js";
import { DIRECTORY_TABLE } from "../lib/store/tables.js";

/**
 * Time left when a step stops starting new work: the last `apply`, the flip, saving the ids, and a
 * DynamoDB call's worst case (retryBudgetMs(INGEST_RETRY_LIMITS), 61 s) within it.
 */
const RESERVE_MS = 120_000;

const inbox = new InboxStore(inboxClient());
// A load outlives its steps: its lease lasts 5 minutes unrenewed, enough for the gap between two.
const directory = dynamoDirectoryWriter(
  documentClientFor(new DynamoDBClient(boundedClientConfig(INGEST_RETRY_LIMITS))),
  tableNameFromEnv(DIRECTORY_TABLE),
  { leaseTtlMs: INGEST_LEASE_MS, renewEveryMs: 30_000, settleMs: AWS_SETTLE_MS },
);

async function step(state: IngestState, context: Context): Promise<IngestState> {
  const next = await ingestStep(state, {
    inbox,
    directory,
    deadline: () => context.getRemainingTimeInMillis() < RESERVE_MS,
  });
  logger.info("ingest step", {
    key: callerText(state.object.key),
    versionId: callerText(state.object.versionId),
    status: next.status,
    steps: next.steps,
    ...(next.report ? { report: callerText(next.report) } : {}),
  });
  return next;
}

async function ended(event: ExecutionEndEvent): Promise<undefined> {
  const report = await reportExecutionEnd(inbox, event);
  logger.info("ingest execution ended", {
    execution: event.detail.name,
    status: event.detail.status,
    ...(report ? { report: callerText(report) } : { kept: "the report the ingest wrote" }),
  });
  return undefined;
}

/** The state machine's call (a state), or EventBridge's (an execution's end). */
function handle(event: IngestState | ExecutionEndEvent, context: Context): Promise<IngestState | undefined> {
  return "detail-type" in event ? ended(executionEndEvent.parse(event)) : step(event, context);
}

export const handler = middy(handle).use(injectLambdaContext(logger, { resetKeys: true, logEvent: false }));
