/**
 * Which directory table a command-line tool works on: a deployed stage's (its name from the
 * stage's SSM parameter) or a local engine's (`--endpoint`, default table `directory`).
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
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

export const DEFAULT_ENDPOINT = "http://127.0.0.1:8000";

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
  const client = localClient(flags.endpoint ?? DEFAULT_ENDPOINT);
  return { client, table: flags.table ?? LOCAL_TABLE_NAMES.directory, local: true };
}
