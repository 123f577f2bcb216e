/**
 * The counted orders against the entries they count (pure): an order with an index holds exactly
 * its company's visible key entries, in blocks the index names with their counts. A company with
 * no index is read from its entries, so that is allowed; a visible block no index names is not.
 */
import type { OrderKey } from "../../binary-keys.js";
import type { BlockRef } from "../model/index.js";
import { COMPANY_ORDERS, ORDER } from "../model/index.js";
import { entryKeyParts, orderBlockId, orderId, scopeOwner, type TableSurvey } from "./table-survey.js";
import type { Problem } from "./verify-rules.js";

/** Per order id, the keys of the entries it must hold, sorted. */
function expectedKeys(survey: TableSurvey): Map<string, OrderKey[]> {
  const expected = new Map<string, OrderKey[]>();
  for (const logical of survey.entries.keys()) {
    const { family, order, company } = entryKeyParts(logical);
    const counted = COMPANY_ORDERS.find(([, entries]) => entries === family);
    if (!counted) continue;
    const id = orderId(counted[0], company);
    const keys = expected.get(id) ?? [];
    keys.push(order);
    expected.set(id, keys);
  }
  for (const keys of expected.values()) keys.sort();
  // A scope's persons: every person of any of its companies, once.
  for (const [owner, scope] of survey.scopes) {
    const held = new Set(
      scope.companies.flatMap((company) => expected.get(orderId(ORDER.persons, company)) ?? []),
    );
    expected.set(orderId(ORDER.persons, owner), [...held].sort());
  }
  return expected;
}

const orderParts = (id: string) => ({
  family: Number(id.slice(0, id.indexOf("/"))),
  company: id.slice(id.indexOf("/") + 1),
});

/** What is wrong with a block, against its index entry and the last key before it. */
function blockProblem(keys: readonly OrderKey[], block: BlockRef, previous: OrderKey | undefined) {
  const [first] = keys;
  if (keys.length !== block.count || first === undefined)
    return `holds ${keys.length} keys where its index says ${block.count}`;
  if (first < block.low) return "holds a key below its low bound";
  if (previous !== undefined && previous >= block.low)
    return "its low bound is not above the block before it";
  return undefined;
}

function* orderProblems(survey: TableSurvey, id: string, expected: readonly OrderKey[]): Generator<Problem> {
  const stored = survey.orderIndexes.get(id);
  if (!stored) return;
  const { family, company } = orderParts(id);
  const held: OrderKey[] = [];
  for (const [i, block] of stored.index.entries()) {
    const found = survey.orderBlocks.get(orderBlockId(family, company, block.low, block.gen));
    if (!found) {
      yield { key: stored.key, what: `names block ${i} (generation ${block.gen}), which is not visible` };
      return;
    }
    const what = blockProblem(found.keys, block, held.at(-1));
    if (what) yield { key: found.key, what };
    held.push(...found.keys);
  }
  const differs = held.findIndex((key, i) => key !== expected[i]);
  if (differs >= 0 || held.length !== expected.length)
    yield {
      key: stored.key,
      what: `holds ${held.length} keys where ${company.startsWith(scopeOwner("")) ? "its companies' persons" : "the company's entries"} are ${expected.length}, first differing at position ${differs >= 0 ? differs : Math.min(held.length, expected.length)}`,
    };
}

/** A registered scope whose order is missing, or a scope order no registered scope owns. */
function scopeProblem(survey: TableSurvey, expected: ReadonlyMap<string, readonly OrderKey[]>) {
  for (const [owner, scope] of survey.scopes) {
    const id = orderId(ORDER.persons, owner);
    if (!survey.orderIndexes.has(id) && (expected.get(id) ?? []).length > 0)
      return { key: scope.key, what: "a scope with persons whose order has no visible index" };
  }
  for (const [id, stored] of survey.orderIndexes) {
    const { company: owner } = orderParts(id);
    if (owner.startsWith(scopeOwner("")) && !survey.scopes.has(owner))
      return { key: stored.key, what: "the order of a scope that is not registered" };
  }
  return undefined;
}

/**
 * The first order that does not hold what its entries say (a scope's: its companies' persons), a
 * registered scope without its order, an order of no registered scope, or a block no index names.
 */
export function checkOrders(survey: TableSurvey): Problem | undefined {
  const expected = expectedKeys(survey);
  const scoped = scopeProblem(survey, expected);
  if (scoped) return scoped;
  const named = new Set<string>();
  // Per block low an index names, the generation it names: a block written again at its low
  // replaces the one before unstamped, until that generation's clean-up.
  const newest = new Map<string, number>();
  for (const [id, stored] of survey.orderIndexes) {
    for (const problem of orderProblems(survey, id, expected.get(id) ?? [])) return problem;
    const { family, company } = orderParts(id);
    for (const block of stored.index) {
      named.add(orderBlockId(family, company, block.low, block.gen));
      newest.set(orderBlockId(family, company, block.low, 0), block.gen);
    }
  }
  for (const [id, block] of survey.orderBlocks) {
    if (named.has(id)) continue;
    const by = newest.get(`${id.slice(0, id.lastIndexOf("/"))}/0`);
    const gen = Number(id.slice(id.lastIndexOf("/") + 1));
    if (by === undefined || by < gen)
      return { key: block.key, what: "an order block no visible index names" };
    const stale = survey.replaced(by);
    if (stale) return { key: block.key, what: stale };
  }
  return undefined;
}
