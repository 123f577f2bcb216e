/**
 * `npm run bench -- [--profile queries|loads|scale] [--records N] [--companies N] [--seed S]
 *   [--engine dynalite|ddblocal] [--engine-dir DIR] [--out FILE] [--no-bundles] [--no-naive] [--rss-only]`
 *
 * queries (default): generates the deterministic demo dataset, loads it into fresh tables (the
 * real design and the naive yardstick), measures the fixed query mix on both, computes each
 * query's floor, bundles the functions, and prints the tables.
 * loads: one company of N records loaded from a file, then one-record, 1% and snapshot loads,
 * each measured in capacity, calls, time, peak RSS and items stored.
 * scale: a Zipf-sized directory (a million records over 1,000 companies by default), the scale
 * mix under keys of 1, 50 and every company, a hot company, the mix in a 1,024 MB heap and a full
 * sync, checked against the scale targets.
 * --engine-dir keeps dynalite's tables and the load in a folder: Ctrl-C (or SIGTERM) suspends the
 * load after its current `apply`, the same command goes on with it, and once it applied, later runs measure
 * at once (lib/bench/saved-load.ts).
 * Tables go to stdout, progress to stderr; docs/performance.md explains every figure.
 */
import { writeFileSync } from "node:fs";
import { type DatasetOptions, DEFAULT_DATASET, SCALE_DATASET } from "../bench/dataset.js";
import { runLoadsBenchmark } from "../bench/load-bench.js";
import { formatLoadsReport } from "../bench/load-report.js";
import { type Progress, stderrProgress } from "../bench/progress.js";
import { formatReport } from "../bench/report.js";
import { DEFAULT_PLANS, runBenchmark } from "../bench/run.js";
import { formatScaleReport } from "../bench/scale-report.js";
import { runScaleBenchmark } from "../bench/scale-run.js";
import { DEMO_LIMITS } from "../directory/demo-data.js";
import type { EngineName } from "../local/engines.js";
import { type CommandLine, choiceOption, cli, UsageError, wholeNumberOption } from "./args.js";
import { printLines, say, sayLines } from "./terminal-text.js";

const USAGE = `usage: npm run bench -- [--profile queries|loads|scale] [--records N] [--companies N] [--seed S] [--engine dynalite|ddblocal] [--engine-dir DIR] [--out FILE] [--no-bundles] [--no-naive] [--rss-only]

  --profile P     queries (default: the search mix, floors, naive yardstick, bundles),
                  loads (what loads write, and the loading process's peak RSS)
                  or scale (Zipf-sized companies, keys of 1, 50 and all, full sync)
  --records N     employee records (default ${DEFAULT_DATASET.records}; scale ${SCALE_DATASET.records})
  --companies N   companies (default ${DEFAULT_DATASET.companies}; scale ${SCALE_DATASET.companies}; loads use one)
  --seed S        demo generator seed (default ${DEFAULT_DATASET.seed})
  --engine E      dynalite (default, in process) or ddblocal (DynamoDB Local, needs java)
  --engine-dir D  dynalite's tables and the load kept in folder D (queries, scale): Ctrl-C
                  suspends the load, the same command goes on with it, later runs reuse it
  --out FILE      also write the report as JSON
  --no-bundles    skip bundling the functions (queries, scale)
  --no-naive      skip the naive yardstick: no naive tables, no naive figures (queries, scale)
  --rss-only      only the first load and its peak RSS (loads)`;

const OPTIONS = {
  profile: { type: "string" },
  records: { type: "string" },
  companies: { type: "string" },
  seed: { type: "string" },
  engine: { type: "string" },
  "engine-dir": { type: "string" },
  out: { type: "string" },
  "no-bundles": { type: "boolean" },
  "no-naive": { type: "boolean" },
  "rss-only": { type: "boolean" },
} as const;

type Values = CommandLine<typeof OPTIONS>["values"];
type Profile = "queries" | "loads" | "scale";

/** The first flag given that the profile does not take. */
function misplacedFlag(profile: Profile, values: Values): string | undefined {
  const misplaced =
    profile === "loads"
      ? (["companies", "no-bundles", "no-naive", "engine-dir"] as const)
      : (["rss-only"] as const);
  return misplaced.find((name) => values[name] !== undefined);
}

function datasetOf(values: Values, defaults: DatasetOptions): DatasetOptions {
  return {
    ...defaults,
    records: wholeNumberOption("records", values.records, DEMO_LIMITS.employees) ?? defaults.records,
    companies: wholeNumberOption("companies", values.companies, DEMO_LIMITS.companies) ?? defaults.companies,
    seed: wholeNumberOption("seed", values.seed, DEMO_LIMITS.seed) ?? defaults.seed,
  };
}

const writeJson = (file: string | undefined, report: unknown) => {
  if (file) writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
};

async function runLoads(values: Values, engine: EngineName, progress: Progress): Promise<void> {
  const { records, seed } = datasetOf(values, DEFAULT_DATASET);
  const report = await runLoadsBenchmark({
    records,
    seed,
    engine,
    rssOnly: values["rss-only"] === true,
    progress,
    onCase: (measured) => say(`measured: ${JSON.stringify(measured)}`),
  });
  printLines(formatLoadsReport(report));
  writeJson(values.out, report);
}

/** Aborted by the first Ctrl-C or SIGTERM; a second one ends the process at once. */
function stopOnInterrupt(): AbortSignal {
  const stop = new AbortController();
  const suspend = () => {
    sayLines("\nsuspending the load once the changes in hand are applied (again to end at once)");
    stop.abort();
  };
  process.once("SIGINT", suspend).once("SIGTERM", suspend);
  return stop.signal;
}

async function main({ values }: CommandLine<typeof OPTIONS>): Promise<void> {
  const profile = choiceOption("profile", values.profile, ["queries", "loads", "scale"]) ?? "queries";
  const engine: EngineName = choiceOption("engine", values.engine, ["dynalite", "ddblocal"]) ?? "dynalite";
  const misplaced = misplacedFlag(profile, values);
  if (misplaced) throw new UsageError(`--${misplaced} does not apply to the ${profile} profile`);

  const progress = stderrProgress();
  if (profile === "loads") return runLoads(values, engine, progress);
  const folder = values["engine-dir"];
  if (folder !== undefined && engine !== "dynalite")
    throw new UsageError("--engine-dir keeps dynalite's tables only");
  const common = {
    engine,
    ...(folder === undefined ? {} : { kept: { folder, stop: stopOnInterrupt() } }),
    real: DEFAULT_PLANS.real,
    naive: values["no-naive"] === true ? null : DEFAULT_PLANS.naive,
    bundles: values["no-bundles"] !== true,
    progress,
  };
  if (profile === "scale") {
    const report = await runScaleBenchmark({
      ...common,
      dataset: datasetOf(values, SCALE_DATASET),
      onMeasured: (part, figures) => say(`measured ${part}: ${JSON.stringify(figures)}`),
    });
    printLines(formatScaleReport(report));
    return writeJson(values.out, report);
  }
  const report = await runBenchmark({ ...common, dataset: datasetOf(values, DEFAULT_DATASET) });
  printLines(formatReport(report));
  writeJson(values.out, report);
}

cli({ name: "bench", usage: USAGE, options: OPTIONS }, main);
