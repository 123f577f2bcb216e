/**
 * Which directory table a command-line tool works on: a deployed stage's (its name from the
 * stage's SSM parameter) or a local engine's (`--endpoint`, else the running `npm start`'s, default
 * table `directory`).
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { endpointsFile, readEndpoints } from "../local/endpoints-file.js";
import { localClient } from "../local/engines.js";
import { LOCAL_TABLE_NAMES } from "../local/service.js";
import { stageParameterNames } from "../stages.js";
import { deployedStage, readStageParameter } from "./stage-resources.js";

export interface TableFlags {
  readonly stage?: string;
  readonly endpoint?: string;
  /** Overrides the stage's or the local default table name. */
  readonly table?: string;
}

/** DynamoDB Local's own default, for an engine started by hand. */
const DEFAULT_ENDPOINT = "http://127.0.0.1:8000";

/** The running `npm start`'s DynamoDB URL (said on stderr), or undefined when none runs. */
export function runningEngine(): string | undefined {
  const running = readEndpoints(endpointsFile())?.dynamodb;
  if (running) process.stderr.write(`using the DynamoDB of the running npm start: ${running}\n`);
  return running;
}

/** A local tool's engine: `--endpoint`, else the running `npm start`'s, else DEFAULT_ENDPOINT. */
export function localEndpoint(flag: string | undefined): string {
  return flag ?? runningEngine() ?? DEFAULT_ENDPOINT;
}

/**
 * A refused connection's failure line, with what to do about it; undefined for other failures. Read
 * from the message, which the SDK keeps when it wraps the error (as it does for one from another realm).
 */
export function refusedConnectionLine(error: unknown): string | undefined {
  const message = (error as { message?: unknown } | null)?.message;
  const refused = typeof message === "string" ? /connect ECONNREFUSED \S+/.exec(message) : null;
  if (!refused) return undefined;
  return `${refused[0]}: start \`npm start\`, or pass --endpoint with the URL on its \`DynamoDB:\` line`;
}

export async function openDirectoryTable(
  flags: TableFlags,
): Promise<{ client: DynamoDBClient; table: string; local: boolean }> {
  if (flags.stage) {
    const stage = deployedStage(flags.stage);
    // The tools' own retries cover batches; the SDK's cover throttled single calls.
    const client = new DynamoDBClient({ maxAttempts: 10 });
    const table = flags.table ?? (await readStageParameter(stageParameterNames.directoryTableName(stage)));
    return { client, table, local: false };
  }
  const client = localClient(localEndpoint(flags.endpoint));
  return { client, table: flags.table ?? LOCAL_TABLE_NAMES.directory, local: true };
}
