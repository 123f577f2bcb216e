/**
 * `npm run load -- FILE [--endpoint URL | --stage S] [--mode merge|snapshot|changes] [--table NAME]`:
 * applies a load file to the directory, all or nothing (docs/data-format.md). Exit 0 only when
 * the file was applied; otherwise 1 with the reason on stderr (2 for a bad call).
 */
import { parseArgs } from "node:util";
import { DataFileError } from "../directory/source.js";
import { LOAD_MODES, type LoadMode } from "../load/change-lines.js";
import { loadFile } from "../load/load-file.js";
import { LOCAL_TABLE_NAMES } from "../local/service.js";
import { createTables } from "../store/create-tables.js";
import { dynamoDirectory } from "../store/dynamo/directory.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { LoadInProgressError } from "../store/port.js";
import { UsageError } from "./args.js";
import { openDirectoryTable } from "./directory-table.js";

const USAGE =
  "usage: npm run load -- FILE [--endpoint URL | --stage dev|sandbox|prod] [--mode merge|snapshot|changes] [--table NAME]";

function options() {
  let parsed: ReturnType<
    typeof parseArgs<{ allowPositionals: true; options: Record<string, { type: "string" | "boolean" }> }>
  >;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        stage: { type: "string" },
        endpoint: { type: "string" },
        table: { type: "string" },
        mode: { type: "string" },
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [file, ...extra] = positionals;
  const mode = (values.mode ?? "merge") as string;
  if (values.help) return undefined;
  if (!file || extra.length > 0) throw new UsageError("expected exactly one FILE");
  if (values.stage && values.endpoint) throw new UsageError("--stage and --endpoint are exclusive");
  if (!(LOAD_MODES as readonly string[]).includes(mode))
    throw new UsageError(`--mode must be one of ${LOAD_MODES.join(", ")}`);
  return {
    file,
    mode: mode as LoadMode,
    stage: values.stage as string | undefined,
    endpoint: values.endpoint as string | undefined,
    table: values.table as string | undefined,
  };
}

function progress(): (p: { phase: string; changes: number }) => void {
  let last = 0;
  return ({ phase, changes }) => {
    const now = Date.now();
    if (phase === "applied" && now - last < 1_000) return;
    last = now;
    process.stderr.write(`${phase}: ${changes} changes\n`);
  };
}

async function main(): Promise<void> {
  const call = options();
  if (!call) {
    console.log(USAGE);
    return;
  }
  const started = performance.now();
  const { client, table, local } = await openDirectoryTable(call);
  // A local engine starts empty: create the tables from the shared definitions if they are missing.
  if (local) await createTables(client, LOCAL_TABLE_NAMES);
  try {
    // On AWS, eventually consistent reads get a second to hold the last writes before the flip.
    const directory = dynamoDirectory(documentClientFor(client), table, {
      writer: { settleMs: local ? 0 : 1_000 },
    });
    const summary = await loadFile(call.file, call.mode, directory, { onProgress: progress() });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `applied ${call.file} (${summary.mode}): ${summary.changes} changes${summary.mode === "snapshot" ? `, ${summary.deletedBySnapshot} stored ids absent from it deleted` : ""}, in ${seconds} s`,
    );
  } finally {
    client.destroy();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  const message =
    error instanceof DataFileError
      ? `refused, nothing changed: ${error.message}`
      : error instanceof LoadInProgressError
        ? `refused, nothing changed: ${error.message}`
        : `load failed, nothing changed: ${(error as Error).message}`;
  console.error(message);
  process.exit(1);
});
