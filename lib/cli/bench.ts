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
import type { EngineName } from "../local/engines.js";
import { parseOptions, UsageError, wholeOption } from "./args.js";

const USAGE = `usage: npm run bench -- [--records N] [--companies N] [--seed S] [--engine dynalite|ddblocal] [--out FILE] [--no-bundles]

  --records N     employee records (default ${DEFAULT_DATASET.records})
  --companies N   companies (default ${DEFAULT_DATASET.companies})
  --seed S        demo generator seed (default ${DEFAULT_DATASET.seed})
  --engine E      dynalite (default, in process) or ddblocal (DynamoDB Local, needs java)
  --out FILE      also write the report as JSON
  --no-bundles    skip bundling the functions`;

async function main(): Promise<void> {
  const values = parseOptions({
    records: { type: "string" },
    companies: { type: "string" },
    seed: { type: "string" },
    engine: { type: "string" },
    out: { type: "string" },
    "no-bundles": { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const engine = (values.engine ?? "dynalite") as string;
  if (engine !== "dynalite" && engine !== "ddblocal")
    throw new UsageError("--engine must be dynalite or ddblocal");
  const asString = (value: string | boolean | undefined) => (typeof value === "string" ? value : undefined);
  const report = await runBenchmark({
    dataset: {
      records: wholeOption("records", values.records, DEFAULT_DATASET.records, 1),
      companies: wholeOption("companies", values.companies, DEFAULT_DATASET.companies, 1),
      seed: wholeOption("seed", values.seed, DEFAULT_DATASET.seed, 0),
    },
    engine: engine as EngineName,
    ...DEFAULT_PLANS,
    bundles: values["no-bundles"] !== true,
    progress: stderrProgress(),
  });
  process.stdout.write(formatReport(report));
  const out = asString(values.out);
  if (out) writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
  else console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
