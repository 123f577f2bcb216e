/**
 * Read-cost regression test. Consumed capacity is deterministic for a dataset, so each query of
 * the benchmark's mix, on a small seeded dataset on dynalite, must stay at or under its committed
 * budget in cost-budget.json. After an optimization lowers the cost, lower the budgets:
 *
 *   COST_BUDGET_UPDATE=1 npm run jest -- test/bench/cost-budget.test.ts
 *
 * rewrites the file with the measured values (review the diff before committing it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { type BenchContext, openBench } from "../../lib/bench/bench-context.js";
import { buildDataset } from "../../lib/bench/dataset.js";
import { timedRun } from "../../lib/bench/measure.js";
import { queryFloor } from "../../lib/bench/query-floor.js";
import { queryMix } from "../../lib/bench/query-mix.js";
import { assertSameAnswer } from "../../lib/bench/query-runner.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";

const BUDGET_FILE = new URL("./cost-budget.json", import.meta.url);

interface BudgetFile {
  dataset: { records: number; companies: number; seed: number };
  engine: "dynalite";
  /** Query name → RCU consumed by the real search, all calls included. */
  budgets: Record<string, number>;
}

const budgetFile = JSON.parse(readFileSync(BUDGET_FILE, "utf8")) as BudgetFile;
const dataset = buildDataset(budgetFile.dataset);
const queries = queryMix(dataset);
const measured: Record<string, number> = {};

let engine: Engine | undefined;
let context: BenchContext | undefined;

// Loading both designs takes about 10 s on a quiet machine and over a minute on a busy one.
beforeAll(async () => {
  engine = await startDynalite();
  context = await openBench(engine.client(), engine.client(), dataset, "cost");
});

afterAll(async () => {
  if (process.env.COST_BUDGET_UPDATE === "1") {
    const updated: BudgetFile = { ...budgetFile, budgets: measured };
    writeFileSync(BUDGET_FILE, `${JSON.stringify(updated, null, 2)}\n`);
  }
  await engine?.stop();
});

function bench(): BenchContext {
  if (!context) throw new Error("the engine or the tables could not be set up (see beforeAll)");
  return context;
}

describe(`read cost of the query mix (${dataset.summary.records} records, ${dataset.summary.companies} companies, dynalite)`, () => {
  it("has a budget for every query of the mix, and no budget for a query that is gone", () => {
    if (process.env.COST_BUDGET_UPDATE === "1") return;
    expect(Object.keys(budgetFile.budgets).sort()).toEqual(queries.map((q) => q.name).sort());
  });

  it.each(queries.map((query) => [query.name, query] as const))(
    "%s stays within its budget",
    async (_, query) => {
      const first = await timedRun(bench(), query, "real");
      const second = await timedRun(bench(), query, "real");
      // Deterministic: the same reads every time, so a budget can be exact.
      expect(second.rcu).toBe(first.rcu);
      measured[query.name] = first.rcu;
      expect(first.rcu).toBeGreaterThan(0);
      if (process.env.COST_BUDGET_UPDATE !== "1")
        expect(first.rcu).toBeLessThanOrEqual(budgetFile.budgets[query.name] ?? 0);
      // Near the cheapest design possible, whatever the budget file says.
      const floor = queryFloor(bench().dataset, bench().principal.companies, query, first.response);
      expect(first.rcu).toBeLessThanOrEqual(1.25 * floor.total);
    },
  );

  it.each(queries.map((query) => [query.name, query] as const))(
    "the naive yardstick answers %s exactly as the search does",
    async (_, query) => {
      const real = await timedRun(bench(), query, "real");
      const naive = await timedRun(bench(), query, "naive");
      expect(() => assertSameAnswer(query, real.response, naive.response)).not.toThrow();
      // The yardstick reads whole records of every company in scope: never cheaper.
      expect(naive.rcu).toBeGreaterThanOrEqual(real.rcu);
    },
  );
});
