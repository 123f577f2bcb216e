/**
 * `npm run load -- FILE [--endpoint URL [--table NAME] | --stage S | --inbox BUCKET] [--mode M] [--allow-shrink]`:
 * applies a load file to the directory, all or nothing (docs/data-format.md). Locally it runs the
 * load's steps here; for a stage it uploads the file to the stage's inbox and waits for the ingest's
 * report (lib/cli/load-inbox.ts), reading its execution's status too (lib/cli/ingest-execution.ts;
 * `--inbox` alone waits for the report). Without `--mode`, a file whose first line is a change line
 * is loaded as a changes file (said on stderr), any other in merge. Exit 0 only when the file was
 * applied; otherwise 1 with the reason on stderr (2 for a bad call).
 */
import { SFNClient } from "@aws-sdk/client-sfn";
import { DataFileError } from "../directory/source.js";
import { MAX_OBJECT_BYTES, overMaximum, reportKey } from "../ingest/inbox.js";
import { InboxStore, inboxClient } from "../ingest/inbox-store.js";
import { LOAD_MODES, type LoadMode, startsWithChangeLine } from "../load/change-lines.js";
import { loadFile } from "../load/load-file.js";
import { type LocalLoadFile, openLoadFile } from "../load/local-file.js";
import { LOCAL_TABLE_NAMES } from "../local/config.js";
import { stageParameterNames } from "../stages.js";
import { createTables } from "../store/create-tables.js";
import { dynamoDirectory } from "../store/dynamo/index.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { LoadInProgressError } from "../store/port.js";
import { type CommandLine, choiceOption, cli, failureLine, quoted, UsageError, urlOption } from "./args.js";
import { watchCommand } from "./command-watch.js";
import {
  localEndpoint,
  MissingTableError,
  openDirectoryTable,
  refusedConnectionLine,
} from "./directory-table.js";
import { IngestExecution } from "./ingest-execution.js";
import {
  appliedLine,
  cleanupNote,
  inboxKey,
  NoReportError,
  reportLine,
  upload,
  waitForReport,
} from "./load-inbox.js";
import { deployedStage, readStageParameter } from "./stage-resources.js";
import { print, say } from "./terminal-text.js";

const USAGE = `usage: npm run load -- FILE [--endpoint URL [--table NAME] | --stage dev|sandbox|prod | --inbox BUCKET] [--mode merge|snapshot|changes] [--allow-shrink]
--mode: merge by default; changes for a file whose first line is a change line ({"op": …})`;
const OPTIONS = {
  stage: { type: "string" },
  inbox: { type: "string" },
  endpoint: { type: "string" },
  table: { type: "string" },
  mode: { type: "string" },
  "allow-shrink": { type: "boolean" },
} as const;

/** How a load through the inbox ended, when not applied: the line printed as it is. */
class OutcomeLine extends Error {}

/** What a progress line counts, per phase. */
const COUNTED = { validated: "in the file", applied: "of the file", snapshot: "stored ids deleted" } as const;

function progress(): (p: { phase: keyof typeof COUNTED; changes: number }) => void {
  let last = 0;
  return ({ phase, changes }) => {
    const now = Date.now();
    if (phase !== "validated" && now - last < 1_000) return;
    last = now;
    say(`${phase}: ${changes} ${COUNTED[phase]}`);
  };
}

interface Inbox {
  readonly bucket: string;
  /** The ingest's state machine, given `--stage`: the upload's execution is read on it. */
  readonly stateMachine?: string;
}

/** The stage's inbox, or the one `--inbox` names; undefined for a local engine. */
async function inboxOf(values: CommandLine<typeof OPTIONS>["values"]): Promise<Inbox | undefined> {
  const targets = [values.stage, values.inbox, values.endpoint].filter((value) => value !== undefined);
  if (targets.length > 1) throw new UsageError("give one of --stage, --inbox or --endpoint");
  if (values.table !== undefined && values.endpoint === undefined && targets.length > 0)
    throw new UsageError("--table applies to a local engine (--endpoint); a stage loads through its inbox");
  if (values.inbox !== undefined) return { bucket: values.inbox };
  if (values.stage === undefined) return undefined;
  const stage = deployedStage(values.stage);
  return {
    bucket: await readStageParameter(stageParameterNames.inboxBucketName(stage)),
    stateMachine: await readStageParameter(stageParameterNames.ingestStateMachineArn(stage)),
  };
}

/**
 * Through the inbox: upload, then wait for the ingest's report; a refusal, a failure, or an
 * execution that ended without a report exits 1.
 */
async function loadThroughInbox(
  file: LocalLoadFile,
  mode: LoadMode,
  { bucket, stateMachine }: Inbox,
  allowShrink: boolean,
): Promise<void> {
  // The ingest would refuse it: refused here, before it is uploaded.
  if (file.size > MAX_OBJECT_BYTES) throw new DataFileError(file.path, null, overMaximum(file.size));
  const s3 = inboxClient();
  const sfn = stateMachine === undefined ? undefined : new SFNClient({});
  try {
    const uploadedAt = new Date();
    const key = inboxKey(file.path, mode, uploadedAt);
    const object = await upload(s3, file, bucket, key, { allowShrink });
    const execution = sfn && stateMachine && new IngestExecution(sfn, stateMachine, object, uploadedAt);
    const where = `s3://${bucket}/${object.key} (version ${object.versionId})`;
    say(`uploaded ${file.path} to ${where}; waiting for the ingest's report`);
    const interrupt = new AbortController();
    const stop = () => interrupt.abort();
    process.once("SIGINT", stop).once("SIGTERM", stop);
    const report = await waitForReport(new InboxStore(s3), object, {
      ...(execution ? { execution } : {}),
      signal: interrupt.signal,
      onWaiting: (seconds) => {
        if (seconds > 0 && seconds % 60 < 2) say(`still waiting (${seconds} s)`);
      },
    }).catch((error: unknown) => {
      if (error instanceof NoReportError) throw new OutcomeLine(`failed: ${error.message}`);
      if (!interrupt.signal.aborted) throw error;
      // Ctrl-C stops the waiting: the ingest on AWS goes on regardless.
      throw new OutcomeLine(
        `stopped waiting; the ingest goes on, its report will be s3://${bucket}/${reportKey(object)}`,
      );
    });
    if (report.status !== "applied") throw new OutcomeLine(reportLine(report));
    if (report.cleanupDeferred) say(cleanupNote(report.cleanupDeferred));
    print(reportLine(report));
  } finally {
    s3.destroy();
    sfn?.destroy();
  }
}

async function loadHere(file: LocalLoadFile, mode: LoadMode, values: CommandLine<typeof OPTIONS>["values"]) {
  const endpoint = localEndpoint(urlOption("endpoint", values.endpoint));
  const started = performance.now();
  const { client, table } = await openDirectoryTable({
    endpoint,
    ...(values.table === undefined ? {} : { table: values.table }),
  });
  // A local engine started by hand is empty: create the default tables if they are missing. A table
  // named by --table must exist (openDirectoryTable checked): a mistyped name creates nothing.
  if (values.table === undefined) await createTables(client, LOCAL_TABLE_NAMES);
  try {
    const directory = dynamoDirectory(documentClientFor(client), table);
    // Ctrl-C (or a TERM) stops it, while reading or between `apply` calls: the load is undone and
    // its lease released. So does a kill of the npm that ran it, which would otherwise leave this
    // process loading on its own.
    const interrupt = new AbortController();
    const stop = () => interrupt.abort(new Error("interrupted"));
    process.once("SIGINT", stop).once("SIGTERM", stop);
    const unwatch = watchCommand(() =>
      interrupt.abort(new Error("the command running this load was killed")),
    );
    const summary = await loadFile(file, mode, directory, {
      onProgress: progress(),
      signal: interrupt.signal,
      allowShrink: values["allow-shrink"] ?? false,
    }).finally(unwatch);
    if (summary.cleanupDeferred) say(cleanupNote(summary.cleanupDeferred));
    print(appliedLine(file.path, summary, performance.now() - started));
  } finally {
    client.destroy();
  }
}

/** The mode of a file given no `--mode`: changes when its first line is a change line, else merge. */
async function modeOf(file: LocalLoadFile): Promise<LoadMode> {
  if (!(await startsWithChangeLine(file.bytes))) return "merge";
  say(`treating ${file.path} as a changes file (its first line is a change line); give --mode to choose`);
  return "changes";
}

async function main({ values, positionals }: CommandLine<typeof OPTIONS>): Promise<void> {
  const [file, extra] = positionals;
  if (!file) throw new UsageError("FILE is required");
  if (extra !== undefined) throw new UsageError(`unexpected argument ${quoted(extra)}: one FILE at a time`);
  const givenMode = choiceOption("mode", values.mode, LOAD_MODES);
  const allowShrink = values["allow-shrink"] ?? false;
  if (allowShrink && givenMode !== "snapshot")
    throw new UsageError("--allow-shrink applies to --mode snapshot");
  if (values.stage !== undefined) deployedStage(values.stage);
  if (values.endpoint !== undefined) urlOption("endpoint", values.endpoint);
  // Opened once, before any connection: an unreadable file, a FIFO or a device is refused at once,
  // and every pass reads what was opened here.
  const opened = await openLoadFile(file);
  try {
    const mode = givenMode ?? (await modeOf(opened));
    const inbox = await inboxOf(values);
    if (inbox === undefined) await loadHere(opened, mode, values);
    else await loadThroughInbox(opened, mode, inbox, allowShrink);
  } finally {
    await opened.close();
  }
}

cli({ name: "load", usage: USAGE, options: OPTIONS, positionals: true }, main, {
  describeFailure: (error) => {
    if (error instanceof OutcomeLine) return error.message;
    return error instanceof DataFileError ||
      error instanceof LoadInProgressError ||
      error instanceof MissingTableError
      ? `refused, nothing changed: ${error.message}`
      : `failed, nothing changed: ${refusedConnectionLine(error) ?? failureLine(error)}`;
  },
});
