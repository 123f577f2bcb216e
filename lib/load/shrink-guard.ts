/**
 * A snapshot's shrink guard (docs/data-format.md, "Keeping the directory current"): before a
 * snapshot writes anything, the stored ids it would delete are counted, kind by kind, and a
 * snapshot that would delete more than 10% of the stored employee records or persons is refused
 * (a truncated export must not wipe the directory) unless the load allows it (`--allow-shrink`,
 * or an inbox object's metadata). The count is a scan of the stored ids, page by page, resumable
 * from a cursor like the snapshot's deletes.
 */
import { DataFileError } from "../directory/source.js";
import type { Deadline, LoadSession } from "../store/port.js";
import type { LoadIds } from "./load-ids.js";

/** The inbox object metadata (`x-amz-meta-allow-shrink: true`) that allows a snapshot to shrink. */
export const ALLOW_SHRINK_METADATA = "allow-shrink";

type Kind = "employee" | "person";

/** What the guard uses of a load step's context (load-steps.ts's StepContext). */
interface GuardContext {
  readonly ids: LoadIds;
  readonly deadline: Deadline;
  readonly signal?: AbortSignal;
}

/** What the guard keeps in a load's progress (load-steps.ts's LoadProgress). */
interface Guarded {
  readonly shrink?: ShrinkCount;
}

/** Where the count stands: the kind being scanned, from where, and its counts so far. */
export interface ShrinkCount {
  readonly kind: Kind;
  readonly cursor?: string;
  readonly stored: number;
  readonly absent: number;
}

const NOUN: Record<Kind, string> = { employee: "employee records", person: "persons" };
const count = (n: number) => n.toLocaleString("en-US");

/** The snapshot is refused: it would delete more than 10% of the stored ids of a kind. */
export class ShrinkRefusedError extends DataFileError {
  constructor({ kind, stored, absent }: ShrinkCount) {
    super(
      "snapshot",
      null,
      `would delete ${count(absent)} of the ${count(stored)} stored ${NOUN[kind]}, more than 10%; ` +
        `to allow it, load with --allow-shrink (an inbox object: metadata ${ALLOW_SHRINK_METADATA}=true)`,
    );
  }
}

/** One kind's stored ids counted from `at`: the count, and whether the kind is done. */
async function countKind(at: ShrinkCount, session: LoadSession, context: GuardContext) {
  let counted = at;
  for await (const page of session.storedIds(at.kind, at.cursor)) {
    context.signal?.throwIfAborted();
    const absent = page.ids.filter((id) => !context.ids.holds(at.kind, id)).length;
    counted = {
      kind: at.kind,
      ...(page.next === undefined ? {} : { cursor: page.next }),
      stored: counted.stored + page.ids.length,
      absent: counted.absent + absent,
    };
    if (page.next === undefined) break;
    if (context.deadline()) return { counted, done: false };
  }
  return { counted, done: true };
}

/** Counts what the snapshot would delete, until done (phase `apply`) or the deadline; throws if too much. */
export async function guardShrink<P extends Guarded>(
  progress: P,
  session: LoadSession,
  context: GuardContext,
): Promise<P | (Omit<P, "shrink"> & { readonly phase: "apply" })> {
  let at: ShrinkCount = progress.shrink ?? { kind: "employee", stored: 0, absent: 0 };
  for (;;) {
    const { counted, done } = await countKind(at, session, context);
    if (!done) return { ...progress, shrink: counted };
    if (counted.absent * 10 > counted.stored) throw new ShrinkRefusedError(counted);
    if (counted.kind === "person") {
      const { shrink: _counted, ...rest } = progress;
      return { ...rest, phase: "apply" };
    }
    at = { kind: "person", stored: 0, absent: 0 };
  }
}
