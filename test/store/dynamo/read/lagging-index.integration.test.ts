/**
 * Eventually consistent reads on AWS (docs/data-model.md, "Eventually consistent reads"): a search
 * reads the manifest strongly consistent and everything else eventually consistent, the byPhone
 * index always so. Faked here by two lagging copies of the table: every read a search makes with
 * ConsistentRead off is answered from the first, every byPhone Query from the second, each as the
 * table was when it was last copied. A load runs; at random moments of its writes one copy or the
 * other catches up, and at others every search is asked (the load waits meanwhile, so the moment
 * is exact). Both copies catch up before the flip passes, as the ingest's wait before the flip
 * (`settleMs`) lets DynamoDB's replicas and index do: every answer must then be the state before
 * the load or after it, never a mix. With the index still as before the load at the flip, the
 * same fake makes phone searches at the new generation miss its changes: the fake lags.
 */
import { isDeepStrictEqual } from "node:util";
import { DeleteTableCommand } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DemoRandom } from "../../../../lib/directory/demo-random.js";
import { normalizePhone } from "../../../../lib/directory/phone.js";
import { loadFile } from "../../../../lib/load/load-file.js";
import { localClient } from "../../../../lib/local/engines.js";
import { createTables } from "../../../../lib/store/create-tables.js";
import {
  batchWrite,
  type Item,
  keyOf,
  keyText,
  type WriteRequest,
} from "../../../../lib/store/dynamo/model/batch.js";
import { dynamoDirectoryReader } from "../../../../lib/store/dynamo/read/reader.js";
import { dynamoDirectoryWriter } from "../../../../lib/store/dynamo/write/load-session.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import type { DirectoryState } from "../../../../lib/store/memory/memory-directory.js";
import type { DirectoryReader } from "../../../../lib/store/port.js";
import { COMPANIES } from "../../../load/load-harness.js";
import {
  memoryReaderOf,
  type Scenario,
  type Search,
  scenario,
  searches,
} from "../../../load/load-scenario.js";
import { type LoadTable, loadTable } from "../../../load/load-tables.js";
import { describeEachEngine, type EngineContext, itByTurns } from "../../../support/engines.js";
import { tableItems } from "../../../support/table-items.js";

const SEED = Number(process.env.LOAD_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/**
 * The scenario's searches; each company's employees by the two phones its changes move; and, so
 * that the file surely changes a phone search (a record the index lags on), the company and phone
 * of the first record the file adds with a usable phone.
 */
function allSearches(sc: Scenario): Search[] {
  const byPhone =
    (company: string, phone: string): Search =>
    (reader) =>
      reader.employees({
        filter: { companies: new Set([company]), phone },
        created: {},
        offset: 0,
        limit: 500,
      });
  const list = searches();
  for (const company of COMPANIES)
    for (const phone of ["5550102030", "5554045060"]) list.push(byPhone(company, phone));
  const added = [...sc.afterState.employees].flatMap(([id, record]) => {
    const phone = record.contact.phone === null ? undefined : normalizePhone(record.contact.phone);
    return sc.beforeState.employees.has(id) || !phone?.ok ? [] : [byPhone(record.companyId, phone.digits)];
  });
  if (added[0] === undefined) throw new Error("the scenario adds no record with a usable phone");
  list.push(added[0]);
  return list;
}

/** A copy of the directory table as of its last `catchUp`, which writes only what differs. */
async function laggingCopy(
  context: EngineContext,
  documents: DynamoDBDocumentClient,
  table: string,
  name: string,
) {
  const names = { directory: name, keys: `${name}-keys` };
  await createTables(context.client, names);
  let held = new Map<string, { item: Item; json: string }>();
  return {
    name,
    names,
    async catchUp() {
      const now = new Map<string, { item: Item; json: string }>();
      for (const item of await tableItems(documents, table).all())
        now.set(keyText(keyOf(item)), {
          item,
          json: JSON.stringify(item, (_, v) => (v instanceof Uint8Array ? [...v] : v)),
        });
      const writes: WriteRequest[] = [];
      for (const [key, { item, json }] of now) if (held.get(key)?.json !== json) writes.push({ put: item });
      for (const [key, { item }] of held) if (!now.has(key)) writes.push({ delete: keyOf(item) });
      await batchWrite(documents, name, writes);
      held = now;
    },
  };
}
type LaggingCopy = Awaited<ReturnType<typeof laggingCopy>>;

/**
 * Reads of `table` with ConsistentRead off answered from `reads`, Queries of an index from
 * `index`: what an eventually consistent replica and a lagging global secondary index give.
 */
function readLagging(documents: DynamoDBDocumentClient, table: string, reads: string, index: string) {
  documents.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as Record<string, unknown>;
      if (input.TableName === table && input.ConsistentRead !== true)
        return next({ ...args, input: { ...input, TableName: input.IndexName ? index : reads } });
      const batch = (input.RequestItems as Record<string, { ConsistentRead?: boolean }> | undefined)?.[table];
      if (!batch || batch.ConsistentRead === true) return next(args);
      const result = await next({ ...args, input: { ...input, RequestItems: { [reads]: batch } } });
      renameTable(result.output as unknown as BatchOutput, reads, table);
      return result;
    },
    { step: "initialize" },
  );
}

type BatchOutput = Record<"Responses" | "UnprocessedKeys", Record<string, unknown> | undefined>;

/** A BatchGetItem's answer from table `from`, as if from table `to`. */
function renameTable(output: BatchOutput, from: string, to: string) {
  output.Responses = { [to]: output.Responses?.[from] ?? [] };
  const unprocessed = output.UnprocessedKeys?.[from];
  output.UnprocessedKeys = unprocessed ? { [to]: unprocessed } : {};
}

/**
 * The loader's calls held at two kinds of moment: `atFlip` runs around the flip (`pass` sends it
 * on), `beforeWrite` before each BatchWriteItem.
 */
function holdLoader(
  documents: DynamoDBDocumentClient,
  atFlip: (pass: () => Promise<unknown>) => Promise<unknown>,
  beforeWrite: () => Promise<void>,
) {
  documents.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { UpdateExpression?: string };
      if (context.commandName === "UpdateItemCommand" && input.UpdateExpression?.includes("committed ="))
        return (await atFlip(() => next(args))) as Awaited<ReturnType<typeof next>>;
      if (context.commandName === "BatchWriteItemCommand") await beforeWrite();
      return next(args);
    },
    { step: "initialize" },
  );
}

/** What every search answered at one moment: the state before, after, or neither (or a failure). */
type Seen = "before" | "after" | "neither" | "failed";

interface Run {
  /** Per moment of the load the searches were asked at: what each answered. */
  readonly moments: { readonly at: string; readonly seen: Seen[] }[];
}

describeEachEngine(
  `searches over a lagging index and replicas (LOAD_TEST_SEED=${SEED})`,
  (getEngine, engineName) => {
    const it = itByTurns(SEED, engineName);
    let sc: Scenario;
    let before: unknown[];
    let after: unknown[];
    let all: Search[] = [];

    beforeAll(async () => {
      sc = await scenario(SEED, { records: 50, added: 50 });
      all = allSearches(sc);
      const answersOf = (state: DirectoryState) =>
        Promise.all(all.map(async (search) => plain(await search(memoryReaderOf(state)))));
      [before, after] = [await answersOf(sc.beforeState), await answersOf(sc.afterState)];
    });
    afterAll(async () => {
      await sc?.dispose();
    });

    /** What one answer is: the state before, after, or neither. */
    const seenOf = (answer: unknown, which: number): Seen => {
      if (isDeepStrictEqual(answer, after[which])) return "after";
      return isDeepStrictEqual(answer, before[which]) ? "before" : "neither";
    };

    /** Every search asked of each reader: what each answered. */
    async function ask(readers: readonly DirectoryReader[]): Promise<Seen[]> {
      const seen: Seen[] = [];
      for (const reader of readers)
        for (const [which, search] of all.entries())
          seen.push(
            await search(reader).then(
              (answer) => seenOf(plain(answer), which),
              (): Seen => "failed",
            ),
          );
      return seen;
    }

    /**
     * The changes file loaded while the copies lag; both catch up before the flip passes, but the
     * index's when `indexLags` (it then stays as before the load until the load ends). The searches
     * are asked at random moments of the writes, just before and after the flip, and during the
     * clean-up.
     */
    async function loadLagging(indexLags: boolean): Promise<Run> {
      const context = getEngine();
      const rng = new DemoRandom(SEED + (indexLags ? 1 : 0));
      const t: LoadTable = await loadTable(context, sc.before);
      const loaderClient = localClient(context.engine.endpoint, 10);
      const searchClient = localClient(context.engine.endpoint, 3);
      const copies: LaggingCopy[] = [];
      try {
        const reads = await laggingCopy(context, t.documents, t.table, `${t.table}-r`);
        const index = await laggingCopy(context, t.documents, t.table, `${t.table}-i`);
        copies.push(reads, index);
        const catching = indexLags ? [reads] : copies;
        await reads.catchUp();
        await index.catchUp();
        const searchDocuments = documentClientFor(searchClient);
        readLagging(searchDocuments, t.table, reads.name, index.name);
        const readers = [
          dynamoDirectoryReader(searchDocuments, t.table, { manifestTtlMs: 0, answerCacheBytes: 0 }),
          dynamoDirectoryReader(searchDocuments, t.table),
        ];
        const run: Run = { moments: [] };
        const askAt = async (at: string) => {
          run.moments.push({ at, seen: await ask(readers) });
        };
        let published = false;
        let writes = 0;
        let catchUps = 0;
        let asks = 0;
        const loaderDocuments = documentClientFor(loaderClient);
        holdLoader(
          loaderDocuments,
          async (pass) => {
            for (const copy of catching) await copy.catchUp();
            await askAt("just before the flip");
            const result = await pass();
            published = true;
            await askAt("just after the flip");
            return result;
          },
          async () => {
            writes += 1;
            if (catchUps < 6 && rng.chance(0.1)) {
              catchUps += 1;
              await rng.pick(catching).catchUp();
            }
            if (asks < 4 && rng.chance(0.1)) {
              asks += 1;
              await askAt(`${published ? "clean-up" : "write"} ${writes}`);
            }
          },
        );
        const writer = dynamoDirectoryWriter(loaderDocuments, t.table, { graceMs: 0 });
        await loadFile(sc.file("changes"), "changes", writer);
        for (const copy of copies) await copy.catchUp();
        await askAt("caught up after the load");
        return run;
      } finally {
        loaderClient.destroy();
        searchClient.destroy();
        await t.drop();
        for (const copy of copies)
          for (const TableName of Object.values(copy.names))
            await context.client.send(new DeleteTableCommand({ TableName })).catch(() => undefined);
      }
    }

    it("every search answers the state before the load or after it, with the copies caught up by the flip", async () => {
      const run = await loadLagging(false);
      const wrong = run.moments.flatMap(({ at, seen }) =>
        seen.flatMap((state, i) =>
          state === "before" || state === "after" ? [] : [`${at}: search ${i} ${state}`],
        ),
      );
      expect(wrong).toEqual([]);
      const states = new Set(run.moments.flatMap(({ seen }) => seen));
      expect(states).toEqual(new Set(["before", "after"]));
      const last = run.moments.at(-1);
      expect(last?.seen.every((state) => state === "after")).toBe(true);
    });

    it("answers phone searches at the new generation without its changes when the index still lags at the flip", async () => {
      // The phone searches: the scenario's last, and those added here.
      const phone = all.map((_, i) => i).filter((i) => i >= searches().length - 1);
      const changed = phone.filter((i) => !isDeepStrictEqual(before[i], after[i]));
      expect(changed.length).toBeGreaterThan(0);
      const run = await loadLagging(true);
      const afterFlip = run.moments.find(({ at }) => at === "just after the flip")?.seen ?? [];
      // The production reader's answers follow the uncached one's: the first pass is enough.
      expect(changed.some((i) => afterFlip[i] !== "after")).toBe(true);
    });
  },
);
