/**
 * `npm run load -- FILE [--endpoint URL | --stage S] [--mode merge|snapshot|changes] [--table NAME]`:
 * applies a load file to the directory, all or nothing (docs/data-format.md). Exit 0 only when
 * the file was applied; otherwise 1 with the reason on stderr (2 for a bad call).
 */
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { DataFileError } from "../directory/source.js";
import { LOAD_MODES } from "../load/change-lines.js";
import { loadFile } from "../load/load-file.js";
import { LOCAL_TABLE_NAMES } from "../local/service.js";
import { createTables } from "../store/create-tables.js";
import { dynamoDirectory } from "../store/dynamo/directory.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { LoadInProgressError } from "../store/port.js";
import { type CommandLine, choiceOption, cli, failureLine, quoted, UsageError, urlOption } from "./args.js";
import { watchCommand } from "./command-watch.js";
import { DEFAULT_ENDPOINT, openDirectoryTable } from "./directory-table.js";
import { deployedStage } from "./stage-resources.js";

const USAGE =
  "usage: npm run load -- FILE [--endpoint URL | --stage dev|sandbox|prod] [--mode merge|snapshot|changes] [--table NAME]";
const OPTIONS = {
  stage: { type: "string" },
  endpoint: { type: "string" },
  table: { type: "string" },
  mode: { type: "string" },
} as const;

function progress(): (p: { phase: string; changes: number }) => void {
  let last = 0;
  return ({ phase, changes }) => {
    const now = Date.now();
    if (phase !== "validated" && now - last < 1_000) return;
    last = now;
    process.stderr.write(`${phase}: ${changes} changes\n`);
  };
}

async function main({ values, positionals }: CommandLine<typeof OPTIONS>): Promise<void> {
  const [file, extra] = positionals;
  if (!file) throw new UsageError("FILE is required");
  if (extra !== undefined) throw new UsageError(`unexpected argument ${quoted(extra)}: one FILE at a time`);
  if (values.stage && values.endpoint) throw new UsageError("give --stage or --endpoint, not both");
  const stage = values.stage === undefined ? undefined : deployedStage(values.stage);
  const mode = choiceOption("mode", values.mode, LOAD_MODES) ?? "merge";
  const endpoint = urlOption("endpoint", values.endpoint) ?? DEFAULT_ENDPOINT;

  await access(file, constants.R_OK); // an unreadable file fails before any connection
  const started = performance.now();
  const { client, table, local } = await openDirectoryTable({
    ...(stage === undefined ? {} : { stage }),
    endpoint,
    ...(values.table === undefined ? {} : { table: values.table }),
  });
  // A local engine starts empty: create the tables from the shared definitions if they are missing
  // (the directory table under the name it is loaded as).
  if (local) await createTables(client, { ...LOCAL_TABLE_NAMES, directory: table });
  try {
    // On AWS, eventually consistent reads get a second to hold the last writes before the flip.
    const directory = dynamoDirectory(documentClientFor(client), table, {
      writer: { settleMs: local ? 0 : 1_000 },
    });
    // Ctrl-C (or a TERM) stops between chunks: the load is undone and its lease released. So does
    // a kill of the npm that ran it, which would otherwise leave this process loading on its own.
    const interrupt = new AbortController();
    const stop = () => interrupt.abort(new Error("interrupted"));
    process.once("SIGINT", stop).once("SIGTERM", stop);
    const unwatch = watchCommand(() =>
      interrupt.abort(new Error("the command running this load was killed")),
    );
    const summary = await loadFile(file, mode, directory, {
      onProgress: progress(),
      signal: interrupt.signal,
    }).finally(unwatch);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (summary.cleanupDeferred)
      console.error(
        `note: superseded versions stay until the next load removes them (${summary.cleanupDeferred})`,
      );
    const deleted =
      mode === "snapshot" ? `, ${summary.deletedBySnapshot} stored ids absent from it deleted` : "";
    console.log(`applied ${file} (${mode}): ${summary.changes} changes${deleted}, in ${seconds} s`);
  } finally {
    client.destroy();
  }
}

cli({ name: "load", usage: USAGE, options: OPTIONS, positionals: true }, main, {
  describeFailure: (error) =>
    error instanceof DataFileError || error instanceof LoadInProgressError
      ? `refused, nothing changed: ${error.message}`
      : `failed, nothing changed: ${failureLine(error)}`,
});
