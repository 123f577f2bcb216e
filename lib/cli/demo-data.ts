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
import { parseArgs } from "node:util";
import {
  type DemoOptions,
  type DemoSummary,
  demoCompanyIds,
  demoDataChunks,
} from "../directory/demo-data.js";

const USAGE = `usage: npm run demo-data -- --companies N --employees M [--seed S] --out FILE [--ndjson]

  --companies N   companies, 1 to 100000 (the first are named slugs, then company-NNN)
  --employees M   employee records, 1 to 100000000
  --seed S        PRNG seed, 0 to 4294967295 (default 1); same seed, same file
  --out FILE      file to write ("-" for standard output)
  --ndjson        write NDJSON (one {"person": ...} or {"employee": ...} a line) instead of JSON`;

class UsageError extends Error {}

function wholeNumber(name: string, value: string | undefined, min: number, max: number): number {
  if (value === undefined) throw new UsageError(`--${name} is required`);
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  }
  return number;
}

function parse(argv: string[]): (DemoOptions & { out: string; ndjson: boolean }) | "help" {
  let values: ReturnType<typeof parseOptions>["values"];
  try {
    values = parseOptions(argv).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return "help";
  if (values.out === undefined || values.out === "") throw new UsageError("--out is required");
  return {
    companies: wholeNumber("companies", values.companies, 1, 100_000),
    employees: wholeNumber("employees", values.employees, 1, 100_000_000),
    seed: values.seed === undefined ? 1 : wholeNumber("seed", values.seed, 0, 0xffffffff),
    out: values.out,
    ndjson: values.ndjson ?? false,
  };
}

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      companies: { type: "string" },
      employees: { type: "string" },
      seed: { type: "string" },
      out: { type: "string" },
      ndjson: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/** Joins the many small chunks into ~64 KiB writes. */
function* batched(chunks: Iterable<string>): Generator<string> {
  let buffer = "";
  for (const chunk of chunks) {
    buffer += chunk;
    if (buffer.length >= 65_536) {
      yield buffer;
      buffer = "";
    }
  }
  if (buffer !== "") yield buffer;
}

async function main(argv: string[]): Promise<void> {
  const options = parse(argv);
  if (options === "help") {
    console.log(USAGE);
    return;
  }
  const summary: DemoSummary = { persons: 0, employees: 0 };
  const chunks = batched(demoDataChunks(options, options.ndjson ? "ndjson" : "json", summary));
  if (options.out !== "-") mkdirSync(dirname(options.out), { recursive: true });
  const target: Writable = options.out === "-" ? process.stdout : createWriteStream(options.out);
  await pipeline(Readable.from(chunks), target);
  const companies = demoCompanyIds(options.companies);
  const shown = companies.length > 10 ? `${companies.slice(0, 10).join(", ")}, …` : companies.join(", ");
  console.error(
    `demo-data: wrote ${summary.persons} persons and ${summary.employees} employee records ` +
      `(${companies.length} companies: ${shown}; seed ${options.seed}) to ${options.out}`,
  );
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`demo-data: ${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  console.error(`demo-data: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
