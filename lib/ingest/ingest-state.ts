/**
 * What an ingest's steps pass each other through the state machine (infra/constructs/ingest.ts),
 * and the report it leaves next to the file. The state stays small: the load's progress and the
 * ids it carries are kept in the inbox under `work/` (lib/ingest/inbox-store.ts).
 */
import type { LoadMode } from "../load/change-lines.js";
import type { InboxObject } from "./inbox.js";

/**
 * How long the ingest's lease lasts unrenewed: far more than the gap between two steps, their
 * retries on a throttled or failed invoke included (infra/constructs/ingest.ts).
 */
export const INGEST_LEASE_MS = 5 * 60_000;

/**
 * `running`: call the step again; `waiting`: another load holds the lease, call again in 30 s;
 * `applied`, `refused`, `duplicate`: done; `failed`: done, and the state goes to the dead letters.
 */
type IngestStatus = "running" | "waiting" | "applied" | "refused" | "failed" | "duplicate";

export interface IngestState {
  readonly object: InboxObject;
  readonly status?: IngestStatus;
  /**
   * This ingest's own id (the first step draws it): what it carries between steps is kept under
   * `work/<execution>/`, apart from a second delivery of the same version running beside it.
   */
  readonly execution?: string;
  /** When the first step ran (ISO 8601). */
  readonly startedAt?: string;
  /** Steps run so far, this one included. */
  readonly steps?: number;
  /** When the step first found the lease held, while it still waits for it (ISO 8601). */
  readonly waitingSince?: string;
  /** Steps that crashed: the state machine's catch adds `crash`; after 3 the ingest gives up. */
  readonly crashes?: number;
  readonly crash?: { readonly Error?: string; readonly Cause?: string };
  /** Where the report is, once written. */
  readonly report?: string;
}

/** The report object of one file version: `reports/<key>/<versionId>.json`. */
export interface IngestReport {
  readonly status: "applied" | "refused" | "failed";
  readonly object: InboxObject;
  readonly mode?: LoadMode;
  /** Lines (or records) of the file, when it was read to the end. */
  readonly changes?: number;
  /** Of those, the ones that changed what is stored. */
  readonly changed?: number;
  readonly deletedBySnapshot?: number;
  /** Superseded versions the next load removes, and why (the load applied all the same). */
  readonly cleanupDeferred?: string;
  /** What was refused: the record (line), the field and the rule broken. Nothing changed. */
  readonly refusal?: { readonly record: string; readonly field: string | null; readonly rule: string };
  /** Why it failed; nothing changed. */
  readonly error?: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  /** Absent from the report of an execution that ended without the ingest's last step. */
  readonly steps?: number;
  /**
   * The ingest that wrote it: its `work/<execution>/` and its state's `execution`; for an
   * execution that ended without the ingest's last step, the Step Functions execution's name.
   */
  readonly execution: string;
}
