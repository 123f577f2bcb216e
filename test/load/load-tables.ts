/**
 * A directory table of its own for each crash or race of a suite, on the suite's engine, holding a
 * scenario's state before; and what a partner would see on it. The state before is loaded once per
 * suite and engine, into a template table that each test's table copies item for item: a copy
 * makes the same bytes in a fraction of a load's calls and CPU.
 */
import { DeleteTableCommand } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DataFile } from "../../lib/directory/source.js";
import { loadData } from "../../lib/load/load-file.js";
import { createTables } from "../../lib/store/create-tables.js";
import { dynamoDirectory } from "../../lib/store/dynamo/index.js";
import { batchWrite } from "../../lib/store/dynamo/model/batch.js";
import { verifyDirectory } from "../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import type { DirectoryState } from "../../lib/store/memory/memory-directory.js";
import type { EngineContext } from "../support/engines.js";
import { tableItems } from "../support/table-items.js";
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

/** A new pair of tables (directory and keys) on the suite's engine, named after its own. */
async function newTables(context: EngineContext) {
  tables += 1;
  const table = `${context.tables.directory}-t${tables}`;
  const names = { directory: table, keys: `${table}-keys` };
  await createTables(context.client, names);
  return names;
}

/**
 * Per suite (its engine context) and state before (by content: a suite may build the same scenario
 * for each test): the template table holding it, loaded once.
 */
const templates = new WeakMap<EngineContext, Map<string, Promise<string>>>();

function templateOf(context: EngineContext, before: DataFile): Promise<string> {
  const ofSuite = templates.get(context) ?? new Map<string, Promise<string>>();
  templates.set(context, ofSuite);
  const content = JSON.stringify(before);
  let template = ofSuite.get(content);
  if (!template) {
    template = (async () => {
      const { directory } = await newTables(context);
      const documents = documentClientFor(context.client);
      await loadData(before, dynamoDirectory(documents, directory, { writer: { graceMs: 0 } }), "snapshot");
      return directory;
    })();
    ofSuite.set(content, template);
  }
  return template;
}

/**
 * A new directory table on the suite's engine holding `before`: a copy of the suite's template,
 * which a snapshot load (in process) filled the first time.
 */
export async function loadTable(context: EngineContext, before: DataFile): Promise<LoadTable> {
  const template = await templateOf(context, before);
  const names = await newTables(context);
  const table = names.directory;
  const documents = documentClientFor(context.client);
  const items = await tableItems(documents, template).all();
  await batchWrite(
    documents,
    table,
    items.map((item) => ({ put: item })),
  );
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
