/**
 * The report of an ingest whose execution ended without the ingest ending it: failed (its state
 * sent to the dead letters, or a step that crashed past its abort), timed out, or stopped.
 * EventBridge hands the ingest's function Step Functions' status change of such an execution
 * (infra/constructs/ingest.ts); this writes the version's `failed` report, with the status and the
 * cause, unless a report is there already (the ingest's own, which says more, is kept).
 */
import { z } from "zod";
import { callerText } from "../observability/caller-text.js";
import { modeOfKey } from "./inbox.js";
import type { InboxStore } from "./inbox-store.js";
import type { IngestReport } from "./ingest-state.js";
import { storedObject } from "./ingest-step.js";

/** The ends an execution reaches without the ingest's own last step. */
const ENDED = ["FAILED", "TIMED_OUT", "ABORTED"] as const;

const WORDS: Record<(typeof ENDED)[number], string> = {
  FAILED: "failed",
  TIMED_OUT: "timed out",
  ABORTED: "was stopped",
};

const nonEmpty = z.string().min(1);

/** Step Functions' "Execution Status Change" event, as EventBridge delivers it (what is read of it). */
export const executionEndEvent = z.object({
  source: z.literal("aws.states"),
  "detail-type": z.literal("Step Functions Execution Status Change"),
  detail: z.object({
    name: nonEmpty,
    status: z.enum(ENDED),
    startDate: z.number(),
    stopDate: z.number().nullish(),
    /** The execution's input: the object version, as the inbox's rule started it. */
    input: z.string(),
    error: z.string().nullish(),
    cause: z.string().nullish(),
  }),
});

export type ExecutionEndEvent = z.infer<typeof executionEndEvent>;

const executionInput = z.object({
  object: z.object({ bucket: nonEmpty, key: nonEmpty, versionId: nonEmpty }),
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the report says happened: the status in words, with Step Functions' error and cause. */
function reasonOf({ status, error, cause }: ExecutionEndEvent["detail"]): string {
  const detail = [error, cause].filter(Boolean).join(": ");
  return `the ingest's execution ${WORDS[status]}${detail ? ` (${detail})` : ""}`;
}

/**
 * Writes the failed report of the execution's object version, unless one exists: its key, or
 * undefined when a report was there. An event not shaped as the ingest's is an error.
 */
export async function reportExecutionEnd(
  inbox: Pick<InboxStore, "head" | "report" | "writeReport">,
  event: ExecutionEndEvent,
  now: () => Date = () => new Date(),
): Promise<string | undefined> {
  const { detail } = event;
  const parsed = executionInput.safeParse(parseJson(detail.input));
  if (!parsed.success) throw new Error(`execution ${detail.name} has no inbox object version in its input`);
  // Where the ingest put (or would put) its report: the key as stored, decoded if need be.
  const object = (await storedObject(inbox, parsed.data.object))?.object ?? parsed.data.object;
  if (await inbox.report(object)) return undefined;
  const finished = detail.stopDate ? new Date(detail.stopDate) : now();
  const mode = modeOfKey(object.key);
  const report: IngestReport = {
    status: "failed",
    object,
    ...(mode && { mode }),
    error: callerText(reasonOf(detail)),
    startedAt: new Date(detail.startDate).toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - detail.startDate,
    execution: detail.name,
  };
  return inbox.writeReport(report);
}
