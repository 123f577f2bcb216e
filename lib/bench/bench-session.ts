/**
 * What the queries and scale profiles share around their measurements: the engine started, the
 * dataset loaded into fresh tables (progress on the bar), and everything stopped afterwards.
 */
import type { Engine, EngineName } from "../local/engines.js";
import { benchClient } from "./bench-client.js";
import { type BenchContext, openBench } from "./bench-context.js";
import { startBenchEngine } from "./bench-engine.js";
import type { Dataset } from "./dataset.js";
import type { Progress } from "./progress.js";

export interface SessionOptions {
  readonly engine: EngineName;
  /** Whether to load the naive yardstick too. */
  readonly naive: boolean;
  readonly progress: Progress;
}

/** Runs `measure` on the loaded dataset; the engine and the reading client are stopped whatever it does. */
export async function withLoadedBench<T>(
  dataset: Dataset,
  options: SessionOptions,
  measure: (context: BenchContext, engine: Engine) => Promise<T>,
): Promise<T> {
  const { progress } = options;
  const engine = await startBenchEngine(options.engine);
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
      naive: options.naive,
    });
    return await measure(context, engine);
  } finally {
    reader.destroy();
    await engine.stop();
  }
}
