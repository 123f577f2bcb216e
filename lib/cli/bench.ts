/**
 * `npm run bench -- [--records N] [--companies N] [--seed S] [--engine dynalite|ddblocal] [--out FILE]`
 *
 * Generates the deterministic demo dataset, loads it into fresh tables (the real design and the
 * naive yardstick), measures the fixed query mix on both, computes each query's floor, bundles the
 * functions, and prints the tables (stdout; progress goes to stderr). docs/performance.md explains
 * every figure.
 */
import { writeFileSync } from "node:fs";
import { DEFAULT_DATASET } from "../bench/dataset.js";
import { stderrProgress } from "../bench/progress.js";
import { formatReport } from "../bench/report.js";
import { DEFAULT_PLANS, runBenchmark } from "../bench/run.js";
import { DEMO_LIMITS } from "../directory/demo-data.js";
import type { EngineName } from "../local/engines.js";
import { type CommandLine, choiceOption, cli, wholeNumberOption } from "./args.js";

const USAGE = `usage: npm run bench -- [--records N] [--companies N] [--seed S] [--engine dynalite|ddblocal] [--out FILE] [--no-bundles]

  --records N     employee records (default ${DEFAULT_DATASET.records})
  --companies N   companies (default ${DEFAULT_DATASET.companies})
  --seed S        demo generator seed (default ${DEFAULT_DATASET.seed})
  --engine E      dynalite (default, in process) or ddblocal (DynamoDB Local, needs java)
  --out FILE      also write the report as JSON
  --no-bundles    skip bundling the functions`;

const OPTIONS = {
  records: { type: "string" },
  companies: { type: "string" },
  seed: { type: "string" },
  engine: { type: "string" },
  out: { type: "string" },
  "no-bundles": { type: "boolean" },
} as const;

async function main({ values }: CommandLine<typeof OPTIONS>): Promise<void> {
  const engine: EngineName = choiceOption("engine", values.engine, ["dynalite", "ddblocal"]) ?? "dynalite";
  const report = await runBenchmark({
    dataset: {
      records: wholeNumberOption("records", values.records, DEMO_LIMITS.employees) ?? DEFAULT_DATASET.records,
      companies:
        wholeNumberOption("companies", values.companies, DEMO_LIMITS.companies) ?? DEFAULT_DATASET.companies,
      seed: wholeNumberOption("seed", values.seed, DEMO_LIMITS.seed) ?? DEFAULT_DATASET.seed,
    },
    engine,
    ...DEFAULT_PLANS,
    bundles: values["no-bundles"] !== true,
    progress: stderrProgress(),
  });
  process.stdout.write(formatReport(report));
  if (values.out) writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
}

cli({ name: "bench", usage: USAGE, options: OPTIONS }, main);
