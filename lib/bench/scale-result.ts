/**
 * The scale profile's result: the JSON written by `--out` (the fields of its queries, `fullSync`
 * and `hotCompany` are fixed), shown by scale-report.ts and checked by scale-targets.ts.
 */
import type { WriteFigures } from "./capacity-recorder.js";
import type { FullSyncReport } from "./full-sync.js";
import type { HotCompanyReport } from "./hot-company.js";
import type { LimitedProcessReport } from "./limited-run.js";
import type { BenchReport } from "./report.js";
import type { ScaleWritesReport } from "./scale-writes.js";

/** A key of the run: how many companies it may read and how many records they hold. */
export interface ScaleKeyReport {
  readonly companies: number;
  readonly records: number;
}

/** The queries profile's report (its queries carry the scale fields), and the scale profile's parts. */
export interface ScaleReport extends BenchReport {
  readonly profile: "scale";
  /** Where dynalite kept the table: on disk in this profile (absent on DynamoDB Local, in its JVM). */
  readonly engineStorage?: "disk";
  readonly keys: readonly ScaleKeyReport[];
  readonly hotCompany: HotCompanyReport;
  /** The mix again in a process limited like a 1,024 MB Lambda: the worst p99 and the heap's growth. */
  readonly limitedProcess: LimitedProcessReport;
  readonly fullSync: FullSyncReport;
  /** The writes measured: the full load (a snapshot into the empty directory), one record, one scope change. */
  readonly writes: ScaleWritesReport & {
    readonly fullLoad: WriteFigures & { mode: string; records: number };
  };
}
