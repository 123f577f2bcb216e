/**
 * Scope name postings (scope-postings.ts) as loads keep them. A chunk finds the kept scopes whose
 * postings are complete (`postedScopes`) and rewrites its persons' postings there. A scope with no
 * marker (new, or kept before postings existed) is posted whole when a load derives it
 * (`buildScopePostings`): from its companies' persons names entries as the load left them.
 */
import type { NamePair } from "../../search/matching.js";
import type { OrderKey } from "../binary-keys.js";
import { DIRECTORY_ATTR as A } from "../tables.js";
import { betweenQuery, bytesOf, inParallel, keyOf, queryPages } from "./batch.js";
import { decodeNamePairs, emptyValue } from "./codec.js";
import { writeInPieces } from "./derive-orders.js";
import {
  ALL_POSTINGS,
  FAMILY,
  genOf,
  gramMarkerSort,
  type PartitionKey,
  type ScopeId,
  scopePartition,
} from "./layout.js";
import type { ChunkContext, ChunkWriter } from "./load-chunk.js";
import { Writes } from "./load-plan.js";
import { censusItems, censusKeys, GramCensus } from "./name-grams.js";
import type { ReadAt } from "./reads.js";
import { type PostedScope, scopeGramsOf, scopeNamePairs, scopePostingItems } from "./scope-postings.js";
import { readScopes } from "./scope-registry.js";
import { companyItemVisible } from "./versions.js";

/** Scopes (and companies) read at once. */
const IN_FLIGHT = 16;
/** Persons posted per journal piece set while a scope is built. */
const PERSONS_PER_WRITE = 500;

const loadAt = (context: ChunkContext): ReadAt => ({ gen: context.gen, consistent: true });

/** The kept scopes whose postings are complete as of the load, with their markers and censuses. */
export async function postedScopes(context: ChunkContext): Promise<PostedScope[]> {
  const at = loadAt(context);
  const registered = await readScopes(context.client, context.table, at);
  const found = await inParallel([...registered], IN_FLIGHT, async ([scopeId, scope]) => {
    const p = scopePartition(scopeId);
    const [markerGen, census] = await Promise.all([
      context.reads.grams.markerGen(p, at),
      context.reads.grams.census(p, at),
    ]);
    if (markerGen === undefined) return undefined;
    if (!census) throw new Error(`scope ${scopeId} has a postings marker but no names census`);
    return { p, companies: new Set(scope.companies), markerGen, census };
  });
  return found.filter((scope) => scope !== undefined);
}

/** Whether a scope's postings are complete as of the load. */
export async function scopePosted(context: ChunkContext, scopeId: ScopeId): Promise<boolean> {
  return context.reads.grams.covered(scopePartition(scopeId), loadAt(context));
}

/** Each person's names entries' lists in the scope's companies, as the load left them. */
async function namesByPerson(context: ChunkContext, companies: readonly string[]) {
  const byPerson = new Map<OrderKey, NamePair[][]>();
  await inParallel(companies, IN_FLIGHT, async (companyId) => {
    for (const entry of await context.reads.family(companyId, FAMILY.personNames, {}, loadAt(context))) {
      const lists = byPerson.get(entry.order) ?? [];
      lists.push(decodeNamePairs(bytesOf(entry.item[A.data])));
      byPerson.set(entry.order, lists);
    }
  });
  return byPerson;
}

/** Postings and a census left visible in a scope without a marker (one being rebuilt) are superseded. */
async function supersedeLeftovers(context: ChunkContext, writer: ChunkWriter, p: PartitionKey) {
  const pages = queryPages(context.client, betweenQuery(context.table, { p, ...ALL_POSTINGS }, true));
  for await (const page of pages) {
    const writes = new Writes(context.gen);
    for (const item of page)
      if (companyItemVisible(item, context.gen)) writes.supersede([keyOf(item)], genOf(keyOf(item).s));
    await writeInPieces(writer, writes);
  }
  const stored = await context.reads.grams.census(p, loadAt(context));
  if (!stored) return;
  const writes = new Writes(context.gen);
  writes.supersede(censusKeys(p, stored.gen, stored.chunks), stored.gen);
  await writeInPieces(writer, writes);
}

/**
 * Posts a scope whole, when it has no marker: every person with a named record in its companies,
 * then the census and the marker (from the flip on, its persons searches by name read them).
 */
export async function buildScopePostings(
  context: ChunkContext,
  writer: ChunkWriter,
  scope: { readonly id: ScopeId; readonly companies: readonly string[] },
): Promise<void> {
  if (await scopePosted(context, scope.id)) return;
  const { gen } = context;
  const p = scopePartition(scope.id);
  await supersedeLeftovers(context, writer, p);
  const byPerson = await namesByPerson(context, scope.companies);
  const census = new GramCensus();
  const persons = [...byPerson.keys()].sort();
  for (let i = 0; i < persons.length; i += PERSONS_PER_WRITE) {
    const writes = new Writes(gen);
    for (const order of persons.slice(i, i + PERSONS_PER_WRITE)) {
      const pairs = scopeNamePairs(byPerson.get(order) ?? []);
      census.add(scopeGramsOf(pairs), 1);
      for (const item of scopePostingItems(p, pairs, order, gen)) writes.put(item);
    }
    await writeInPieces(writer, writes);
  }
  const writes = new Writes(gen);
  for (const item of censusItems(p, gen, census)) writes.put(item);
  writes.put({ [A.partition]: p, [A.sort]: gramMarkerSort(gen), [A.data]: emptyValue() });
  await writeInPieces(writer, writes);
}
