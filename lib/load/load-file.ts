/**
 * Applies a load file to the directory in this process, all or nothing (docs/data-format.md,
 * "Keeping the directory current"): the steps of lib/load/load-steps.ts, run to the end. The file
 * is read twice, through one open descriptor (lib/load/local-file.ts): first to validate every
 * line (nothing is touched if one is malformed), then to apply it, `changesPerApply` a call,
 * inside one load session, which searches see only once it commits.
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
import {
  type ChangeReader,
  firstStep,
  type LoadOutcome,
  type LoadProgress,
  type LoadSummary,
  loadStep,
  type StepContext,
} from "./load-steps.js";
import { type LocalLoadFile, openLoadFile } from "./local-file.js";

export { DanglingReferenceError } from "./load-steps.js";
export type { LoadProgress, LoadSummary };

export interface LoadFileOptions {
  /** Changes per `apply`: bounds what is held in memory at once. */
  readonly changesPerApply?: number;
  readonly onProgress?: StepContext["onProgress"];
  /**
   * Stops the load, while reading or between `apply` calls; what it wrote is undone and the lease
   * released.
   */
  readonly signal?: AbortSignal;
  /** A snapshot may delete more than 10% of the stored records or persons (else it is refused). */
  readonly allowShrink?: boolean;
}

/**
 * A load run in steps that another process can go on with: it starts from a saved step, hands
 * each step's progress and ids to `onStep` (to save them), and stops after the step that sees
 * `suspend` aborted (the benchmark's million records outlast one sitting).
 */
export interface SteppedRun {
  /** A saved step to go on from; the first step when absent. */
  readonly from?: { readonly progress: LoadProgress; readonly ids: LoadIds };
  readonly onStep: (progress: LoadProgress, ids: LoadIds) => Promise<void>;
  /** Ends the step after its current `apply`; the load is then suspended where `onStep` last saved it. */
  readonly suspend: AbortSignal;
  /** How long a step goes on before it is saved. */
  readonly stepMs: number;
}

/** A load to run: where its changes come from, in what mode, under what label, into what. */
interface LoadRun {
  readonly read: ChangeReader;
  readonly mode: LoadMode;
  readonly label: string;
  readonly directory: DirectoryWriter;
  readonly options: LoadFileOptions;
}

/**
 * Runs a load's steps one after another in this process (no deadline, unless stepped): the load
 * applied, or its error thrown once what it wrote is undone; "suspended" when a stepped run is.
 */
function runLoad(run: LoadRun): Promise<LoadSummary>;
function runLoad(run: LoadRun, stepped: SteppedRun): Promise<LoadSummary | "suspended">;
async function runLoad(
  { read, mode, label, directory, options }: LoadRun,
  stepped?: SteppedRun,
): Promise<LoadSummary | "suspended"> {
  const step = { ends: Number.POSITIVE_INFINITY };
  const context = stepContext(read, directory, options, stepped, step);
  let progress =
    stepped?.from?.progress ?? firstStep(mode, label, { allowShrink: options.allowShrink ?? false });
  for (;;) {
    step.ends = performance.now() + (stepped?.stepMs ?? Number.POSITIVE_INFINITY);
    const result = await loadStep(progress, context);
    if ("outcome" in result) return outcomeOf(result.outcome);
    progress = result.progress;
    if (stepped) {
      await stepped.onStep(progress, context.ids);
      if (stepped.suspend.aborted) return "suspended";
    }
  }
}

/** A stepped run's deadline is its step's end, or a suspension; an unstepped one has none. */
function stepContext(
  read: ChangeReader,
  directory: DirectoryWriter,
  options: LoadFileOptions,
  stepped: SteppedRun | undefined,
  step: { readonly ends: number },
): StepContext {
  return {
    read,
    directory,
    ids: stepped?.from?.ids ?? new LoadIds(),
    deadline: stepped ? () => stepped.suspend.aborted || performance.now() > step.ends : () => false,
    changesPerApply: options.changesPerApply ?? 1_000,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/** An applied load's summary; an undone load's error. */
function outcomeOf(outcome: LoadOutcome): LoadSummary {
  if (outcome.status === "applied") return outcome.summary;
  throw outcome.error ?? new Error(`the load was undone: ${JSON.stringify(outcome.failure)}`);
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
    return await runLoad({ read, mode, label: `${mode} ${opened.path}`, directory, options });
  } finally {
    if (typeof file === "string") await opened.close();
  }
}

/** A data file already in memory as a load: its changes in order, as upserts. */
function dataRun(
  data: DataFile,
  directory: DirectoryWriter,
  mode: "merge" | "snapshot",
  options: LoadFileOptions,
): LoadRun {
  const read = async function* (from: SourcePosition = FILE_START): AsyncGenerator<PositionedChange> {
    yield* dataFileChanges(data, from.index);
  };
  const label = `${mode} of ${data.persons.length} persons and ${data.employees.length} records`;
  return { read, mode, label, directory, options: { allowShrink: true, ...options } };
}

/**
 * A data file already in memory (demo data, tests) applied like a file. Its snapshot is the
 * caller's whole directory, not an export that may be cut short: it may shrink it.
 */
export function loadData(
  data: DataFile,
  directory: DirectoryWriter,
  mode: "merge" | "snapshot" = "merge",
  options: LoadFileOptions = {},
): Promise<LoadSummary> {
  return runLoad(dataRun(data, directory, mode, options));
}

/** `loadData` in steps another process can go on with (the benchmark's kept load): see `SteppedRun`. */
export function loadDataInSteps(
  data: DataFile,
  directory: DirectoryWriter,
  mode: "merge" | "snapshot",
  options: LoadFileOptions,
  stepped: SteppedRun,
): Promise<LoadSummary | "suspended"> {
  return runLoad(dataRun(data, directory, mode, options), stepped);
}
