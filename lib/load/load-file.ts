/**
 * Applies a load file to the directory, all or nothing (docs/data-format.md, "Keeping the
 * directory current"). The file is read twice: first to validate every line (nothing is touched
 * if one is malformed), then to apply it in chunks inside one load session, which searches see
 * only once it commits.
 */
import { type DataFile, DataFileError } from "../directory/source.js";
import type { Change, DirectoryWriter, LoadSession } from "../store/port.js";
import { type LoadMode, type LocatedChange, readChanges } from "./change-lines.js";

export interface LoadSummary {
  readonly mode: LoadMode;
  /** Lines (or records) of the file. */
  readonly changes: number;
  /** Stored ids a snapshot deleted because the file lacks them. */
  readonly deletedBySnapshot: number;
  /** Superseded versions left for the next load to remove, and why. */
  readonly cleanupDeferred?: string;
}

export interface LoadFileOptions {
  /** Changes per `apply`: bounds what is held in memory at once. */
  readonly chunk?: number;
  readonly onProgress?: (progress: { phase: "validated" | "applied" | "snapshot"; changes: number }) => void;
  /** Stops the load between chunks; what it wrote is undone and the lease released. */
  readonly signal?: AbortSignal;
}

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

const idOf = (change: Change): string =>
  change.op === "delete"
    ? "person" in change
      ? `p${change.person}`
      : `e${change.employee}`
    : "person" in change
      ? `p${change.person.id}`
      : `e${change.employee.id}`;

/** Where a load's changes come from; read twice (validation, then applying), so a function. */
type ChangeSource = () => AsyncIterable<LocatedChange>;

/**
 * Pass 1: every line valid; in a data file, no id twice. Returns the ids (a snapshot keeps them),
 * each with the ordinal of its change: one map of flat keys, about 130 bytes an id (a set plus a
 * label string per id took about 600, 0.8 GB for a million-record file).
 */
async function validateAll(
  source: ChangeSource,
  mode: LoadMode,
  signal: AbortSignal | undefined,
): Promise<{ count: number; ids: ReadonlyMap<string, number> }> {
  const ids = new Map<string, number>();
  let count = 0;
  for await (const { change, label } of source()) {
    signal?.throwIfAborted();
    count += 1;
    if (mode === "changes") continue;
    const id = idOf(change);
    const earlier = ids.get(id);
    if (earlier !== undefined) {
      const kind = id.startsWith("p") ? "person" : "employee";
      const first = await labelAt(source, earlier);
      throw new DataFileError(
        `${label} (id ${id.slice(1)})`,
        "id",
        `duplicate ${kind} id (first used by ${first})`,
      );
    }
    ids.set(id, count);
  }
  return { count, ids };
}

/** The label of the source's n-th change (from 1): read again, only to word an error. */
async function labelAt(source: ChangeSource, n: number): Promise<string> {
  let i = 0;
  for await (const { label } of source()) {
    i += 1;
    if (i === n) return label;
  }
  return `change ${n}`;
}

async function applyInChunks(
  session: LoadSession,
  changes: AsyncIterable<Change>,
  size: number,
  onChunk: (n: number) => void,
  signal: AbortSignal | undefined,
) {
  let chunk: Change[] = [];
  for await (const change of changes) {
    chunk.push(change);
    if (chunk.length >= size) {
      signal?.throwIfAborted();
      await session.apply(chunk);
      onChunk(chunk.length);
      chunk = [];
    }
  }
  if (chunk.length > 0) {
    signal?.throwIfAborted();
    await session.apply(chunk);
    onChunk(chunk.length);
  }
}

async function* changesOf(source: ChangeSource): AsyncGenerator<Change> {
  for await (const { change } of source()) yield change;
}

/** Deletes of every stored id the file does not hold. */
async function* absentFromFile(
  session: LoadSession,
  ids: ReadonlyMap<string, number>,
): AsyncGenerator<Change> {
  for await (const id of session.storedIds("employee"))
    if (!ids.has(`e${id}`)) yield { op: "delete", employee: id };
  for await (const id of session.storedIds("person"))
    if (!ids.has(`p${id}`)) yield { op: "delete", person: id };
}

/** Applies a load file (docs/data-format.md) in `mode`. */
export const loadFile = (
  path: string,
  mode: LoadMode,
  directory: DirectoryWriter,
  options: LoadFileOptions = {},
) => applyLoad(() => readChanges(path, mode), mode, `${mode} ${path}`, directory, options);

/** A data file already in memory (demo data, tests) applied like a file, as upserts. */
export function loadData(
  data: DataFile,
  directory: DirectoryWriter,
  mode: "merge" | "snapshot" = "merge",
  options: LoadFileOptions = {},
) {
  const source = async function* (): AsyncGenerator<LocatedChange> {
    for (const [i, person] of data.persons.entries())
      yield { label: `persons[${i}]`, change: { op: "upsert", person } };
    for (const [i, employee] of data.employees.entries())
      yield { label: `employees[${i}]`, change: { op: "upsert", employee } };
  };
  return applyLoad(
    source,
    mode,
    `${mode} of ${data.persons.length} persons and ${data.employees.length} records`,
    directory,
    options,
  );
}

async function applyLoad(
  source: ChangeSource,
  mode: LoadMode,
  label: string,
  directory: DirectoryWriter,
  options: LoadFileOptions = {},
): Promise<LoadSummary> {
  const size = options.chunk ?? 1_000;
  const { count, ids } = await validateAll(source, mode, options.signal);
  options.onProgress?.({ phase: "validated", changes: count });
  const session = await directory.beginLoad(label);
  try {
    let applied = 0;
    await applyInChunks(
      session,
      changesOf(source),
      size,
      (n) => {
        applied += n;
        options.onProgress?.({ phase: "applied", changes: applied });
      },
      options.signal,
    );
    let deleted = 0;
    if (mode === "snapshot") {
      await applyInChunks(
        session,
        absentFromFile(session, ids),
        size,
        (n) => {
          deleted += n;
          options.onProgress?.({ phase: "snapshot", changes: deleted });
        },
        options.signal,
      );
    }
    options.signal?.throwIfAborted();
    const dangling = await session.danglingReference();
    if (dangling) throw new DanglingReferenceError(dangling.personId, dangling.employeeId);
    const report = await session.commit();
    return { mode, changes: count, deletedBySnapshot: deleted, ...report };
  } catch (error) {
    await session.abort().catch(() => undefined);
    throw error;
  }
}
