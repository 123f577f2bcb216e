/**
 * One step of an ingest: applies an inbox file with the load's own steps (lib/load/load-steps.ts),
 * as far as the step's deadline allows, and says what the state machine does next (`status`).
 * The load's progress and ids wait in the inbox between steps; the report is written while the
 * load still holds the lease, so a second delivery of the same version, which must take the lease
 * first, always finds it and applies nothing.
 */
import { randomUUID } from "node:crypto";
import { readChanges } from "../load/change-lines.js";
import { LoadIds } from "../load/load-ids.js";
import {
  firstStep,
  type LoadFailure,
  type LoadOutcome,
  type LoadProgress,
  loadStep,
  type StepContext,
} from "../load/load-steps.js";
import { ALLOW_SHRINK_METADATA } from "../load/shrink-guard.js";
import { callerText } from "../observability/caller-text.js";
import { type Deadline, type DirectoryWriter, LoadInProgressError } from "../store/port.js";
import { type InboxObject, MAX_OBJECT_BYTES, modeOfKey, overMaximum, reportKey } from "./inbox.js";
import type { InboxStore } from "./inbox-store.js";
import type { IngestReport, IngestState } from "./ingest-state.js";

export interface IngestContext {
  readonly inbox: InboxStore;
  readonly directory: DirectoryWriter;
  readonly deadline: Deadline;
  readonly now?: () => Date;
  /** How long an ingest waits for another load's lease before it gives up (default 6 hours). */
  readonly maxWaitMs?: number;
  /** Changes per `apply` (default 1,000). */
  readonly changesPerApply?: number;
  /** The largest object applied (default MAX_OBJECT_BYTES); a larger one is refused. */
  readonly maxObjectBytes?: number;
}

/** Crashed steps (timeouts, out of memory) an ingest survives: each is followed by an abort step. */
const MAX_CRASHES = 3;
const MAX_WAIT_MS = 6 * 60 * 60 * 1000;

type ReportContent = Omit<
  IngestReport,
  "object" | "startedAt" | "finishedAt" | "durationMs" | "steps" | "execution"
>;

/**
 * The report's texts that quote the file or the key (a field name, a line's label, an error naming
 * the key) redacted and cut short, as every caller text is before it is written anywhere.
 */
function bounded(content: ReportContent): ReportContent {
  const { refusal, error, cleanupDeferred } = content;
  return {
    ...content,
    ...(refusal && {
      refusal: {
        record: callerText(refusal.record),
        field: refusal.field === null ? null : callerText(refusal.field),
        rule: callerText(refusal.rule),
      },
    }),
    ...(error !== undefined && { error: callerText(error) }),
    ...(cleanupDeferred !== undefined && { cleanupDeferred: callerText(cleanupDeferred) }),
  };
}

/** A step's view of its ingest: the state, the clock, and how to end it with a report. */
class Run {
  readonly state: IngestState;
  readonly context: IngestContext;
  readonly now: () => Date;
  readonly startedAt: string;
  readonly steps: number;
  readonly execution: string;
  readonly crashes: number;

  constructor(state: IngestState, context: IngestContext) {
    this.state = state;
    this.context = context;
    this.now = context.now ?? (() => new Date());
    this.startedAt = state.startedAt ?? this.now().toISOString();
    this.steps = (state.steps ?? 0) + 1;
    this.execution = state.execution ?? randomUUID();
    this.crashes = (state.crashes ?? 0) + (state.crash ? 1 : 0);
  }

  get bucket(): string {
    return this.state.object.bucket;
  }

  next(status: IngestState["status"], extra: Partial<IngestState> = {}): IngestState {
    const { crash: _crash, waitingSince: _waiting, ...rest } = this.state;
    const { startedAt, steps, execution, crashes } = this;
    return { ...rest, execution, startedAt, steps, crashes, status, ...extra };
  }

  /**
   * Writes the version's report. It is written at the flip and never replaced once it says
   * `applied` (the load did apply: a failure after the flip, in the clean-up, changes nothing).
   * Another delivery's applied report makes this one, if it did not apply, a duplicate (a crash
   * in a step of its own, or its lease lost to that delivery); one that applied too says so.
   */
  async report(report: ReportContent): Promise<{ key: string; status: IngestState["status"] }> {
    const { inbox } = this.context;
    const existing = await inbox.report(this.state.object);
    if (existing?.status === "applied")
      return {
        key: reportKey(this.state.object),
        status:
          report.status === "applied" || existing.execution === this.execution ? "applied" : "duplicate",
      };
    const finished = this.now();
    const key = await inbox.writeReport({
      object: this.state.object,
      ...bounded(report),
      startedAt: this.startedAt,
      finishedAt: finished.toISOString(),
      durationMs: finished.getTime() - Date.parse(this.startedAt),
      steps: this.steps,
      execution: this.execution,
    });
    return { key, status: report.status };
  }

  /** The ingest ends: its report, and what it carried between steps dropped. */
  async end(content: ReportContent) {
    const { key, status } = await this.report(content);
    await this.context.inbox.dropWork(this.bucket, this.execution);
    return this.next(status, { report: key });
  }
}

function reportOfOutcome(progress: LoadProgress, outcome: LoadOutcome) {
  if (outcome.status === "applied") return { status: "applied" as const, ...outcome.summary };
  const { failure } = outcome;
  return failure.kind === "refused"
    ? {
        status: "refused" as const,
        mode: progress.mode,
        refusal: { record: failure.record, field: failure.field, rule: failure.rule },
      }
    : { status: "failed" as const, mode: progress.mode, error: failure.message };
}

/** The progress to go on from: the first step's, the one saved, or an abort after a crash. */
async function progressOf(run: Run, allowShrink: boolean): Promise<LoadProgress | string> {
  const { state, context } = run;
  if (state.status === undefined && !state.crash) {
    const mode = modeOfKey(state.object.key);
    if (!mode) return "the object is not under merge/, snapshot/ or changes/";
    const { key, versionId } = state.object;
    return firstStep(mode, `${mode} ${key} (version ${versionId})`, { allowShrink });
  }
  const saved = await context.inbox.progress(run.bucket, run.execution);
  const crashed =
    state.crash &&
    `a step crashed (${state.crash.Error ?? "error"}: ${(state.crash.Cause ?? "").slice(0, 300)})`;
  if (!saved) return crashed || `its progress is missing from work/${run.execution}/`;
  if (!crashed) return saved;
  // An undo that crashed goes on undoing, for the reason it had (a refusal stays a refusal).
  const failure: LoadFailure =
    saved.phase === "abort" && saved.failure ? saved.failure : { kind: "failed", message: crashed };
  return { ...saved, phase: "abort", failure };
}

/**
 * The ids a step needs, from the inbox: validating adds to them, and a snapshot's deletes read
 * them (in a step that may reach them: one that applies may go on to deleting). A step that only
 * takes the lease, or waits for it every 30 s, reads none (300 MB at 10 million records).
 */
async function idsFor(run: Run, progress: LoadProgress): Promise<LoadIds> {
  const { phase, mode, session } = progress;
  const deleting =
    mode === "snapshot" &&
    session !== undefined &&
    (phase === "guard" || phase === "apply" || phase === "snapshot");
  const needed = phase === "validate" || deleting;
  if (!needed || progress.validated === 0) return new LoadIds();
  const bytes = await run.context.inbox.ids(run.bucket, run.execution);
  // Never an empty set instead: a snapshot would delete every stored record, its own included.
  if (!bytes) throw new Error(`the load's ids are missing from work/${run.execution}/`);
  return LoadIds.fromBytes(bytes);
}

/** Another load holds the lease: wait (the state machine calls again in 30 s), up to a limit. */
async function waitForLease(run: Run, error: LoadInProgressError) {
  // Another delivery of this version may be the load holding the lease: once it reports, done.
  if (await run.context.inbox.report(run.state.object)) {
    await run.context.inbox.dropWork(run.bucket, run.execution);
    return run.next("duplicate");
  }
  const since = run.state.waitingSince ?? run.now().toISOString();
  if (run.now().getTime() - Date.parse(since) > (run.context.maxWaitMs ?? MAX_WAIT_MS))
    return run.end({ status: "failed", error: `gave up waiting for the lease: ${error.message}` });
  return run.next("waiting", { waitingSince: since });
}

/** After the lease is taken: a report means another delivery of this version applied it already. */
async function appliedBefore(run: Run, progress: LoadProgress, context: StepContext): Promise<boolean> {
  if (!(await run.context.inbox.report(run.state.object))) return false;
  await loadStep({ ...progress, phase: "abort", failure: { kind: "failed", message: "duplicate" } }, context);
  await run.context.inbox.dropWork(run.bucket, run.execution);
  return true;
}

function stepContext(run: Run, progress: LoadProgress, ids: LoadIds): StepContext {
  const { context, state } = run;
  return {
    read: (from) => readChanges(context.inbox.bytes(state.object), progress.mode, from),
    directory: context.directory,
    ids,
    deadline: context.deadline,
    changesPerApply: context.changesPerApply ?? 1_000,
    // The report is written before the lease is released: a second delivery finds it.
    onPublished: async (summary) => {
      await run.report({ status: "applied", ...summary });
    },
  };
}

interface Stored {
  readonly object: InboxObject;
  readonly size: number;
  /** A snapshot allowed to delete any share of the directory (the object's metadata). */
  readonly allowShrink: boolean;
}

/**
 * The object as stored, and its size: S3's notifications URL-encode keys (a space as "+"); whether
 * EventBridge's do is not promised, so a key not found as given is looked up decoded. Undefined:
 * it is gone.
 */
export async function storedObject(
  inbox: Pick<InboxStore, "head">,
  object: InboxObject,
): Promise<Stored | undefined> {
  const stored = (found: InboxObject, head: Awaited<ReturnType<InboxStore["head"]>>) =>
    head && { object: found, size: head.size, allowShrink: head.metadata[ALLOW_SHRINK_METADATA] === "true" };
  const head = await inbox.head(object);
  if (head) return stored(object, head);
  let decoded: string;
  try {
    decoded = decodeURIComponent(object.key.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
  const other = { ...object, key: decoded };
  return decoded === object.key ? undefined : stored(other, await inbox.head(other));
}

/** One step of the ingest of `state.object`. */
export async function ingestStep(given: IngestState, context: IngestContext): Promise<IngestState> {
  const first = given.status === undefined && !given.crash;
  const stored = first ? await storedObject(context.inbox, given.object) : undefined;
  const object = first ? stored?.object : given.object;
  const state = object ? { ...given, object } : given;
  const run = new Run(state, context);
  if (!object) return run.end({ status: "failed", error: "the object version is gone from the inbox" });
  if (run.crashes > MAX_CRASHES)
    return run.end({ status: "failed", error: `${run.crashes} steps crashed; gave up` });
  if (first && (await context.inbox.report(state.object))) return run.next("duplicate");
  const max = context.maxObjectBytes ?? MAX_OBJECT_BYTES;
  if (stored && stored.size > max) {
    const mode = modeOfKey(object.key);
    return run.end({
      status: "refused",
      ...(mode && { mode }),
      refusal: { record: "object", field: null, rule: overMaximum(stored.size, max) },
    });
  }
  return applyStep(run, stored?.allowShrink ?? false);
}

/** The load's next step, from the progress the last one saved; the status that follows from it. */
async function applyStep(run: Run, allowShrink: boolean): Promise<IngestState> {
  const { context } = run;
  const progress = await progressOf(run, allowShrink);
  if (typeof progress === "string") return run.end({ status: "failed", error: progress });
  const ids = await idsFor(run, progress);
  const steps = stepContext(run, progress, ids);
  let result: Awaited<ReturnType<typeof loadStep>>;
  try {
    result = await loadStep(progress, steps);
  } catch (error) {
    if (!(error instanceof LoadInProgressError)) throw error;
    // The first step waits before anything is saved: the next goes on from its progress.
    if (run.state.status === undefined) await context.inbox.saveProgress(run.bucket, run.execution, progress);
    return waitForLease(run, error);
  }
  if ("outcome" in result) return run.end(reportOfOutcome(progress, result.outcome));
  const tookLease = progress.session === undefined && result.progress.session !== undefined;
  if (tookLease && (await appliedBefore(run, result.progress, steps))) return run.next("duplicate");
  if (progress.phase === "validate") await context.inbox.saveIds(run.bucket, run.execution, ids.toBytes());
  await context.inbox.saveProgress(run.bucket, run.execution, result.progress);
  return run.next("running");
}
