/**
 * One measured load, in a process of its own so that its peak RSS is the load's alone: what
 * `npm run load -- FILE --endpoint URL --mode M` does (loadFile on a file streamed from disk),
 * with every DynamoDB call's consumed capacity tallied. Started by load-run.ts with
 * `node --import tsx`; answers one LoadChildResult over IPC and exits.
 *
 * argv: endpoint, table, file, mode.
 */
import { LOAD_MODES, type LoadMode } from "../load/change-lines.js";
import { loadFile } from "../load/load-file.js";
import { localClient } from "../local/engines.js";
import { instrumentClient } from "../observability/dynamo-capacity.js";
import { dynamoDirectory } from "../store/dynamo/index.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { answerParent } from "./bench-child.js";
import { CapacityTally, type CapacityTotals } from "./capacity-recorder.js";
import { peakRssKb } from "./peak-rss.js";

export interface LoadChildResult extends CapacityTotals {
  /** Lines of the file, and stored ids a snapshot deleted. */
  readonly changes: number;
  readonly deletedBySnapshot: number;
  /** Wall time of loadFile, from taking the lease to releasing it. */
  readonly seconds: number;
  /** RSS once the code is loaded, before the load; and this process's peak (peakRssKb). */
  readonly startRssKb: number;
  readonly maxRssKb: number;
}

async function main(): Promise<LoadChildResult> {
  const [endpoint = "", table = "", file = "", mode = ""] = process.argv.slice(2);
  if (!(LOAD_MODES as readonly string[]).includes(mode)) throw new Error(`unknown mode ${mode}`);
  // A busy shared machine may be slow to answer a batch: retry rather than fail the measurement.
  const client = localClient(endpoint, 5);
  const tally = new CapacityTally();
  instrumentClient(client, tally);
  const startRssKb = Math.round(process.memoryUsage().rss / 1024);
  const started = performance.now();
  try {
    // No search runs during the benchmark: superseded versions go at once (graceMs 0).
    const summary = await loadFile(
      file,
      mode as LoadMode,
      dynamoDirectory(documentClientFor(client), table, { writer: { graceMs: 0 } }),
      // The cases' snapshots delete what they mean to, on the benchmark's own table.
      { allowShrink: true },
    );
    if (summary.cleanupDeferred) throw new Error(`clean-up deferred: ${summary.cleanupDeferred}`);
    return {
      ...tally.totals(),
      changes: summary.changes,
      deletedBySnapshot: summary.deletedBySnapshot,
      seconds: (performance.now() - started) / 1000,
      startRssKb,
      maxRssKb: peakRssKb(),
    };
  } finally {
    client.destroy();
  }
}

answerParent(main());
