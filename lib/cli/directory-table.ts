/**
 * Which directory table a command-line tool works on: a deployed stage's (its name from the
 * stage's SSM parameter) or a local engine's (`--endpoint`, else the running `npm start`'s, default
 * table `directory`).
 */
import { DescribeTableCommand, DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { LOCAL_TABLE_NAMES } from "../local/config.js";
import { endpointsFile, readEndpoints } from "../local/endpoints-file.js";
import { localClient } from "../local/engines.js";
import { stageParameterNames } from "../stages.js";
import { deployedStage, readStageParameter } from "./stage-resources.js";
import { say } from "./terminal-text.js";

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
  if (running) say(`using the DynamoDB of the running npm start: ${running}`);
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

/** `--table` names a table that is not there: refused before anything is read or created. */
export class MissingTableError extends Error {}

/** Throws MissingTableError unless `table` exists; locally, the message lists the tables there are. */
async function requireTable(client: DynamoDBClient, table: string, local: boolean): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: table }));
  } catch (error) {
    if ((error as { name?: unknown }).name !== "ResourceNotFoundException") throw error;
    const names = local ? ((await client.send(new ListTablesCommand({}))).TableNames ?? []) : [];
    const there = local ? `; the engine has ${names.length === 0 ? "no tables" : names.join(", ")}` : "";
    throw new MissingTableError(`--table: no table ${JSON.stringify(table)}${there}`);
  }
}

export async function openDirectoryTable(
  flags: TableFlags,
): Promise<{ client: DynamoDBClient; table: string; local: boolean }> {
  const local = !flags.stage;
  let client: DynamoDBClient;
  let table: string;
  if (flags.stage) {
    const stage = deployedStage(flags.stage);
    // The tools' own retries cover batches; the SDK's cover throttled single calls.
    client = new DynamoDBClient({ maxAttempts: 10 });
    table = flags.table ?? (await readStageParameter(stageParameterNames.directoryTableName(stage)));
  } else {
    client = localClient(localEndpoint(flags.endpoint));
    table = flags.table ?? LOCAL_TABLE_NAMES.directory;
  }
  if (flags.table !== undefined)
    await requireTable(client, table, local).catch((error: unknown) => {
      client.destroy();
      throw error;
    });
  return { client, table, local };
}
