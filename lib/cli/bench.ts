/**
 * `npm run bench -- [--profile queries|loads] [--records N] [--companies N] [--seed S]
 *   [--engine dynalite|ddblocal] [--out FILE] [--no-bundles] [--rss-only]`
 *
 * queries (default): generates the deterministic demo dataset, loads it into fresh tables (the
 * real design and the naive yardstick), measures the fixed query mix on both, computes each
 * query's floor, bundles the functions, and prints the tables.
 * loads: one company of N records loaded from a file, then one-record, 1% and snapshot loads,
 * each measured in capacity, calls, time, peak RSS and items stored.
 * Tables go to stdout, progress to stderr; docs/performance.md explains every figure.
 */
import { writeFileSync } from "node:fs";
import { DEFAULT_DATASET } from "../bench/dataset.js";
import { runLoadsBenchmark } from "../bench/load-bench.js";
import { formatLoadsReport } from "../bench/load-report.js";
import { stderrProgress } from "../bench/progress.js";
import { formatReport } from "../bench/report.js";
import { DEFAULT_PLANS, runBenchmark } from "../bench/run.js";
import { DEMO_LIMITS } from "../directory/demo-data.js";
import type { EngineName } from "../local/engines.js";
import { type CommandLine, choiceOption, cli, UsageError, wholeNumberOption } from "./args.js";

const USAGE = `usage: npm run bench -- [--profile queries|loads] [--records N] [--companies N] [--seed S] [--engine dynalite|ddblocal] [--out FILE] [--no-bundles] [--rss-only]

  --profile P     queries (default: the search mix, floors, naive yardstick, bundles)
                  or loads (what loads write, and the loading process's peak RSS)
  --records N     employee records (default ${DEFAULT_DATASET.records})
  --companies N   companies (default ${DEFAULT_DATASET.companies}; queries only, loads use one)
  --seed S        demo generator seed (default ${DEFAULT_DATASET.seed})
  --engine E      dynalite (default, in process) or ddblocal (DynamoDB Local, needs java)
  --out FILE      also write the report as JSON
  --no-bundles    skip bundling the functions (queries)
  --no-naive      skip the naive yardstick: no naive tables, no naive figures (queries)
  --rss-only      only the first load and its peak RSS (loads)`;

const OPTIONS = {
  profile: { type: "string" },
  records: { type: "string" },
  companies: { type: "string" },
  seed: { type: "string" },
  engine: { type: "string" },
  out: { type: "string" },
  "no-bundles": { type: "boolean" },
  "no-naive": { type: "boolean" },
  "rss-only": { type: "boolean" },
} as const;

async function main({ values }: CommandLine<typeof OPTIONS>): Promise<void> {
  const profile = choiceOption("profile", values.profile, ["queries", "loads"]) ?? "queries";
  const engine: EngineName = choiceOption("engine", values.engine, ["dynalite", "ddblocal"]) ?? "dynalite";
  const records =
    wholeNumberOption("records", values.records, DEMO_LIMITS.employees) ?? DEFAULT_DATASET.records;
  const seed = wholeNumberOption("seed", values.seed, DEMO_LIMITS.seed) ?? DEFAULT_DATASET.seed;
  const misplaced =
    profile === "loads"
      ? (["companies", "no-bundles", "no-naive"] as const).find((name) => values[name] !== undefined)
      : values["rss-only"] !== undefined
        ? "rss-only"
        : undefined;
  if (misplaced) throw new UsageError(`--${misplaced} does not apply to the ${profile} profile`);

  const progress = stderrProgress();
  if (profile === "loads") {
    const report = await runLoadsBenchmark({
      records,
      seed,
      engine,
      rssOnly: values["rss-only"] === true,
      progress,
      onCase: (measured) => process.stderr.write(`measured: ${JSON.stringify(measured)}\n`),
    });
    process.stdout.write(formatLoadsReport(report));
    if (values.out) writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const report = await runBenchmark({
    dataset: {
      records,
      companies:
        wholeNumberOption("companies", values.companies, DEMO_LIMITS.companies) ?? DEFAULT_DATASET.companies,
      seed,
    },
    engine,
    real: DEFAULT_PLANS.real,
    naive: values["no-naive"] === true ? null : DEFAULT_PLANS.naive,
    bundles: values["no-bundles"] !== true,
    progress,
  });
  process.stdout.write(formatReport(report));
  if (values.out) writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
}

cli({ name: "bench", usage: USAGE, options: OPTIONS }, main);
