/**
 * A load as a sequence of steps, each going as far as its deadline allows and saying where the
 * next goes on (docs/data-format.md, "Keeping the directory current"). `npm run load` runs the
 * steps one after another in one process; an ingest on AWS runs each in its own Lambda invocation
 * (lib/ingest). Same phases, same validation, same lease, same all-or-nothing flip:
 *
 * the lease (a step of its own) → validate (every line, ids once) → guard (a snapshot: count what
 * it would delete, refuse too much; lib/load/shrink-guard.ts) → apply (`changesPerApply` a call)
 * → snapshot (delete the stored ids the file lacks) → commit (the flip, then clean-up) ; abort
 * (undo and release) after any failure. Every phase runs in the load session: a load waiting for the lease
 * has read nothing, so an ingest that waits holds no Lambda instance while another one works.
 */
import { DataFileError } from "../directory/source.js";
import {
  type Change,
  type Deadline,
  type DirectoryWriter,
  LeaseLostError,
  type LoadCheckpoint,
  type LoadSession,
} from "../store/port.js";
import { FILE_START, type LoadMode, type PositionedChange, type SourcePosition } from "./change-lines.js";
import { type LoadIds, recordId } from "./load-ids.js";
import { guardShrink, type ShrinkCount } from "./shrink-guard.js";

type LoadPhase = "validate" | "guard" | "apply" | "snapshot" | "commit" | "abort";

/** Why a load was undone, as JSON: a refusal names the record, the field and the rule. */
export type LoadFailure =
  | {
      readonly kind: "refused";
      readonly record: string;
      readonly field: string | null;
      readonly rule: string;
    }
  | { readonly kind: "failed"; readonly message: string };

/** Where a load stands between steps: small, plain JSON. The ids it carries are kept apart (`LoadIds`). */
export interface LoadProgress {
  readonly mode: LoadMode;
  /** What is loaded, as the lease shows it. */
  readonly label: string;
  readonly phase: LoadPhase;
  /** The next change of the file to validate or apply. */
  readonly position: SourcePosition;
  readonly validated: number;
  readonly applied: number;
  /** Of the changes applied, those that changed what is stored (absent in a checkpoint before it was counted). */
  readonly changed?: number;
  readonly deleted: number;
  /** A snapshot may delete any share of the stored ids (else more than 10% of a kind is refused). */
  readonly allowShrink?: boolean;
  /** A snapshot's guard: what it would delete, counted so far. */
  readonly shrink?: ShrinkCount;
  /** A snapshot's deletes: the kind of stored id being scanned, and from where. */
  readonly scan?: { readonly kind: "employee" | "person"; readonly cursor?: string };
  /** The load session, once the lease is held. */
  readonly session?: LoadCheckpoint;
  readonly failure?: LoadFailure;
}

export interface LoadSummary {
  readonly mode: LoadMode;
  /** Lines (or records) of the file. */
  readonly changes: number;
  /** Of those, the ones that changed what is stored (an upsert of what is stored does not). */
  readonly changed: number;
  /** Stored ids a snapshot deleted because the file lacks them. */
  readonly deletedBySnapshot: number;
  /** Superseded versions left for the next load to remove, and why. */
  readonly cleanupDeferred?: string;
}

/** How a load ended: applied, or undone (nothing changed) with the reason. */
export type LoadOutcome =
  | { readonly status: "applied"; readonly summary: LoadSummary }
  | { readonly status: "undone"; readonly failure: LoadFailure; readonly error?: unknown };

export type StepResult = { readonly progress: LoadProgress } | { readonly outcome: LoadOutcome };

/** Where a load's changes come from: the file read from a position (validated, positioned). */
export type ChangeReader = (from?: SourcePosition) => AsyncIterable<PositionedChange>;

export interface StepContext {
  readonly read: ChangeReader;
  readonly directory: DirectoryWriter;
  /** The file's ids, filled while validating and read by a snapshot's deletes. */
  readonly ids: LoadIds;
  readonly deadline: Deadline;
  /** Changes per `apply`: bounds what is held in memory at once. */
  readonly changesPerApply: number;
  readonly onProgress?: (progress: { phase: "validated" | "applied" | "snapshot"; changes: number }) => void;
  /** Runs between the flip and the clean-up, while the load still holds the lease. */
  readonly onPublished?: (summary: LoadSummary) => Promise<void>;
  /** Stops the load between `apply` calls; what it wrote is undone and the lease released. */
  readonly signal?: AbortSignal;
}

/** The progress of a load not yet started. */
export const firstStep = (
  mode: LoadMode,
  label: string,
  options: { readonly allowShrink?: boolean } = {},
): LoadProgress => ({
  mode,
  label,
  phase: "validate",
  position: FILE_START,
  validated: 0,
  applied: 0,
  deleted: 0,
  ...(options.allowShrink ? { allowShrink: true } : {}),
});

/** The file is refused as a whole: after it, a record would link to a missing person. */
export class DanglingReferenceError extends DataFileError {
  constructor(personId: string, employeeId: string) {
    super(
      `employee ${employeeId}`,
      "personId",
      `names person ${personId}, which would not exist after this load`,
    );
  }
}

function failureOf(error: unknown): LoadFailure {
  return error instanceof DataFileError
    ? { kind: "refused", record: error.record, field: error.field, rule: error.rule }
    : { kind: "failed", message: error instanceof Error ? error.message : String(error) };
}

/** The label of the first change about `id` (an id seen twice): read again, only to word an error. */
async function firstLabelOf(read: ChangeReader, id: string, deadline: Deadline): Promise<string> {
  let seen = 0;
  for await (const { change, label } of read()) {
    if (recordId(change) === id) return label;
    // The refusal matters, not the wording: a step out of time words it without the first label.
    seen += 1;
    if (seen % 1_000 === 0 && deadline()) break;
  }
  return "an earlier change";
}

/**
 * Every change valid and, in a data file, no id twice (a DataFileError otherwise); the ids are
 * kept for a snapshot.
 */
async function validate(progress: LoadProgress, context: StepContext): Promise<LoadProgress> {
  const { read, ids, deadline, signal } = context;
  let { validated } = progress;
  for await (const { change, label, next } of read(progress.position)) {
    signal?.throwIfAborted();
    validated += 1;
    if (progress.mode !== "changes" && !ids.add(change)) {
      const id = recordId(change);
      const kind = "person" in change ? "person" : "employee";
      const first = await firstLabelOf(read, id, deadline);
      throw new DataFileError(`${label} (id ${id})`, "id", `duplicate ${kind} id (first used by ${first})`);
    }
    if (validated % 1_000 === 0 && deadline()) return { ...progress, position: next, validated };
  }
  context.onProgress?.({ phase: "validated", changes: validated });
  const guarded = progress.mode === "snapshot" && !progress.allowShrink;
  return { ...progress, phase: guarded ? "guard" : "apply", position: FILE_START, validated };
}

/** Applies the file from its position, `changesPerApply` changes a call, until the end or the deadline. */
async function applyFile(progress: LoadProgress, session: LoadSession, context: StepContext) {
  let { applied, position } = progress;
  let changed = progress.changed ?? 0;
  let pending: Change[] = [];
  const flush = async () => {
    context.signal?.throwIfAborted();
    changed += await session.apply(pending);
    applied += pending.length;
    context.onProgress?.({ phase: "applied", changes: applied });
    pending = [];
  };
  for await (const { change, next } of context.read(progress.position)) {
    pending.push(change);
    position = next;
    if (pending.length >= context.changesPerApply) {
      await flush();
      if (context.deadline()) return { ...progress, applied, changed, position };
    }
  }
  if (pending.length > 0) await flush();
  const done = { ...progress, applied, changed, position };
  return progress.mode === "snapshot"
    ? { ...done, phase: "snapshot" as const, scan: { kind: "employee" as const } }
    : { ...done, phase: "commit" as const };
}

/**
 * Deletes the page's ids the file lacks: how many, and whether all of them (a page can hold
 * thousands: the deadline is asked after each `apply`, and the page is scanned again next step,
 * where the ids already deleted are no longer stored).
 */
async function deletePage(
  ids: readonly string[],
  kind: "person" | "employee",
  session: LoadSession,
  context: StepContext,
) {
  const absent: Change[] = ids
    .filter((id) => !context.ids.holds(kind, id))
    .map((id) => (kind === "person" ? { op: "delete", person: id } : { op: "delete", employee: id }));
  let count = 0;
  for (let i = 0; i < absent.length; i += context.changesPerApply) {
    context.signal?.throwIfAborted();
    const changes = absent.slice(i, i + context.changesPerApply);
    await session.apply(changes);
    count += changes.length;
    if (count < absent.length && context.deadline()) return { count, whole: false };
  }
  return { count, whole: true };
}

type Scan = NonNullable<LoadProgress["scan"]>;

/** One kind's stored ids from `scan`, page by page: the deletes done, and where to go on if cut short. */
async function deleteOfKind(scan: Scan, deleted: number, session: LoadSession, context: StepContext) {
  let at = scan; // where the page being worked on starts
  for await (const page of session.storedIds(at.kind, at.cursor)) {
    const { count, whole } = await deletePage(page.ids, at.kind, session, context);
    deleted += count;
    if (count > 0) context.onProgress?.({ phase: "snapshot", changes: deleted });
    if (!whole) return { deleted, rest: at };
    if (page.next === undefined) break;
    at = { kind: at.kind, cursor: page.next };
    if (context.deadline()) return { deleted, rest: at };
  }
  return { deleted, rest: undefined };
}

/** Deletes every stored id the file lacks, a page of stored ids at a time: records, then persons. */
async function deleteAbsent(progress: LoadProgress, session: LoadSession, context: StepContext) {
  let scan: Scan = progress.scan ?? { kind: "employee" };
  let { deleted } = progress;
  for (;;) {
    const done = await deleteOfKind(scan, deleted, session, context);
    deleted = done.deleted;
    if (done.rest) return { ...progress, deleted, scan: done.rest };
    if (scan.kind === "person") return { ...progress, deleted, phase: "commit" as const, scan: undefined };
    scan = { kind: "person" };
  }
}

const summaryOf = (progress: LoadProgress, cleanupDeferred?: string): LoadSummary => ({
  mode: progress.mode,
  changes: progress.validated,
  changed: progress.changed ?? 0,
  deletedBySnapshot: progress.deleted,
  ...(cleanupDeferred === undefined ? {} : { cleanupDeferred }),
});

/** The reference rule, then the flip and the clean-up (resumed until it ends). */
async function commit(
  progress: LoadProgress,
  session: LoadSession,
  context: StepContext,
): Promise<StepResult> {
  if (!session.published) {
    context.signal?.throwIfAborted();
    const dangling = await session.danglingReference();
    if (dangling) throw new DanglingReferenceError(dangling.personId, dangling.employeeId);
  }
  const report = await session.commit({
    deadline: context.deadline,
    onPublished: async () => context.onPublished?.(summaryOf(progress)),
  });
  if (report.pending) return { progress: { ...progress, session: session.suspend() } };
  return { outcome: { status: "applied", summary: summaryOf(progress, report.cleanupDeferred) } };
}

/**
 * The phases in the lease, from where `progress` stands. A step always works in the phase it
 * starts in (so each makes progress, however early its deadline); it asks the deadline before
 * going on to the next phase.
 */
async function inSession(
  progress: LoadProgress,
  session: LoadSession,
  context: StepContext,
  reached: { progress: LoadProgress },
): Promise<StepResult> {
  const mayStart = (phase: LoadPhase) =>
    reached.progress.phase === phase && (progress.phase === phase || !context.deadline());
  if (mayStart("validate")) reached.progress = await validate(reached.progress, context);
  if (mayStart("guard")) reached.progress = await guardShrink(reached.progress, session, context);
  if (mayStart("apply")) reached.progress = await applyFile(reached.progress, session, context);
  if (mayStart("snapshot")) reached.progress = await deleteAbsent(reached.progress, session, context);
  if (mayStart("commit")) return commit(reached.progress, session, context);
  return { progress: { ...reached.progress, session: session.suspend() } };
}

/**
 * A failed load that then found its lease lost reports the loss, the reason it can never go on
 * (a loader woken from a pause meets its connections dropped while it slept, and the lease taken
 * over), with what failed first. A refusal stays a refusal: the file is what is wrong.
 */
function leaseLost(failure: LoadFailure, resumeError: unknown): LoadOutcome {
  const lostSince =
    resumeError instanceof LeaseLostError &&
    failure.kind === "failed" &&
    !failure.message.startsWith(LeaseLostError.MESSAGE);
  if (!lostSince) return { status: "undone", failure };
  const error = new LeaseLostError(failure.message);
  return { status: "undone", failure: { kind: "failed", message: error.message }, error };
}

/** Undoes the load (if it holds the lease), until done or the deadline. */
async function abort(
  progress: LoadProgress,
  failure: LoadFailure,
  context: StepContext,
): Promise<StepResult> {
  if (progress.session === undefined) return { outcome: { status: "undone", failure } };
  let session: LoadSession;
  try {
    session = await context.directory.resumeLoad(progress.session);
  } catch (error) {
    // The lease was lost: the load that took it over undoes what this one wrote.
    return { outcome: leaseLost(failure, error) };
  }
  if (session.published) {
    // The flip happened before the failure: the load applied; the next load finishes its clean-up.
    session.suspend();
    return {
      outcome: {
        status: "applied",
        summary: summaryOf(progress, failure.kind === "failed" ? failure.message : failure.rule),
      },
    };
  }
  if (!(await session.abort(context.deadline)))
    return { progress: { ...progress, phase: "abort", failure, session: session.suspend() } };
  return { outcome: { status: "undone", failure } };
}

/**
 * One step of a load from `progress`: returns the progress to go on from, or how the load ended.
 * A `LoadInProgressError` (another load holds the lease) is thrown before anything is read.
 */
export async function loadStep(progress: LoadProgress, context: StepContext): Promise<StepResult> {
  if (progress.phase === "abort")
    return abort(progress, progress.failure ?? { kind: "failed", message: "aborted" }, context);
  if (progress.session === undefined) {
    // Taking the lease is a step of its own, before the file is read: the session is on record
    // before anything is written, and a load that must wait for the lease has done no work.
    const session = await context.directory.beginLoad(progress.label);
    return { progress: { ...progress, session: session.suspend() } };
  }
  const session = await context.directory.resumeLoad(progress.session);
  // How far the step got: a failure after the flip reports the load's counts as they stood.
  const reached = { progress };
  try {
    return await inSession(progress, session, context, reached);
  } catch (error) {
    const failure = failureOf(error);
    // Suspended and resumed, not undone in hand: resuming renews the lease only if this load still
    // owns it. One that lost it must not undo: its successor writes under the same generation.
    const result = await abort({ ...reached.progress, session: session.suspend() }, failure, context);
    // The outcome's own error, when it has one (a lost lease found by the abort), is the one thrown.
    return "outcome" in result && result.outcome.status === "undone"
      ? { outcome: { error, ...result.outcome } }
      : result;
  }
}
