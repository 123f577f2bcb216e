/**
 * `npm run load -- FILE --stage S` (or `--inbox BUCKET`): the file goes to the stage's inbox, where
 * the ingest applies it (docs/operations.md, "Loading data on AWS"), and the command waits for the
 * ingest's report. A load from a laptop and a load dropped in the bucket are then the same load.
 */
import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { InboxObject } from "../ingest/inbox.js";
import type { InboxStore } from "../ingest/inbox-store.js";
import type { IngestReport } from "../ingest/ingest-state.js";
import type { LoadMode } from "../load/change-lines.js";
import type { LocalLoadFile } from "../load/local-file.js";
import { ALLOW_SHRINK_METADATA } from "../load/shrink-guard.js";
import { executionLine, hasEnded, type IngestExecution } from "./ingest-execution.js";

/** `<mode>/<UTC time>-<file name>`: a new key per upload, of characters no event encodes. */
export function inboxKey(file: string, mode: LoadMode, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const name = basename(file)
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .slice(0, 200);
  return `${mode}/${stamp}-${name}`;
}

export async function upload(
  s3: S3Client,
  file: LocalLoadFile,
  bucket: string,
  key: string,
  options: { readonly allowShrink?: boolean } = {},
): Promise<InboxObject> {
  // Multipart above 5 MB, so a file of any size streams from disk (the descriptor opened once).
  const body = createReadStream("", { fd: file.handle, start: 0, autoClose: false });
  // A snapshot allowed to shrink the directory says so in the object's metadata, as the ingest reads it.
  const metadata = options.allowShrink ? { Metadata: { [ALLOW_SHRINK_METADATA]: "true" } } : {};
  const params = { Bucket: bucket, Key: key, Body: body, ...metadata };
  const done = await new Upload({ client: s3, params }).done();
  // Without versioning (s3rver), S3 calls an object's one version "null".
  return { bucket, key, versionId: done.VersionId ?? "null" };
}

/**
 * How long the command waits for a report at most: an execution stops after 24 hours (its
 * timeout), and every end it reaches leaves a report; 15 minutes more covers its last step.
 */
export const MAX_REPORT_WAIT_MS = (24 * 60 + 15) * 60_000;
/** How long after the upload an execution must have started (EventBridge starts one within seconds). */
const MAX_START_WAIT_MS = 15 * 60_000;

/** No report came within the wait: the execution ended without one, or never started. */
export class NoReportError extends Error {}

const RUNBOOK = 'see docs/runbook.md, "An ingest failed"';

export interface WaitOptions {
  readonly pollMs?: number;
  /** Default MAX_REPORT_WAIT_MS. */
  readonly timeoutMs?: number;
  /** The upload's execution, when the state machine is known (`--stage`): its status is read too. */
  readonly execution?: Pick<IngestExecution, "status">;
  /** Default MAX_START_WAIT_MS. */
  readonly startWithinMs?: number;
  /** How often the execution's status is read (default every 10 s). */
  readonly executionEveryMs?: number;
  readonly onWaiting?: (seconds: number) => void;
  readonly signal?: AbortSignal;
}

/**
 * The report of an execution that ended (read again: the ingest writes it before its execution
 * ends), or NoReportError with the execution's status and cause when there is none, or when no
 * execution started in time; undefined while it runs.
 */
async function endOf(
  execution: Pick<IngestExecution, "status">,
  inbox: Pick<InboxStore, "report">,
  object: InboxObject,
  waited: number,
  startWithinMs = MAX_START_WAIT_MS,
): Promise<IngestReport | undefined> {
  const status = await execution.status();
  if (!status) {
    if (waited < startWithinMs) return undefined;
    throw new NoReportError(
      `no ingest execution started for it within ${Math.round(waited / 60_000)} minutes (the ` +
        `inbox's event may be in the dead-letter queue); ${RUNBOOK}`,
    );
  }
  if (!hasEnded(status)) return undefined;
  const report = await inbox.report(object);
  if (report) return report;
  throw new NoReportError(`${executionLine(status)}, and no report is there; ${RUNBOOK}`);
}

/**
 * Polls for the version's report until the ingest writes it, for a bounded time. With the
 * execution, it stops as soon as that ended without a report (NoReportError with its status and
 * cause), or when none started for the object in time.
 */
export async function waitForReport(
  inbox: Pick<InboxStore, "report">,
  object: InboxObject,
  options: WaitOptions = {},
): Promise<IngestReport> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? MAX_REPORT_WAIT_MS;
  let asked = Number.NEGATIVE_INFINITY;
  for (;;) {
    options.signal?.throwIfAborted();
    const report = await inbox.report(object);
    if (report) return report;
    const waited = Date.now() - started;
    if (options.execution && Date.now() - asked >= (options.executionEveryMs ?? 10_000)) {
      asked = Date.now();
      const ended = await endOf(options.execution, inbox, object, waited, options.startWithinMs);
      if (ended) return ended;
    }
    if (waited >= timeoutMs)
      throw new NoReportError(
        `no report ${Math.round(waited / 60_000)} minutes after the upload: the ingest's execution ` +
          "ended without one (its end's report failed to be written: see the dead-letter queue) or " +
          `never started; ${RUNBOOK}`,
      );
    options.onWaiting?.(Math.round((Date.now() - started) / 1000));
    await sleep(options.pollMs ?? 2_000);
  }
}

/** A load's applied line, wherever it ran: what, the mode, the counts, the time. */
export function appliedLine(
  what: string,
  summary: Pick<IngestReport, "mode" | "changes" | "changed" | "deletedBySnapshot">,
  ms: number,
): string {
  // A report written before changes were counted has no `changed`.
  const changed = summary.changed === undefined ? "" : `, ${summary.changed} changed`;
  const deleted =
    summary.mode === "snapshot"
      ? `, ${summary.deletedBySnapshot ?? 0} stored ids absent from it deleted`
      : "";
  return `applied ${what} (${summary.mode}): ${summary.changes ?? 0} in the file${changed}${deleted}, in ${(ms / 1000).toFixed(1)} s`;
}

/** The note printed when superseded versions wait for the next load. */
export const cleanupNote = (reason: string) =>
  `note: superseded versions stay until the next load removes them (${reason})`;

/** The report in one line, as the command prints it. */
export function reportLine(report: IngestReport): string {
  const where = `s3://${report.object.bucket}/${report.object.key}`;
  if (report.status === "applied")
    return `${appliedLine(where, report, report.durationMs)} (${report.steps} ingest steps)`;
  if (report.refusal) {
    const { record, field, rule } = report.refusal;
    return `refused, nothing changed: ${record}: ${field === null ? "" : `${field}: `}${rule}`;
  }
  return `failed, nothing changed: ${report.error ?? "see the ingest's execution"}`;
}
