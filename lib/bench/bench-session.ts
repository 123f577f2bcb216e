/**
 * What the queries and scale profiles share around their measurements: the dataset generated
 * (and checked), the engine started, the dataset loaded into fresh tables (progress on the bar),
 * everything stopped afterwards, then the bundles, and the report's dataset section with the
 * run's time.
 */
import type { Engine, EngineName } from "../local/engines.js";
import { benchClient } from "./bench-client.js";
import { type BenchContext, openBench } from "./bench-context.js";
import { startBenchEngine } from "./bench-engine.js";
import { type BundleResult, measureBundles } from "./bundles.js";
import { buildDataset, type Dataset, type DatasetOptions, datasetReport } from "./dataset.js";
import type { QueryPlans } from "./measure-query.js";
import type { Progress } from "./progress.js";
import { round } from "./report.js";
import { SavedLoadFolder } from "./saved-load.js";

export interface ProfileOptions extends QueryPlans {
  readonly dataset: DatasetOptions;
  readonly engine: EngineName;
  readonly bundles: boolean;
  readonly progress: Progress;
  /** Scopes to keep before the dataset is loaded (the profile's keys), and how it is loaded. */
  readonly load?: {
    readonly scopes: (dataset: Dataset) => readonly (readonly string[])[];
    readonly mode: "merge" | "snapshot";
  };
  /** dynalite's table on disk rather than in its heap (the scale profile: see dynalite-process.ts). */
  readonly engineOnDisk?: boolean;
  /** dynalite's tables and the load kept in this folder across runs (saved-load.ts); `stop` suspends the load. */
  readonly kept?: { readonly folder: string; readonly stop: AbortSignal };
}

export interface ProfileRun<T> {
  /** The report's dataset section, with the whole run's seconds. */
  readonly dataset: ReturnType<typeof datasetReport> & { readonly benchSeconds: number };
  readonly measured: T;
  readonly bundles: readonly BundleResult[];
}

async function bundlesWithProgress(progress: Progress) {
  progress.start("bundling and cold imports".padEnd(52), 1);
  const result = await measureBundles({
    onBundle: (done, total) => {
      if (done === 1) progress.start("bundling and cold imports".padEnd(52), total);
      progress.update(done);
    },
  });
  progress.finish();
  return result;
}

/** Runs `measure` on the loaded dataset; the engine and the reading client are stopped whatever it does. */
async function withLoadedBench<T>(
  dataset: Dataset,
  options: ProfileOptions,
  measure: (context: BenchContext, engine: Engine) => Promise<T>,
): Promise<T> {
  const { progress, kept } = options;
  const saved = kept && { folder: new SavedLoadFolder(kept.folder), stop: kept.stop };
  const storage = saved ? { folder: saved.folder.tables } : options.engineOnDisk ? "disk" : "memory";
  const engine = await startBenchEngine(options.engine, storage);
  const reader = benchClient(engine.endpoint);
  try {
    let phase = "";
    const loadProgress = (label: string) => (written: number, total: number) => {
      if (phase !== label) {
        phase = label;
        progress.start(label.padEnd(52), total);
      }
      progress.update(written);
      if (written === total) progress.finish();
    };
    const context = await openBench(engine.client(), reader, dataset, "bench", {
      onDirectoryProgress: loadProgress("loading real tables"),
      onNaiveProgress: loadProgress("loading naive tables"),
      naive: options.naive !== null,
      ...(saved ? { saved } : {}),
      ...(options.load ? { scopes: options.load.scopes(dataset), mode: options.load.mode } : {}),
    });
    return await measure(context, engine);
  } finally {
    reader.destroy();
    await engine.stop();
  }
}

/**
 * A profile's run: `accept` sees the generated dataset before anything is loaded (and throws to
 * stop the run), `measure` runs on it loaded, then the bundles are measured unless left out.
 */
export async function runProfile<T>(
  options: ProfileOptions,
  measure: (context: BenchContext, engine: Engine) => Promise<T>,
  accept: (dataset: Dataset) => void = () => {},
): Promise<ProfileRun<T>> {
  const { progress } = options;
  const started = performance.now();
  progress.start("generating dataset".padEnd(52), options.dataset.records);
  const dataset = buildDataset(options.dataset);
  progress.finish();
  accept(dataset);
  const measured = await withLoadedBench(dataset, options, measure);
  const bundles = options.bundles ? await bundlesWithProgress(progress) : [];
  const benchSeconds = round((performance.now() - started) / 1000);
  return { dataset: { ...datasetReport(dataset.summary), benchSeconds }, measured, bundles };
}
