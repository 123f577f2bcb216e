/**
 * Name postings of kept scopes (docs/data-model.md, "Scope name postings"), pure: in a scope's
 * partition, each person with a named record in any of its companies is posted under every gram
 * of their names there, with those names (`scopeNamePairs`), beside a census of how many persons
 * hold each gram and a marker that says the postings are complete.
 *
 * A posting's generation follows from its person's entries and the scope's marker
 * (`scopePostingGen`): the first build posts everyone at the marker's base generation, a scope
 * change rewrites the postings of the persons of the companies it adds or removes, and every load
 * that rewrites a person's entries rewrites their postings in each posted scope. So a load knows the
 * keys of the postings it replaces without reading them. Each change is also noted by gram and
 * order key (`ScopeWork.deltas`), for the scope's gram blocks (gram-blocks.ts) to count.
 */
import type { SourceEmployee } from "../../../directory/source.js";
import type { NamePair } from "../../../search/matching.js";
import type { OrderKey } from "../../binary-keys.js";
import { compareText } from "../../bytes.js";
import type { Bundle, StoredBundle, Writes } from "../model/index.js";
import {
  encodeNamePairs,
  FAMILY,
  type PartitionKey,
  personNameLists,
  personOrder,
  type ScopeMarker,
} from "../model/index.js";
import { GramDeltas } from "./gram-blocks.js";
import type { StoredGramCensus } from "./name-grams.js";
import {
  censusItems,
  censusKeys,
  type GramCensus,
  gramsOfPairs,
  postingItems,
  postingKey,
} from "./name-grams.js";

/** A kept scope whose postings are complete (its marker is visible), as a load finds it. */
export interface PostedScope {
  readonly p: PartitionKey;
  readonly companies: ReadonlySet<string>;
  readonly marker: ScopeMarker;
  readonly census: StoredGramCensus;
}

/**
 * The generation of a person's postings in a scope, from their stored bundle: the later of their
 * entries' (`gen`: the bundle's `e`) and the scope's build, or of the last change of a company the
 * person has a record in, when that change came after the entries (they were the same then, so the
 * change rewrote the person's postings; a later change of entries rewrote them itself).
 */
export function scopePostingGen(
  stored: { readonly gen: number; readonly employees: readonly { readonly companyId: string }[] },
  marker: ScopeMarker,
): number {
  let gen = Math.max(stored.gen, marker.base);
  for (const { companyId } of stored.employees) {
    const changed = marker.changed.get(companyId);
    if (changed !== undefined && changed > gen) gen = changed;
  }
  return gen;
}

/** A person's names in a scope: the distinct pairs of their named records in its companies. */
export function namesInScope(
  employees: readonly SourceEmployee[],
  companies: ReadonlySet<string>,
): NamePair[] {
  const lists: NamePair[][] = [];
  for (const [companyId, families] of personNameLists(employees))
    if (companies.has(companyId)) lists.push(families.get(FAMILY.personNames) ?? []);
  return scopeNamePairs(lists);
}

/** The same from persons names entries' lists (the first build reads those, not bundles). */
export function scopeNamePairs(lists: Iterable<readonly NamePair[]>): NamePair[] {
  const byText = new Map<string, NamePair>();
  for (const list of lists)
    for (const pair of list) byText.set(JSON.stringify([pair.firstName, pair.lastName]), pair);
  return [...byText].sort(([a], [b]) => compareText(a, b)).map(([, pair]) => pair);
}

/** The grams a person's names in a scope are posted under, as a record's in a company. */
export const scopeGramsOf = (pairs: readonly NamePair[]) => gramsOfPairs(pairs);

/** A person's postings in a scope, at generation `gen`. */
export const scopePostingItems = (
  p: PartitionKey,
  pairs: readonly NamePair[],
  order: OrderKey,
  gen: number,
) => postingItems(p, scopeGramsOf(pairs), order, gen, encodeNamePairs(pairs));

/**
 * A scope's marker once `moved` companies joined or left it at `gen`: each noted at `gen`; or
 * undefined past `maxChanged` companies changed since its build (the scope is posted whole again).
 */
export function markerAfter(
  marker: ScopeMarker,
  moved: readonly string[],
  gen: number,
  maxChanged: number,
): ScopeMarker | undefined {
  const changed = new Map(marker.changed);
  for (const company of moved) changed.set(company, gen);
  return changed.size > maxChanged ? undefined : { base: marker.base, changed };
}

/** A person's postings in a scope as stored (at `gen`) superseded, and the census counted down. */
function supersedePostings(
  writes: Writes,
  scope: ScopeWork,
  order: OrderKey,
  employees: readonly SourceEmployee[],
  gen: number,
): void {
  const pairs = namesInScope(employees, scope.companies);
  if (pairs.length === 0) return;
  const grams = scopeGramsOf(pairs);
  writes.supersede(
    grams.map((gram) => postingKey(scope.p, gram, order, gen)),
    gen,
  );
  scope.counts.add(grams, -1);
  scope.deltas.add(pairs, order, -1);
}

/** A person's postings in a scope put at `writes.gen`, counted into its census and blocks. */
function putPostings(writes: Writes, scope: ScopeWork, pairs: readonly NamePair[], order: OrderKey): void {
  for (const item of scopePostingItems(scope.p, pairs, order, writes.gen)) writes.put(item);
  const grams = scopeGramsOf(pairs);
  scope.counts.add(grams, 1);
  scope.deltas.add(pairs, order, 1);
}

/**
 * A scope's companies changed from `scope.companies` to `companies`: the postings of a person with
 * a record in a company added or removed rewritten at `writes.gen`, whether or not their names in
 * the scope changed (so `scopePostingGen` holds), and the census counted.
 */
export function repostPerson(
  writes: Writes,
  scope: ScopeWork,
  companies: ReadonlySet<string>,
  stored: StoredBundle,
): void {
  const { person, employees } = stored.bundle;
  if (!person) return;
  const order = personOrder(person);
  supersedePostings(
    writes,
    scope,
    order,
    employees,
    scopePostingGen({ gen: stored.entries, employees }, scope.marker),
  );
  const pairs = namesInScope(employees, companies);
  if (pairs.length > 0) putPostings(writes, scope, pairs, order);
}

/**
 * A posted scope as a chunk plans it: its census, counted as the chunk goes, and its postings'
 * changes by gram (its gram blocks are counted from them once the chunk is planned).
 */
export interface ScopeWork extends PostedScope {
  readonly counts: GramCensus;
  readonly deltas: GramDeltas;
}

export const scopeWork = (scope: PostedScope): ScopeWork => ({
  ...scope,
  counts: scope.census.census.copy(),
  deltas: new GramDeltas(),
});

/**
 * A person's entries rewritten at `writes.gen`: their postings in each posted scope replaced (the old
 * ones superseded at their generation, the new ones put), and each census counted.
 */
export function rewritePersonPostings(
  writes: Writes,
  scopes: readonly ScopeWork[],
  stored: StoredBundle | undefined,
  next: Bundle,
): void {
  const before = stored?.bundle.person;
  for (const scope of scopes) {
    if (stored && before) {
      const gen = scopePostingGen({ gen: stored.entries, employees: stored.bundle.employees }, scope.marker);
      supersedePostings(writes, scope, personOrder(before), stored.bundle.employees, gen);
    }
    if (next.person) {
      const pairs = namesInScope(next.employees, scope.companies);
      if (pairs.length > 0) putPostings(writes, scope, pairs, personOrder(next.person));
    }
  }
}

/** Each scope's census rewritten where the chunk changed its counts. */
export function scopeCensusWrites(writes: Writes, scopes: readonly ScopeWork[]): void {
  for (const { p, census, counts } of scopes) {
    if (counts.equals(census.census)) continue;
    writes.replace(censusKeys(p, census.gen, census.parts), census.gen);
    for (const item of censusItems(p, writes.gen, counts)) writes.put(item);
  }
}
