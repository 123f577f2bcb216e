/**
 * `npm run load -- FILE [--stage S | --endpoint URL] [--table NAME]`: validates a data file
 * (JSON or NDJSON, docs/data-format.md) and writes it to the directory table. Nothing is written
 * unless every record is valid.
 */
import { readFileSync } from "node:fs";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DataFileError, parseDataFile } from "../directory/source.js";
import { localClient } from "../local/engines.js";
import { LOCAL_TABLE_NAMES } from "../local/service.js";
import { stageParameterNames } from "../stages.js";
import { createTables } from "../store/create-tables.js";
import { loadDirectory } from "../store/directory-loader.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { type CommandLine, cli, quoted, UsageError } from "./args.js";
import { deployedStage, readStageParameter } from "./stage-resources.js";

const USAGE = "usage: npm run load -- FILE [--stage dev|sandbox|prod | --endpoint URL] [--table NAME]";
const OPTIONS = {
  stage: { type: "string" },
  endpoint: { type: "string" },
  table: { type: "string" },
} as const;

function progressReporter(): (progress: { written: number; total: number }) => void {
  let lastPercent = -1;
  return ({ written, total }) => {
    const percent = Math.floor((written / total) * 100);
    if (percent === lastPercent) return;
    lastPercent = percent;
    const bar = "#".repeat(Math.floor(percent / 4)).padEnd(25, ".");
    process.stderr.write(`\r[${bar}] ${percent}% ${written}/${total} items${written === total ? "\n" : ""}`);
  };
}

async function main({ values, positionals }: CommandLine<typeof OPTIONS>): Promise<void> {
  const [file, extra] = positionals;
  if (!file) throw new UsageError("FILE is required");
  if (extra !== undefined) throw new UsageError(`unexpected argument ${quoted(extra)}: one FILE at a time`);
  if (values.stage && values.endpoint) throw new UsageError("give --stage or --endpoint, not both");
  if (values.stage !== undefined) deployedStage(values.stage); // a bad call is refused before any work

  const started = performance.now();
  const data = parseDataFile(readFileSync(file, "utf8"));
  console.error(
    `${file}: ${data.persons.length} persons and ${data.employees.length} employee records are valid`,
  );

  let client: DynamoDBClient;
  let table: string;
  if (values.stage) {
    client = new DynamoDBClient({});
    table =
      values.table ??
      (await readStageParameter(stageParameterNames.directoryTableName(deployedStage(values.stage))));
  } else {
    client = localClient(values.endpoint ?? "http://127.0.0.1:8000");
    table = values.table ?? LOCAL_TABLE_NAMES.directory;
    // A local engine starts empty: create the tables from the shared definitions if they are missing.
    await createTables(client, LOCAL_TABLE_NAMES);
  }
  const result = await loadDirectory(documentClientFor(client), table, data, {
    onProgress: progressReporter(),
  });
  client.destroy();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.error(`loaded ${result.items} items into ${table} in ${seconds} s`);
}

cli({ name: "load", usage: USAGE, options: OPTIONS, positionals: true }, main, {
  describeFailure: (error) =>
    error instanceof DataFileError ? `refused, nothing written: ${error.message}` : undefined,
});
