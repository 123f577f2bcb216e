/**
 * Applies a load file to the directory in this process, all or nothing (docs/data-format.md,
 * "Keeping the directory current"): the steps of lib/load/load-steps.ts, run to the end. The file
 * is read twice, through one open descriptor (lib/load/local-file.ts): first to validate every
 * line (nothing is touched if one is malformed), then to apply it in chunks inside one load
 * session, which searches see only once it commits.
 */
import type { DataFile } from "../directory/source.js";
import type { DirectoryWriter } from "../store/port.js";
import {
  dataFileChanges,
  FILE_START,
  type LoadMode,
  type PositionedChange,
  readChanges,
  type SourcePosition,
} from "./change-lines.js";
import { LoadIds } from "./load-ids.js";
import { type ChangeReader, firstStep, type LoadSummary, loadStep, type StepContext } from "./load-steps.js";
import { type LocalLoadFile, openLoadFile } from "./local-file.js";

export { DanglingReferenceError } from "./load-steps.js";
export type { LoadSummary };

export interface LoadFileOptions {
  /** Changes per `apply`: bounds what is held in memory at once. */
  readonly chunk?: number;
  readonly onProgress?: StepContext["onProgress"];
  /** Stops the load, while reading or between chunks; what it wrote is undone and the lease released. */
  readonly signal?: AbortSignal;
  /** A snapshot may delete more than 10% of the stored records or persons (else it is refused). */
  readonly allowShrink?: boolean;
}

/**
 * Runs a load's steps one after another in this process (no deadline): the load applied, or its
 * error thrown once what it wrote is undone.
 */
async function runLoad(
  read: ChangeReader,
  mode: LoadMode,
  label: string,
  directory: DirectoryWriter,
  options: LoadFileOptions,
): Promise<LoadSummary> {
  const context: StepContext = {
    read,
    directory,
    ids: new LoadIds(),
    deadline: () => false,
    chunk: options.chunk ?? 1_000,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  let progress = firstStep(mode, label, { allowShrink: options.allowShrink ?? false });
  for (;;) {
    const result = await loadStep(progress, context);
    if ("progress" in result) progress = result.progress;
    else if (result.outcome.status === "applied") return result.outcome.summary;
    else
      throw (
        result.outcome.error ?? new Error(`the load was undone: ${JSON.stringify(result.outcome.failure)}`)
      );
  }
}

/** Applies a load file (docs/data-format.md) in `mode`: a path, or a file opened by the caller. */
export async function loadFile(
  file: string | LocalLoadFile,
  mode: LoadMode,
  directory: DirectoryWriter,
  options: LoadFileOptions = {},
): Promise<LoadSummary> {
  const opened = typeof file === "string" ? await openLoadFile(file) : file;
  try {
    const read = (from?: SourcePosition) => readChanges(opened.bytes, mode, from, options.signal);
    return await runLoad(read, mode, `${mode} ${opened.path}`, directory, options);
  } finally {
    if (typeof file === "string") await opened.close();
  }
}

/**
 * A data file already in memory (demo data, tests) applied like a file, as upserts. Its snapshot
 * is the caller's whole directory, not an export that may be cut short: it may shrink it.
 */
export function loadData(
  data: DataFile,
  directory: DirectoryWriter,
  mode: "merge" | "snapshot" = "merge",
  options: LoadFileOptions = {},
) {
  const read = async function* (from: SourcePosition = FILE_START): AsyncGenerator<PositionedChange> {
    yield* dataFileChanges(data, from.index);
  };
  return runLoad(
    read,
    mode,
    `${mode} of ${data.persons.length} persons and ${data.employees.length} records`,
    directory,
    { allowShrink: true, ...options },
  );
}
