/**
 * Searches running all through a load whose DynamoDB calls are throttled (docs/data-format.md,
 * "All or nothing, for searches too"): the loader's client meets ProvisionedThroughputExceeded
 * and partial batches (UnprocessedItems, UnprocessedKeys), the searches' client meets throttled
 * reads; every search answers whole, equal in total and page to the state before the file or after
 * it, never a mix, and each one begun 2 s after the flip (one manifest cache of 1 s, plus margin)
 * equals the state after. A fault that does not clear up fails a search; it never answers a part.
 * The searches ask, in turn, the production reader (its answer cache included) and one that keeps
 * no answers and so reads every time.
 *
 * Faults are injected inside each client's retry loop, as a throttling service would answer; the
 * number of faulty attempts per call is bounded below each retry budget, so the load and the
 * searches must get through, on every seed (LOAD_TEST_SEED=N repeats a run).
 */
import { isDeepStrictEqual } from "node:util";
import { ProvisionedThroughputExceededException } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ConfiguredRetryStrategy } from "@smithy/core/retry";
import { DemoRandom } from "../../lib/directory/demo-random.js";
import { loadFile } from "../../lib/load/load-file.js";
import { localClient } from "../../lib/local/engines.js";
import { MANIFEST_TTL_MS } from "../../lib/store/dynamo/model/timing.js";
import { dynamoDirectoryReader } from "../../lib/store/dynamo/read/reader.js";
import { dynamoDirectoryWriter } from "../../lib/store/dynamo/write/load-session.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import type { DirectoryState } from "../../lib/store/memory/memory-directory.js";
import type { DirectoryReader } from "../../lib/store/port.js";
import { describeEachEngine, itByTurns } from "../support/engines.js";
import { memoryReaderOf, type Scenario, type Search, scenario, searches } from "./load-scenario.js";
import { loadTable } from "./load-tables.js";

const SEED = Number(process.env.LOAD_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** After the flip, searches begun this much later must see it: the reader caches the manifest 1 s. */
const VISIBLE_AFTER_MS = 2_000;
const SEARCHERS = 2;
/** An answer as its JSON says it (what toEqual compares), for comparing many answers quietly. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const throttled = () =>
  new ProvisionedThroughputExceededException({
    message: "Rate of requests exceeds the allowed throughput",
    $metadata: { httpStatusCode: 400 },
  });

interface Faults {
  /** Chance that an attempt is throttled, while the call has throttled attempts left. */
  throttle: number;
  /** Throttled attempts a call may meet: below the client's retry budget, or the fault persists. */
  perCall: number;
  /** Chance that a batch call gets back half its items unprocessed. */
  partial: number;
}

/** Where a batch call lists its items: a BatchWriteItem's requests, or a BatchGetItem's keys. */
const BATCH_LISTS: Readonly<Record<string, "RequestItems" | "Keys">> = {
  BatchWriteItemCommand: "RequestItems",
  BatchGetItemCommand: "Keys",
};

/**
 * A batch call's one table cut in two: the first half goes back unprocessed, the rest is sent.
 * Undefined when there is nothing to cut.
 */
function splitBatch(batch: "RequestItems" | "Keys", requestItems: Record<string, unknown>) {
  const [table, requests] = Object.entries(requestItems)[0] ?? [];
  if (table === undefined) return undefined;
  const list = (batch === "Keys" ? (requests as { Keys: unknown[] }).Keys : requests) as unknown[];
  const cut = Math.floor(list.length / 2);
  if (cut === 0) return undefined;
  const within = (part: unknown[]) => (batch === "Keys" ? { ...(requests as object), Keys: part } : part);
  return { table, kept: within(list.slice(cut)), unprocessed: within(list.slice(0, cut)) };
}

/**
 * Throttling inside the client's retry loop (each attempt of a call may meet it), and partial
 * batches: half the items of a BatchWriteItem or keys of a BatchGetItem are never sent and are
 * handed back unprocessed, as DynamoDB does under load (always the first batch that can be split).
 */
function injectFaults(
  client: DynamoDBDocumentClient,
  faults: () => Faults,
  rng: DemoRandom,
  onPublished?: () => void,
): { throttled: number; partial: number } {
  const injected = { throttled: 0, partial: 0 };
  const attempts = new WeakMap<object, number>();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const tries = (attempts.get(context) ?? 0) + 1;
      attempts.set(context, tries);
      const { throttle, perCall } = faults();
      if (tries <= perCall && rng.chance(throttle)) {
        injected.throttled += 1;
        throw throttled();
      }
      const result = await next(args);
      const input = args.input as { UpdateExpression?: string };
      if (context.commandName === "UpdateItemCommand" && input.UpdateExpression?.includes("committed ="))
        onPublished?.();
      return result;
    },
    { step: "deserialize", priority: "high", name: "throttleFaults" },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const batch = BATCH_LISTS[String(context.commandName)];
      const { partial } = faults();
      // The first batch that can be split is, whatever the draw (while partial batches are on):
      // the searches make few of them (a filtered page of records), and each must be seen to
      // survive one.
      if (!batch || partial === 0 || (injected.partial > 0 && !rng.chance(partial))) return next(args);
      // Here, outside the document client's marshalling, input and output hold plain values.
      const input = args.input as { RequestItems: Record<string, unknown> };
      const split = splitBatch(batch, input.RequestItems);
      if (!split) return next(args);
      injected.partial += 1;
      const result = await next({
        ...args,
        input: { ...input, RequestItems: { [split.table]: split.kept } },
      });
      const output = result.output as Record<string, unknown>;
      output[batch === "Keys" ? "UnprocessedKeys" : "UnprocessedItems"] = {
        [split.table]: split.unprocessed,
      };
      return result;
    },
    { step: "initialize", priority: "high", name: "partialBatches" },
  );
  return injected;
}

/**
 * The SDK's retries with backoffs of milliseconds instead of its second and up after a throttle:
 * what is under test is what the load and the searches do with faults, not the wait (which, over
 * the load's thousands of calls, came to minutes).
 */
const quickRetries = (maxAttempts: number) =>
  new ConfiguredRetryStrategy(maxAttempts, (attempt) => 5 * 2 ** attempt);

/** The load the searches run through: whether it is still on, and when it flipped (if it has). */
interface LoadInProgress {
  loading: boolean;
  readonly publishedAt: () => number | undefined;
}

/**
 * The searches, the readers they ask (in turn, a pass over the searches each), each one's answers
 * before and after the file, and what was seen.
 */
interface SearchesThroughLoad {
  readonly all: readonly Search[];
  readonly readers: readonly DirectoryReader[];
  readonly before: readonly unknown[];
  readonly after: readonly unknown[];
  readonly seen: { before: number; after: number; afterFlip: number };
}

const stateAnswered = (answer: unknown, before: unknown, after: unknown) => {
  if (isDeepStrictEqual(answer, after)) return "after";
  return isDeepStrictEqual(answer, before) ? "before" : "neither before nor after";
};

/**
 * One searcher: every SEARCHERS-th search from `first`, round and round, while the load runs. Each
 * answer is the state before or after, and after once the flip is VISIBLE_AFTER_MS old.
 */
async function searchThroughLoad(first: number, load: LoadInProgress, through: SearchesThroughLoad) {
  for (let i = first; load.loading; i += SEARCHERS) {
    const which = i % through.all.length;
    const search = through.all[which];
    const reader = through.readers[Math.floor(i / through.all.length) % through.readers.length];
    if (!search || !reader) throw new Error("no search");
    const startedAt = performance.now();
    const answer = plain(await search(reader));
    const state = stateAnswered(answer, through.before[which], through.after[which]);
    const publishedAt = load.publishedAt();
    const flipped = publishedAt !== undefined && startedAt >= publishedAt + VISIBLE_AFTER_MS;
    const expected = flipped || state === "after" ? "after" : "before";
    expect({ which, flipped, state }).toEqual({ which, flipped, state: expected });
    through.seen[flipped ? "afterFlip" : expected] += 1;
  }
}

/** Every search, asked once more of each reader, answers the state after the file. */
async function expectEveryAnswerAfter({ all, readers, after }: SearchesThroughLoad) {
  for (const reader of readers)
    for (const [which, search] of all.entries())
      expect({ which, answer: await search(reader) }).toEqual({ which, answer: after[which] });
}

describeEachEngine(`searches during a throttled load (LOAD_TEST_SEED=${SEED})`, (getEngine, engineName) => {
  const it = itByTurns(SEED, engineName);
  let sc: Scenario;

  beforeAll(async () => {
    sc = await scenario(SEED, { records: 100, added: 100 });
  });
  afterAll(async () => {
    await sc?.dispose();
  });

  it("every search answers the state before or after, never a mix, and after once the flip is 2 s old", async () => {
    expect(MANIFEST_TTL_MS + 1_000).toBeLessThanOrEqual(VISIBLE_AFTER_MS);
    const rng = new DemoRandom(SEED);
    const { engine } = getEngine();
    const t = await loadTable(getEngine(), sc.before);
    const loaderClient = localClient(engine.endpoint, 10, { retryStrategy: quickRetries(10) });
    const searchClient = localClient(engine.endpoint, 3, { retryStrategy: quickRetries(3) });
    try {
      const all = searches();
      const answersOf = (state: DirectoryState) =>
        Promise.all(all.map(async (search) => plain(await search(memoryReaderOf(state)))));
      const [before, after] = [await answersOf(sc.beforeState), await answersOf(sc.afterState)];

      // The loader: the CLI's retry budget on AWS (10 attempts), throttled and cut often, at most
      // 2 throttles a call.
      const loaderDocuments = documentClientFor(loaderClient);
      let publishedAt: number | undefined;
      const loaderFaults = injectFaults(
        loaderDocuments,
        () => ({ throttle: 0.15, perCall: 2, partial: 0.2 }),
        rng,
        () => {
          publishedAt = performance.now();
        },
      );
      // The searches: the functions' retry budget (3 attempts), the production manifest cache.
      // One attempt of each call may be throttled: the other two are left for what a busy local
      // engine does by itself (a dropped keep-alive socket).
      let readFaults: Faults = { throttle: 0.3, perCall: 1, partial: 0.3 };
      const searchDocuments = documentClientFor(searchClient);
      const searchFaults = injectFaults(searchDocuments, () => readFaults, new DemoRandom(SEED + 1));
      // Two readers, asked in turn: the production one, whose answer cache answers a search again
      // from memory until the flip, and one that keeps no answers, so that reads (and the faults
      // they meet) go on all through the load.
      const reader = dynamoDirectoryReader(searchDocuments, t.table);
      const reading = dynamoDirectoryReader(searchDocuments, t.table, { answerCacheBytes: 0 });

      const load: LoadInProgress = { loading: true, publishedAt: () => publishedAt };
      const through: SearchesThroughLoad = {
        all,
        readers: [reader, reading],
        before,
        after,
        seen: { before: 0, after: 0, afterFlip: 0 },
      };
      const searchers = Array.from({ length: SEARCHERS }, (_, i) => searchThroughLoad(i, load, through));
      const writer = dynamoDirectoryWriter(loaderDocuments, t.table);
      try {
        await loadFile(sc.file("changes"), "changes", writer);
      } finally {
        load.loading = false;
        await Promise.all(searchers);
      }
      expect(publishedAt).toBeDefined();
      // The faults happened: the loader and the searches went through them.
      expect(loaderFaults.throttled).toBeGreaterThan(0);
      expect(loaderFaults.partial).toBeGreaterThan(0);
      expect(searchFaults.throttled).toBeGreaterThan(0);
      expect(searchFaults.partial).toBeGreaterThan(0);
      expect(through.seen.before).toBeGreaterThan(0);
      // The load returns 2.5 s after its flip: every search from now on sees the file.
      await expectEveryAnswerAfter(through);

      // A fault that never clears up fails the search: no page, whole or partial. Asked of the
      // reader that keeps no answers: the production one has these answers at this generation and
      // gives them whole without reading.
      readFaults = { throttle: 1, perCall: Number.POSITIVE_INFINITY, partial: 0 };
      for (const search of all.slice(0, 3)) await expect(search(reading)).rejects.toThrow();
      readFaults = { throttle: 0, perCall: 0, partial: 0 };
      await expectEveryAnswerAfter(through);
      await t.expectVerified();
    } finally {
      loaderClient.destroy();
      searchClient.destroy();
      await t.drop();
    }
  });
});
