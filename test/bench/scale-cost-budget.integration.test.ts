/**
 * Read-cost regression test of the scale structures (counted orders, scope orders, name
 * postings), on a small skewed dataset: the scale profile's mix (lib/bench/scale-mix.ts) under its
 * keys of 1, 50 and every company, with the keys' scopes kept before the dataset's snapshot, as
 * the bench runs it. Each query must stay at or under its budget in scale-cost-budget.json (consumed capacity is
 * deterministic), every unfiltered, page and range search must cost at most 1.5 × its page
 * plus 5 RCU, in 3 round trips at most, whatever its key's scope, a search by 3+ letters of a
 * name (employees of a company, persons over a kept scope) at most twice its rarest trigram's
 * candidates plus its page, and one with a fragment of 1 or 2 letters at most 100 RCU. After an
 * optimization:
 *
 *   COST_BUDGET_UPDATE=1 npm run jest -- test/bench/scale-cost-budget.integration.test.ts
 *
 * rewrites the budgets with the measured values (review the diff before committing it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { type BenchContext, benchPrincipal, openBench } from "../../lib/bench/bench-context.js";
import { buildDataset, type DatasetOptions, recordsPerCompany } from "../../lib/bench/dataset.js";
import { timedRun } from "../../lib/bench/measure.js";
import { queryCandidateUnits, queryFloor } from "../../lib/bench/query-floor.js";
import { companiesBySize, scaleKeys } from "../../lib/bench/scale-keys.js";
import { scaleMix } from "../../lib/bench/scale-mix.js";
import { hasShortFragment } from "../../lib/bench/short-fragments.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";

const BUDGET_FILE = new URL("./scale-cost-budget.json", import.meta.url);

interface BudgetFile {
  dataset: DatasetOptions;
  engine: "dynalite";
  /** "query (key of N)" → RCU consumed by the real search, all calls included. */
  budgets: Record<string, number>;
}

const budgetFile = JSON.parse(readFileSync(BUDGET_FILE, "utf8")) as BudgetFile;
const dataset = buildDataset(budgetFile.dataset);
const keys = scaleKeys(
  companiesBySize(dataset.summary.companyIds, recordsPerCompany(dataset.data.employees)),
);
const queries = scaleMix(dataset, keys).map((query) => ({
  ...query,
  label: `${query.name} (key of ${query.key.length})`,
}));
const measured: Record<string, number> = {};
const BOUNDED_KINDS = new Set(["unfiltered", "page", "range"]);

let engine: Engine | undefined;
let context: BenchContext | undefined;

beforeAll(async () => {
  engine = await startDynalite();
  context = await openBench(engine.client(), engine.client(), dataset, "scale-cost", {
    naive: false,
    scopes: keys,
    mode: "snapshot",
  });
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

describe(`read cost of the scale mix (${dataset.summary.records} records, ${dataset.summary.companies} Zipf-sized companies, dynalite)`, () => {
  it("runs keys of 1, 50 and every company, and has a budget for each query of the mix", () => {
    expect(keys.map((key) => key.length)).toEqual([1, 50, dataset.summary.companies]);
    if (process.env.COST_BUDGET_UPDATE === "1") return;
    expect(Object.keys(budgetFile.budgets).sort()).toEqual(queries.map((q) => q.label).sort());
  });

  it.each(queries.map((query) => [query.label, query] as const))(
    "%s stays within its budget",
    async (label, query) => {
      const keyed = { ...bench(), principal: benchPrincipal(query.key) };
      // The first search of a scope in a generation also finds where the scope lives (one small
      // Query of the registry, one round trip); the reader remembers it, as the bench's warm-up does.
      const cold = await timedRun(keyed, query, "real");
      const first = await timedRun(keyed, query, "real");
      const second = await timedRun(keyed, query, "real");
      expect(second.rcu).toBe(first.rcu);
      expect(cold.rcu - first.rcu).toBeLessThanOrEqual(0.5);
      expect(cold.roundTrips - first.roundTrips).toBeLessThanOrEqual(1);
      measured[label] = first.rcu;
      expect(first.rcu).toBeGreaterThan(0);
      if (process.env.COST_BUDGET_UPDATE !== "1")
        expect(first.rcu).toBeLessThanOrEqual(budgetFile.budgets[label] ?? 0);
      const floor = queryFloor(dataset, keyed.principal.companies, query, first.response);
      if (BOUNDED_KINDS.has(query.kind)) {
        expect(first.rcu).toBeLessThanOrEqual(1.5 * floor.page + 5);
        expect(first.roundTrips).toBeLessThanOrEqual(3);
      }
      if (query.kind !== "name") return;
      // By a fragment of 1 or 2: its own gram's census and postings, then the page, whatever the scope.
      if (hasShortFragment(query.body)) return expect(first.rcu).toBeLessThanOrEqual(100);
      // By a fragment of 3+: one trigram's postings (a company's, or a kept scope's), then the page.
      const candidates = queryCandidateUnits(dataset, keyed.principal.companies, query);
      if (candidates !== null) expect(first.rcu).toBeLessThanOrEqual(2 * candidates + floor.page);
    },
  );
});
