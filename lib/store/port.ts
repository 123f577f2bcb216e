/**
 * The directory as the use cases see it: questions in the domain's terms, answered with domain
 * records and totals. How the answers are stored, encoded and read is each implementation's own
 * business: `lib/store/dynamo` (DynamoDB) and `lib/store/memory` (the same rules in memory, for
 * unit tests and as the model the DynamoDB store is checked against).
 */
import type { SourceEmployee, SourcePerson } from "../directory/source.js";
import type { CreatedRange, EmploymentFilter } from "../search/matching.js";

export type { CreatedRange };

/** "Employee records of company C, created in R, matching F, page P." */
export interface EmployeesQuery {
  /** `filter.companies` holds exactly the one company searched. */
  readonly filter: EmploymentFilter;
  readonly personId?: string | undefined;
  readonly created: CreatedRange;
  readonly offset: number;
  readonly limit: number;
}

/** "Persons with one employment in scope matching F, created in R, page P, with what K may read." */
export interface PersonsQuery {
  /** `filter.companies`: the companies the matching employment must belong to. */
  readonly filter: EmploymentFilter;
  /** Companies whose employments are returned with each person (never fewer than the scope). */
  readonly readable: ReadonlySet<string>;
  readonly personId?: string | undefined;
  /** On the person's createdAt. */
  readonly created: CreatedRange;
  readonly offset: number;
  readonly limit: number;
}

/** One page of a sorted answer, and how many items the whole answer holds. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
}

/** A person with their employments in the readable companies, sorted by createdAt, then id. */
export interface PersonWithEmployments {
  readonly person: SourcePerson;
  readonly employments: readonly SourceEmployee[];
}

/**
 * Each answer comes from one state of the directory: its total and its page always agree. An
 * answer may be shared with other callers asking the same question (the DynamoDB reader keeps its
 * answers, deep-frozen): read it, never change it.
 */
export interface DirectoryReader {
  employees(query: EmployeesQuery): Promise<Page<SourceEmployee>>;
  persons(query: PersonsQuery): Promise<Page<PersonWithEmployments>>;
}

/** One change to the directory, as a `changes` file line states it (docs/data-format.md). */
export type Change =
  | { readonly op: "upsert"; readonly person: SourcePerson }
  | { readonly op: "upsert"; readonly employee: SourceEmployee }
  | { readonly op: "delete"; readonly person: string }
  | { readonly op: "delete"; readonly employee: string };

/** A record that would link to a person missing after the load. */
export interface DanglingReference {
  readonly personId: string;
  readonly employeeId: string;
}

/** True once the caller's time is up: long work stops between its units and says it did. */
export type Deadline = () => boolean;

/** A page of the ids a load's pending state holds, and where the next page starts. */
export interface StoredIdsPage {
  readonly ids: readonly string[];
  /** Undefined after the last page. */
  readonly next?: string;
}

/**
 * What `resumeLoad` needs to go on with a load in another process or a later step (an ingest's
 * next Lambda invocation): plain JSON, opaque to the caller.
 */
export type LoadCheckpoint = { readonly [key: string]: unknown };

/**
 * A load in progress: changes build a pending state that no reader sees until `commit`, which
 * publishes it whole. `abort` (or a crash) leaves what readers see unchanged.
 */
export interface LoadSession {
  /** Applies changes in order to the pending state; a later change of an id wins. */
  /** Resolves to how many of the changes changed what is stored (an upsert of the same value does not). */
  apply(changes: readonly Change[]): Promise<number>;
  /**
   * The ids the pending state holds, of persons or of employee records (snapshots delete the rest),
   * a page at a time from `cursor` (a page's `next`; undefined: the first).
   */
  storedIds(kind: "person" | "employee", cursor?: string): AsyncIterable<StoredIdsPage>;
  /**
   * Sets the scopes (the company lists of keys; lists of fewer than two companies are left out)
   * whose persons the directory keeps in one order, so a persons search over a whole scope reads
   * its page, not every company's entries. New scopes' orders are derived at commit; scopes not
   * listed are dropped. A search over a set of companies that is no scope is answered all the same.
   */
  keepScopes(scopes: readonly (readonly string[])[]): Promise<void>;
  /** A record of the pending state that links to a person it lacks, if any. */
  danglingReference(): Promise<DanglingReference | undefined>;
  /**
   * Publishes the pending state; searches see it within the readers' manifest cache (1 s). Derived
   * structures are brought up to date first, and what it superseded is removed after, each until
   * `deadline` (then `pending`: resume and commit again);
   * if the removal fails, the next load finishes it (the load still applied). `onPublished` runs
   * between the flip and the removal, while the load still holds the lease. A load that wrote
   * nothing publishes nothing: it runs `onPublished` and releases the lease.
   */
  commit(options?: CommitOptions): Promise<CommitReport>;
  /** Undoes the load and releases the lease; false when `deadline` came first (resume, abort again). */
  abort(deadline?: Deadline): Promise<boolean>;
  /** Whether the flip happened (a load resumed after it can only finish its clean-up). */
  readonly published: boolean;
  /** Stops renewing the lease (it lasts until it expires) and says how to resume. */
  suspend(): LoadCheckpoint;
}

export interface CommitOptions {
  readonly deadline?: Deadline;
  readonly onPublished?: () => Promise<void>;
}

export interface CommitReport {
  /** Why superseded versions are still stored (the next load removes them), or undefined. */
  readonly cleanupDeferred?: string;
  /**
   * The deadline came before the commit's work ended (deriving the load's counted orders before
   * the flip, or the clean-up after it): resume the session and commit again.
   */
  readonly pending?: boolean;
}

export interface DirectoryWriter {
  /** Takes the directory's one load lease, or throws `LoadInProgressError`. `label`: what is loaded. */
  beginLoad(label: string): Promise<LoadSession>;
  /** The load a `suspend` left, lease renewed; throws when the lease was lost meanwhile. */
  resumeLoad(checkpoint: LoadCheckpoint): Promise<LoadSession>;
}

/**
 * Another load holds the lease. Times are epoch milliseconds; `expiresAt` is undefined for a lease
 * that cannot outlive its load (in memory, a load dies with its process).
 */
export class LoadInProgressError extends Error {
  readonly label: string;
  readonly startedAt: number;
  readonly expiresAt: number | undefined;
  override readonly name = "LoadInProgressError";
  constructor(label: string, startedAt: number, expiresAt: number | undefined) {
    super(
      `another load is running (${label}, started ${new Date(startedAt).toISOString()})` +
        (expiresAt === undefined
          ? ""
          : `; if it died, its lease expires at ${new Date(expiresAt).toISOString()}`),
    );
    this.label = label;
    this.startedAt = startedAt;
    this.expiresAt = expiresAt;
  }
}

/**
 * The table was written by code of another layout (its manifest's format is not this code's): it
 * is refused whole, never read item by item (docs/runbook.md says how to reload it).
 */
export class TableFormatError extends Error {
  override readonly name = "TableFormatError";
  constructor(found: number | undefined, reads: number) {
    super(
      `the directory table is in format ${found ?? "2 or older"} and this code reads format ${reads}: ` +
        "load the source as a snapshot into a new, empty table",
    );
  }
}

/**
 * The load's lease expired and another load took it over: nothing this load wrote is ever seen,
 * and it must stop (docs/data-model.md, "Fencing").
 */
export class LeaseLostError extends Error {
  static readonly MESSAGE = "this load lost its lease (it expired and another load took over)";
  override readonly name = "LeaseLostError";
  /** `failedFirst`: what failed before the loss was found (a woken loader's dropped connection, say). */
  constructor(failedFirst?: string) {
    super(
      failedFirst === undefined
        ? LeaseLostError.MESSAGE
        : `${LeaseLostError.MESSAGE}; it failed first: ${failedFirst}`,
    );
  }
}
