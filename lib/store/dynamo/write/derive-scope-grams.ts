/**
 * Scope name postings (scope-postings.ts) as loads keep them. A chunk finds the kept scopes whose
 * postings are complete (`postedScopes`, posted-scopes.ts) and rewrites its persons' postings
 * there. A scope with no marker (new, rebuilt, or its marker deleted) is posted whole when a load
 * derives it (`buildScopePostings`): from its companies' persons names entries as the load left
 * them. Either way its gram blocks follow its postings (derive-gram-blocks.ts).
 */
import type { NamePair } from "../../../search/matching.js";
import type { OrderKey } from "../../binary-keys.js";
import { orderKeyParts } from "../../binary-keys.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  ALL_POSTINGS,
  betweenQuery,
  bytesOf,
  companyItemVisible,
  decodeNamePairs,
  encodeScopeMarker,
  FAMILY,
  genOf,
  gramMarkerSort,
  type Item,
  inParallel,
  keyOf,
  type PartitionKey,
  queryPages,
  type ScopeId,
  type ScopeMarker,
  scopePartition,
  Writes,
} from "../model/index.js";
import {
  censusItems,
  censusKeys,
  GramBlockCutter,
  GramCensus,
  markerAfter,
  repostPerson,
  scopeCensusWrites,
  scopeGramsOf,
  scopeNamePairs,
  scopePostingItems,
  scopeWork,
} from "../structures/index.js";
import { type ChunkContext, loadAt } from "./chunk-context.js";
import { gramBlockWrites, wholeGramBlockWrites } from "./derive-gram-blocks.js";
import { writeInPieces } from "./derive-orders.js";
import type { ChunkWriter } from "./load-chunk.js";
import { postedScope, scopePosted } from "./posted-scopes.js";

/** Scopes (and companies) read at once. */
const IN_FLIGHT = 16;
/** Persons posted per journal piece set while a scope is built or changed. */
const PERSONS_PER_WRITE = 500;
/**
 * Most companies a scope's marker lists as changed since the scope was built (a marker is read by
 * every load chunk, so it stays small); a change past it posts the scope whole again.
 */
const MAX_CHANGED_COMPANIES = 64;

/**
 * The persons with a record in any of these companies, as the load left them: their ids, from the
 * companies' person key entries (their orders are derived at commit, after this).
 */
async function personsOfCompanies(context: ChunkContext, companies: readonly string[]): Promise<string[]> {
  const lists = await inParallel(companies, IN_FLIGHT, async (companyId) =>
    (await context.reads.family(companyId, FAMILY.personKey, {}, loadAt(context))).map(
      (entry) => orderKeyParts(entry.order).id,
    ),
  );
  return [...new Set(lists.flat())].sort();
}

/**
 * A scope living in `home`'s partition changes from companies `from` to `to`: the postings of the
 * persons of the companies added or removed are rewritten (`repostPerson`), the census counted, and
 * the marker notes each such company's change at the load's generation. Everyone else's postings
 * stay as they are. Past MAX_CHANGED_COMPANIES changes since the scope was built, or when it is not
 * posted, the marker and census are superseded instead: the commit posts the scope whole.
 */
export async function changeScopePostings(
  context: ChunkContext,
  writer: ChunkWriter,
  home: ScopeId,
  from: readonly string[],
  to: readonly string[],
): Promise<void> {
  const { gen } = context;
  const p = scopePartition(home);
  writer.forgetBlocks();
  const posted = await postedScope(context, p, from);
  if (!posted) return;
  const next = new Set(to);
  const moved = [...new Set([...from, ...to])].filter(
    (company) => posted.companies.has(company) !== next.has(company),
  );
  const marker = markerAfter(posted.marker, moved, gen, MAX_CHANGED_COMPANIES);
  const markerKey = { p, s: gramMarkerSort(posted.markerGen) };
  if (!marker) {
    const writes = new Writes(gen);
    writes.supersede([markerKey], posted.markerGen);
    writes.supersede(censusKeys(p, posted.census.gen, posted.census.parts), posted.census.gen);
    await writeInPieces(writer, writes);
    return;
  }
  const scope = scopeWork(posted);
  const persons = await personsOfCompanies(context, moved);
  for (let i = 0; i < persons.length; i += PERSONS_PER_WRITE) {
    const batch = persons.slice(i, i + PERSONS_PER_WRITE);
    const bundles = await inParallel(batch, IN_FLIGHT, (id) => context.reads.bundle(id, loadAt(context)));
    const writes = new Writes(gen);
    for (const stored of bundles) if (stored) repostPerson(writes, scope, next, stored);
    await writeInPieces(writer, writes);
  }
  // The blocks, census and marker together: one journal entry, when they fit.
  const writes = await gramBlockWrites(context, p, scope.deltas, posted.census.census, {
    stored: loadAt(context),
    written: true,
  });
  scopeCensusWrites(writes, [scope]);
  writes.supersede([markerKey], posted.markerGen);
  writes.put(markerItem(p, gen, marker));
  await writeInPieces(writer, writes);
}

const markerItem = (p: PartitionKey, gen: number, marker: ScopeMarker): Item => ({
  [A.partition]: p,
  [A.sort]: gramMarkerSort(gen),
  [A.data]: encodeScopeMarker(marker),
});

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

/**
 * Postings, gram blocks and a census left visible in a scope without a marker (one being rebuilt)
 * are superseded.
 */
async function supersedeLeftovers(context: ChunkContext, writer: ChunkWriter, p: PartitionKey) {
  const pages = queryPages(context.client, betweenQuery(context.table, { p, ...ALL_POSTINGS }, true));
  for await (const page of pages) {
    const writes = new Writes(context.gen);
    for (const item of page)
      if (companyItemVisible(item, context)) writes.supersede([keyOf(item)], genOf(keyOf(item).s));
    await writeInPieces(writer, writes);
  }
  const stored = await context.reads.grams.census(p, loadAt(context));
  if (!stored) return;
  const writes = new Writes(context.gen);
  writes.supersede(censusKeys(p, stored.gen, stored.parts), stored.gen);
  await writeInPieces(writer, writes);
}

/**
 * Posts a scope whole, when it has no marker: every person with a named record in its companies,
 * then the census and the marker (from the flip on, its persons searches by name read them).
 */
export async function buildScopePostings(
  context: ChunkContext,
  writer: ChunkWriter,
  scope: { readonly home: ScopeId; readonly companies: readonly string[] },
): Promise<void> {
  if (await scopePosted(context, scope.home)) return;
  const { gen } = context;
  const p = scopePartition(scope.home);
  writer.forgetBlocks();
  await supersedeLeftovers(context, writer, p);
  const byPerson = await namesByPerson(context, scope.companies);
  const census = new GramCensus();
  const cutter = new GramBlockCutter(context.gramBlocks);
  const persons = [...byPerson.keys()].sort();
  for (let i = 0; i < persons.length; i += PERSONS_PER_WRITE) {
    const writes = new Writes(gen);
    for (const order of persons.slice(i, i + PERSONS_PER_WRITE)) {
      const pairs = scopeNamePairs(byPerson.get(order) ?? []);
      census.add(scopeGramsOf(pairs), 1);
      cutter.add(pairs, order);
      for (const item of scopePostingItems(p, pairs, order, gen)) writes.put(item);
    }
    await writeInPieces(writer, writes);
  }
  const writes = wholeGramBlockWrites(gen, p, cutter);
  for (const item of censusItems(p, gen, census)) writes.put(item);
  writes.put(markerItem(p, gen, { base: gen, changed: new Map() }));
  await writeInPieces(writer, writes);
}
