/**
 * Runs an integration suite against both local engines:
 *
 *   describeEachEngine("keys repository", (getEngine) => {
 *     it("…", async () => { const { client, tables } = getEngine(); … });
 *   });
 *
 * Each suite gets fresh, uniquely named tables created from lib/store/tables.ts. dynalite runs in
 * this test file's process (one per file); DynamoDB Local is the one jest globalSetup started.
 */
import { DeleteTableCommand, type DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { attachEngine, type Engine, type EngineName, startDynalite } from "../../lib/local/engines.js";
import { createTables } from "../../lib/store/create-tables.js";
import { TABLES, type TableId } from "../../lib/store/tables.js";
import { DDB_LOCAL_ENV } from "./ddblocal-lifecycle.js";

export interface EngineContext {
  readonly engine: Engine;
  /** engine.client(), destroyed (like every client of engine) after the suite. */
  readonly client: DynamoDBClient;
  /** Physical table names of this suite. */
  readonly tables: Readonly<Record<TableId, string>>;
}

const ENGINE_NAMES: readonly EngineName[] = ["dynalite", "ddblocal"];

let dynalite: Promise<Engine> | undefined;

// Registered when a test file imports this module, so at its top level: stops that file's dynalite
// after all of its suites.
afterAll(async () => {
  const started = dynalite;
  dynalite = undefined;
  await (await started)?.stop();
});

/** A handle on an engine for one suite: its stop() destroys only the suite's clients. */
async function suiteEngine(name: EngineName): Promise<Engine> {
  if (name === "dynalite") {
    dynalite ??= startDynalite();
    return (await dynalite).handle();
  }
  const error = process.env[DDB_LOCAL_ENV.error];
  if (error) throw new Error(`DynamoDB Local could not be started by jest globalSetup: ${error}`);
  const started = process.env[DDB_LOCAL_ENV.endpoint];
  if (!started) {
    throw new Error(
      `${DDB_LOCAL_ENV.endpoint} is not set: run jest with test/support/global-setup.ts as globalSetup`,
    );
  }
  return attachEngine(name, started);
}

let suites = 0;

/** Table names unique across suites, test files and concurrent jest workers sharing DynamoDB Local. */
function tableNames(title: string): Record<TableId, string> {
  suites += 1;
  const slug = title.replace(/[^A-Za-z0-9_.-]+/g, "-").slice(0, 40);
  const unique = `${process.pid.toString(36)}${suites}${Math.random().toString(36).slice(2, 6)}`;
  const names: Partial<Record<TableId, string>> = {};
  for (const id of Object.keys(TABLES) as TableId[]) names[id] = `${slug}-${unique}-${id}`;
  return names as Record<TableId, string>;
}

/** The seed of a suite's turns when it has none of its own (TURN_SEED=N repeats a run). */
export const TURN_SEED = Number(process.env.TURN_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** `it` as a suite by turns declares it: one test, or one `each` table, on one engine. */
export type TurnIt = ((title: string, test: () => Promise<void>, timeoutMs?: number) => void) & {
  readonly each: typeof it.each;
};

/**
 * `it` for a suite whose every test costs whole loads: each test (an `each` table counts as one)
 * runs on one engine only, by turns from `seed`. A run meets both engines at half the cost, and
 * each test meets both over an even and an odd seed. Without DynamoDB Local, dynalite takes every
 * test.
 */
export function itByTurns(seed: number, engine: EngineName): TurnIt {
  let declared = 0;
  const next = () => {
    const mine = onTurn(declared, seed, engine);
    declared += 1;
    // Off its turn, skipped (and named so in the output): a suite's hooks run only for tests that run.
    return mine ? it : it.skip;
  };
  const byTurns = (title: string, test: () => Promise<void>, timeoutMs?: number) =>
    next()(title, test, timeoutMs);
  const each = ((...table: Parameters<typeof it.each>) => next().each(...table)) as typeof it.each;
  return Object.assign(byTurns, { each });
}

/**
 * A suite's share of `items` on `engine`, for a test whose parts cost whole loads: every other one,
 * from `seed`. Every run meets both engines, at the cost of one; each part meets both over an even
 * and an odd seed. Without DynamoDB Local, dynalite takes them all.
 */
export function sharedOut<T>(items: readonly T[], seed: number, engine: EngineName): T[] {
  return items.filter((_, i) => onTurn(i, seed, engine));
}

/** Whether the `index`-th test or part of a suite is `engine`'s, by turns from `seed`. */
function onTurn(index: number, seed: number, engine: EngineName): boolean {
  if (process.env[DDB_LOCAL_ENV.skipped]) return engine === "dynalite";
  return ENGINE_NAMES[Math.abs(index + seed) % ENGINE_NAMES.length] === engine;
}

/** Every table whose name starts with `prefix` and a dash. */
async function tablesNamedAfter(client: DynamoDBClient, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let start: string | undefined;
  do {
    const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
    found.push(...(page.TableNames ?? []).filter((name) => name.startsWith(`${prefix}-`)));
    start = page.LastEvaluatedTableName;
  } while (start);
  return found;
}

/**
 * Declares `title [dynalite]` and `title [ddblocal]`, each running `suite` on fresh tables. `suite`
 * is told which engine it declares for, to share costly tests out between the two.
 */
export function describeEachEngine(
  title: string,
  suite: (getEngine: () => EngineContext, name: EngineName) => void,
): void {
  for (const name of ENGINE_NAMES) {
    // Only a missing java skips DynamoDB Local; global-setup.ts prints the one line saying so.
    const skipped = name === "ddblocal" && Boolean(process.env[DDB_LOCAL_ENV.skipped]);
    (skipped ? describe.skip : describe)(`${title} [${name}]`, () => {
      let context: EngineContext | undefined;

      beforeAll(async () => {
        // A per-suite handle on the shared engine: its stop() destroys this suite's clients only.
        const engine = await suiteEngine(name);
        const client = engine.client();
        const tables = tableNames(title);
        context = { engine, client, tables };
        await createTables(client, tables);
      });

      afterAll(async () => {
        if (!context) return;
        const { engine, client, tables } = context;
        context = undefined;
        try {
          // DynamoDB Local lives for the whole run, so drop this suite's tables there, and the tables
          // its tests named after them (a test's copy it did not drop, a template). Best effort: a
          // table that was never created (failed setup) is not a second failure.
          const named = await tablesNamedAfter(client, tables.directory).catch(() => []);
          await Promise.allSettled(
            [...new Set([...Object.values(tables), ...named])].map((TableName) =>
              client.send(new DeleteTableCommand({ TableName })),
            ),
          );
        } finally {
          await engine.stop();
        }
      });

      suite(() => {
        if (!context) {
          throw new Error(
            "no engine: the suite's setup failed (see its error) or getEngine() ran in a describe body",
          );
        }
        return context;
      }, name);
    });
  }
}
