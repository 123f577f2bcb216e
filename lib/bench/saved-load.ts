/**
 * A benchmark's load kept in a folder (`--engine-dir`): a million records take longer to load than
 * one sitting allows. dynalite keeps its tables in `tables/`; `load.json` says what is loaded and
 * where the load stands, and `load-ids.bin` holds the ids it has validated, both saved after every
 * step. Asked to stop, the load suspends after its current `apply`; the same command goes on from
 * the last saved step, and once the load applied, later runs go straight to the measurements, until
 * a run's measured writes change the tables.
 */

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { keepScopes } from "../load/keep-scopes.js";
import { type LoadFileOptions, type LoadProgress, loadDataInSteps } from "../load/load-file.js";
import { LoadIds } from "../load/load-ids.js";
import type { DirectoryWriter } from "../store/port.js";
import { type WriteFigures, writeMeter } from "./capacity-recorder.js";
import type { Dataset } from "./dataset.js";
import { round } from "./report.js";

type SavedStatus = "loading" | "loaded" | "written" | "undone";

interface SavedState {
  /** The dataset's options and the load's mode: what the tables hold, or are being loaded with. */
  readonly load: string;
  readonly status: SavedStatus;
  /** Where a load still loading goes on from. */
  readonly progress?: LoadProgress;
  /** How many validated changes `load-ids.bin` holds the ids of. */
  readonly idsValidated?: number;
  /** The load's capacity and time, summed over the runs that loaded. */
  readonly figures: WriteFigures;
}

const STEP_MS = 60_000;
const NO_FIGURES: WriteFigures = { wcu: 0, writeCalls: 0, rcu: 0, seconds: 0 };

export class LoadSuspendedError extends Error {
  constructor(folder: string, progress: LoadProgress | undefined) {
    const at = progress ? `${progress.phase}, ${progress.applied} changes applied` : "before its first step";
    super(`the load is suspended (${at}) in ${folder}: run the same command to go on`);
  }
}

/** Written whole or not at all: a run stopped while saving leaves the previous file. */
function writeWhole(file: string, data: string | Uint8Array): void {
  writeFileSync(`${file}.next`, data);
  renameSync(`${file}.next`, file);
}

/** The folder of a kept load: dynalite's tables and the load's state. */
export class SavedLoadFolder {
  readonly folder: string;

  constructor(folder: string) {
    this.folder = folder;
    mkdirSync(this.tables, { recursive: true });
  }

  /** dynalite's LevelDB folder. */
  get tables(): string {
    return join(this.folder, "tables");
  }

  private get stateFile() {
    return join(this.folder, "load.json");
  }

  private get idsFile() {
    return join(this.folder, "load-ids.bin");
  }

  read(): SavedState | undefined {
    if (!existsSync(this.stateFile)) return undefined;
    return JSON.parse(readFileSync(this.stateFile, "utf8")) as SavedState;
  }

  save(state: SavedState): void {
    writeWhole(this.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  }

  readIds(): LoadIds {
    return LoadIds.fromBytes(readFileSync(this.idsFile));
  }

  saveIds(ids: LoadIds): void {
    writeWhole(this.idsFile, ids.toBytes());
  }

  /** The measurements are about to write to the tables: no later run may take them as loaded. */
  markWritten(): void {
    const state = this.read();
    if (state) this.save({ ...state, status: "written" });
  }
}

export interface SavedLoadJob {
  readonly dataset: Dataset;
  readonly mode: "merge" | "snapshot";
  readonly scopes?: readonly (readonly string[])[];
  readonly onProgress?: LoadFileOptions["onProgress"];
  /** Changes per `apply` (the load's default when absent). */
  readonly changesPerApply?: number;
  /** Suspends the load after its current `apply` (Ctrl-C). */
  readonly stop: AbortSignal;
}

const sum = (a: WriteFigures, b: WriteFigures): WriteFigures => ({
  wcu: round(a.wcu + b.wcu, 2),
  writeCalls: a.writeCalls + b.writeCalls,
  rcu: round(a.rcu + b.rcu, 2),
  seconds: round(a.seconds + b.seconds, 2),
});

/** What the state says of a load of `load`: its figures when it applied; throws when it cannot be used. */
function loadedFigures(folder: SavedLoadFolder, state: SavedState | undefined, load: string) {
  if (state === undefined) return undefined;
  if (state.load !== load)
    throw new Error(`${folder.folder} holds a load of ${state.load}, not of ${load}: give another folder`);
  if (state.status === "written")
    throw new Error(
      `a run's measured writes changed the tables in ${folder.folder}: remove it to load again`,
    );
  if (state.status === "undone")
    throw new Error(`the load kept in ${folder.folder} failed and was undone: remove it to load again`);
  return state.status === "loaded" ? state.figures : undefined;
}

/**
 * Loads the dataset into `directory`, going on from what `folder` saved (its scopes kept first on
 * a fresh start): the load's figures, summed over every run that loaded. Throws
 * `LoadSuspendedError` once `stop` suspended it.
 */
export async function savedLoad(
  folder: SavedLoadFolder,
  loader: DynamoDBClient,
  directory: DirectoryWriter,
  job: SavedLoadJob,
): Promise<WriteFigures> {
  const load = JSON.stringify({ ...job.dataset.summary, mode: job.mode });
  const saved = folder.read();
  const loaded = loadedFigures(folder, saved, load);
  if (loaded) return loaded;
  const before = saved?.figures ?? NO_FIGURES;
  const measured = writeMeter(loader);
  const figures = () => sum(before, measured());
  if (saved === undefined) {
    if (job.scopes) await keepScopes(directory, job.scopes);
    folder.save({ load, status: "loading", figures: figures() });
  }
  let idsValidated = saved?.idsValidated ?? 0;
  let last = saved?.progress;
  const from = saved?.progress && {
    progress: saved.progress,
    ids: idsValidated > 0 ? folder.readIds() : new LoadIds(),
  };
  const steps = loadDataInSteps(
    job.dataset.data,
    directory,
    job.mode,
    {
      ...(job.onProgress ? { onProgress: job.onProgress } : {}),
      ...(job.changesPerApply === undefined ? {} : { changesPerApply: job.changesPerApply }),
    },
    {
      ...(from ? { from } : {}),
      suspend: job.stop,
      stepMs: STEP_MS,
      onStep: async (progress, ids) => {
        // The ids first: a state that names more validated changes than the ids hold is never saved.
        if (progress.validated !== idsValidated) folder.saveIds(ids);
        idsValidated = progress.validated;
        last = progress;
        folder.save({ load, status: "loading", progress, idsValidated, figures: figures() });
      },
    },
  );
  // A load that fails is undone, so the saved progress no longer describes the tables.
  const outcome = await steps.catch((error: unknown) => {
    folder.save({ load, status: "undone", figures: figures() });
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}; the load kept in ${folder.folder} was undone: remove it to load again`, {
      cause: error,
    });
  });
  if (outcome === "suspended") throw new LoadSuspendedError(folder.folder, last);
  const total = figures();
  folder.save({ load, status: "loaded", figures: total });
  return total;
}
