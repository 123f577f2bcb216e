/**
 * A directory table of its own for each crash or race of a suite, on the suite's engine, holding a
 * scenario's state before; and what a partner would see on it.
 */
import { DeleteTableCommand } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DataFile } from "../../lib/directory/source.js";
import { loadData } from "../../lib/load/load-file.js";
import { createTables } from "../../lib/store/create-tables.js";
import { dynamoDirectory } from "../../lib/store/dynamo/index.js";
import { verifyDirectory } from "../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import type { DirectoryState } from "../../lib/store/memory/memory-directory.js";
import type { EngineContext } from "../support/engines.js";
import { memoryReaderOf, searchAnswers } from "./load-scenario.js";

export interface LoadTable {
  readonly table: string;
  readonly documents: DynamoDBDocumentClient;
  /** Searches on the table equal those on `state` (read at the committed generation, uncached). */
  expectState(state: DirectoryState): Promise<void>;
  /** verify passes: every invariant of docs/data-model.md holds. */
  expectVerified(): Promise<void>;
  drop(): Promise<void>;
}

let tables = 0;

/** A new directory table on the suite's engine, loaded with `before` (a snapshot load, in process). */
export async function loadTable(context: EngineContext, before: DataFile): Promise<LoadTable> {
  tables += 1;
  const table = `${context.tables.directory}-t${tables}`;
  const names = { directory: table, keys: `${table}-keys` };
  await createTables(context.client, names);
  const documents = documentClientFor(context.client);
  await loadData(before, dynamoDirectory(documents, table, { writer: { graceMs: 0 } }), "snapshot");
  const reader = dynamoDirectory(documents, table, { reader: { manifestTtlMs: 0 } });
  return {
    table,
    documents,
    async expectState(state) {
      expect(await searchAnswers(reader)).toEqual(await searchAnswers(memoryReaderOf(state)));
    },
    async expectVerified() {
      const report = await verifyDirectory(documents, table);
      expect(report.problem).toBeUndefined();
    },
    async drop() {
      await Promise.allSettled(
        Object.values(names).map((TableName) => context.client.send(new DeleteTableCommand({ TableName }))),
      );
    },
  };
}
