/**
 * Writes deterministic demo data in the source format (docs/data-format.md).
 *
 *   npm run demo-data -- --companies 4 --employees 300 --seed 1 --out lib/local/demo/data.json
 *
 * The file is streamed, so millions of records need no more memory than a few.
 */
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DEMO_LIMITS,
  type DemoOptions,
  type DemoSummary,
  demoCompanyIds,
  demoDataByRecord,
  writesOf,
} from "../directory/demo-data.js";
import { type CommandLine, cli, type OptionValues, required, wholeNumberOption } from "./args.js";
import { say } from "./terminal-text.js";

const USAGE = `usage: npm run demo-data -- --companies N --employees M [--seed S] --out FILE [--ndjson]

  --companies N   companies, 1 to ${DEMO_LIMITS.companies.max} (the first are named slugs, then company-NNN)
  --employees M   employee records, 1 to ${DEMO_LIMITS.employees.max}
  --seed S        PRNG seed, 0 to ${DEMO_LIMITS.seed.max} (default 1); same seed, same file
  --out FILE      file to write ("-" for standard output)
  --ndjson        write NDJSON (one {"person": ...} or {"employee": ...} a line) instead of JSON`;

const OPTIONS = {
  companies: { type: "string" },
  employees: { type: "string" },
  seed: { type: "string" },
  out: { type: "string" },
  ndjson: { type: "boolean" },
} as const;

function demoOptions(values: OptionValues<typeof OPTIONS>): DemoOptions & { out: string; ndjson: boolean } {
  const whole = (name: keyof typeof DEMO_LIMITS) => wholeNumberOption(name, values[name], DEMO_LIMITS[name]);
  return {
    companies: required("companies", whole("companies")),
    employees: required("employees", whole("employees")),
    seed: whole("seed") ?? 1,
    out: required("out", values.out),
    ndjson: values.ndjson ?? false,
  };
}

async function main({ values }: CommandLine<typeof OPTIONS>): Promise<void> {
  const options = demoOptions(values);
  const summary: DemoSummary = { persons: 0, employees: 0 };
  const writes = writesOf(demoDataByRecord(options, options.ndjson ? "ndjson" : "json", summary));
  if (options.out !== "-") mkdirSync(dirname(options.out), { recursive: true });
  const target: Writable = options.out === "-" ? process.stdout : createWriteStream(options.out);
  await pipeline(Readable.from(writes), target);
  const companies = demoCompanyIds(options.companies);
  const shown = companies.length > 10 ? `${companies.slice(0, 10).join(", ")}, …` : companies.join(", ");
  say(
    `demo-data: wrote ${summary.persons} persons and ${summary.employees} employee records ` +
      `(${companies.length} companies: ${shown}; seed ${options.seed}) to ${options.out}`,
  );
}

cli({ name: "demo-data", usage: USAGE, options: OPTIONS }, main);
