/**
 * Scope orders (docs/data-model.md, "Scope orders"): for each registered scope, the persons with a
 * record in any of its companies, as one counted order. A load derives again, after its companies'
 * orders, each scope that holds a company it changed: the union of those companies' persons orders
 * is compared with the scope's blocks and only the blocks that differ are written. Keeping a new
 * set of scopes registers the new ones (derived at commit) and supersedes the dropped ones whole,
 * unless a new one takes over a dropped one's partition (scope-homes.ts).
 */
import type { OrderKey } from "../../binary-keys.js";
import {
  companyPartition,
  FAMILY,
  inParallel,
  ORDER,
  type ScopeId,
  scopePartition,
  Writes,
} from "../model/index.js";
import {
  houseScopes,
  readScopes,
  registryItem,
  registryKey,
  scopeItems,
  scopesOf,
} from "../structures/index.js";
import { type ChunkContext, loadAt } from "./chunk-context.js";
import { orderWrites, writeInPieces } from "./derive-orders.js";
import { changeScopePostings } from "./derive-scope-grams.js";
import type { ChunkWriter } from "./load-chunk.js";
import { scopePosted } from "./posted-scopes.js";

/** Companies read at once while a scope is derived. */
const COMPANIES_IN_FLIGHT = 16;

/** A company's persons as the load left them: its persons order, or its entries if it has none. */
async function personsOfCompany(context: ChunkContext, companyId: string): Promise<OrderKey[]> {
  const at = loadAt(context);
  const { stored, blocks } = await context.reads.orders.whole(companyPartition(companyId), ORDER.persons, at);
  if (!stored)
    return (await context.reads.family(companyId, FAMILY.personKey, {}, at)).map((entry) => entry.order);
  return blocks.flat();
}

/** The sorted, distinct union of sorted lists. */
export function unionOfSorted(lists: readonly (readonly OrderKey[])[]): OrderKey[] {
  const all = lists.flat().sort();
  return all.filter((key, i) => i === 0 || key !== all[i - 1]);
}

/**
 * Each company's persons as the load left them, read once however many scopes hold the company
 * (the orders do not change once the companies' step is done).
 */
export function companyPersons(context: ChunkContext): (companyId: string) => Promise<OrderKey[]> {
  const read = new Map<string, Promise<OrderKey[]>>();
  return (companyId) => {
    let persons = read.get(companyId);
    if (!persons) {
      persons = personsOfCompany(context, companyId);
      read.set(companyId, persons);
    }
    return persons;
  };
}

/** Derives a scope's order again from its companies' persons (`personsOf`: companyPersons). */
export async function deriveScopeOrder(
  context: ChunkContext,
  writer: ChunkWriter,
  scope: { readonly home: ScopeId; readonly companies: readonly string[] },
  personsOf: (companyId: string) => Promise<OrderKey[]>,
): Promise<void> {
  const lists = await inParallel(scope.companies, COMPANIES_IN_FLIGHT, personsOf);
  const writes = await orderWrites(context, scopePartition(scope.home), ORDER.persons, unionOfSorted(lists));
  if (writes) await writeInPieces(writer, writes);
}

/** The registered scopes as of the load, by id. */
export async function scopesAtLoad(context: ChunkContext) {
  return readScopes(context.client, context.table, loadAt(context));
}

/**
 * Makes the registry hold exactly `lists`' scopes (homes as `houseScopes` says): new ones are
 * registered, a new one taking over a dropped scope's home has the postings of the persons of the
 * companies that differ rewritten now, and dropped ones no new one took over are superseded with
 * their order and postings. Returns the scopes the commit derives: the new ones (their orders,
 * and their postings when not posted), and the kept ones whose name postings are not complete
 * (their marker deleted, or being rebuilt).
 */
export async function keepScopes(
  context: ChunkContext,
  writer: ChunkWriter,
  lists: readonly (readonly string[])[],
): Promise<ScopeId[]> {
  const at = loadAt(context);
  const wanted = scopesOf(lists);
  const stored = await scopesAtLoad(context);
  const { added, dropped, replaced } = houseScopes(stored, wanted);
  const writes = new Writes(context.gen);
  for (const scope of added) writes.put(registryItem(scope.id, scope.companies, scope.home, context.gen));
  for (const { id, scope } of replaced) writes.supersede([registryKey(id, scope)], scope.gen);
  for (const { id, scope } of dropped)
    for (const { key, gen } of await scopeItems(context.client, context.table, id, scope, at))
      writes.supersede([key], gen);
  await writeInPieces(writer, writes);
  for (const { home, companies, from } of added)
    if (from) await changeScopePostings(context, writer, home, from.scope.companies, companies);
  const kept = [...wanted.keys()].filter((scopeId) => stored.has(scopeId));
  const unposted = await inParallel(kept, COMPANIES_IN_FLIGHT, async (scopeId) => {
    const home = stored.get(scopeId)?.home ?? scopeId;
    return (await scopePosted(context, home)) ? [] : [scopeId];
  });
  return [...added.map((scope) => scope.id), ...unposted.flat()];
}
