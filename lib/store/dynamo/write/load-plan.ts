/**
 * What one chunk of a load writes, worked out from what is stored (pure, so it is unit-tested
 * without an engine). New versions go in at the load's generation; the versions they replace are
 * stamped superseded (`x`), or deleted outright when this load wrote them itself.
 */
import type { SourceEmployee, SourcePerson } from "../../../directory/source.js";
import type { OrderKey } from "../../binary-keys.js";
import type { Bundle, Item, ItemKey, StoredBundle } from "../model/index.js";
import {
  bundleItems,
  bundleKeys,
  encodeLocation,
  idEntryItem,
  idEntryKey,
  itemKey,
  type Location,
  locationItem,
  locationOf,
  personEntriesText,
  personEntryItems,
  personOrder,
  recordEntryItems,
  recordEntryKeys,
  recordItem,
  recordKey,
  type StoredLocation,
  sameEntries,
  Writes,
} from "../model/index.js";
import {
  type PostedScope,
  rewritePersonPostings,
  type ScopeWork,
  scopeCensusWrites,
  scopeWork,
} from "../structures/index.js";

/** What is stored for the ids a chunk touches, as of the load's own generation. */
export interface ChunkInput {
  readonly gen: number;
  /** The chunk's final value per record id (null: deleted). */
  readonly records: ReadonlyMap<string, SourceEmployee | null>;
  /** The chunk's final value per person id (null: deleted). */
  readonly persons: ReadonlyMap<string, SourcePerson | null>;
  /** Locations of the chunk's records and of every record of a person whose order changes. */
  readonly locations: ReadonlyMap<string, StoredLocation | undefined>;
  /** Bundles of every person the chunk touches. */
  readonly bundles: ReadonlyMap<string, StoredBundle | undefined>;
  /** The kept scopes whose name postings are complete: a rewritten bundle's postings there follow. */
  readonly scopes: readonly PostedScope[];
}

export interface ChunkPlan {
  /** New versions at the load's generation, and location items. */
  readonly puts: Item[];
  /** Versions this load wrote earlier and replaces now. */
  readonly deletes: ItemKey[];
  /** Versions of earlier loads this load supersedes. */
  readonly stamps: ItemKey[];
  /** Versions of earlier loads replaced unstamped by a newer one of their key (a scope's census). */
  readonly replaced: ItemKey[];
  /** Record ids whose location item is written (the journal lists them for undo and clean-up). */
  readonly locations: string[];
  /** Per person touched: a record linking to them while they are missing, or null when none does. */
  readonly dangling: Map<string, string | null>;
  /** The chunk's changes that change what is stored: a record or person upserted as stored is not. */
  readonly changed: number;
  /** The posted scopes as the chunk left them: their postings' changes, for their gram blocks. */
  readonly scopes: readonly ScopeWork[];
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The persons a chunk touches: its own, and the old and new person of each changed record. */
export function touchedPersons(
  records: ReadonlyMap<string, SourceEmployee | null>,
  persons: ReadonlyMap<string, SourcePerson | null>,
  locations: ReadonlyMap<string, StoredLocation | undefined>,
): Set<string> {
  const touched = new Set(persons.keys());
  for (const [id, record] of records) {
    const old = locations.get(id)?.current?.personId;
    if (old) touched.add(old);
    if (record?.personId) touched.add(record.personId);
  }
  return touched;
}

/** Each touched person's bundle after the chunk: the person's new value and records re-gathered. */
export function nextBundles(
  input: Omit<ChunkInput, "gen" | "scopes">,
  touched: ReadonlySet<string>,
): Map<string, Bundle> {
  const next = new Map<string, Bundle>();
  for (const personId of touched) {
    const old = input.bundles.get(personId)?.bundle;
    const person = input.persons.has(personId)
      ? (input.persons.get(personId) ?? null)
      : (old?.person ?? null);
    const employees = new Map((old?.employees ?? []).map((record) => [record.id, record]));
    for (const [id, record] of input.records) {
      if (record?.personId === personId) employees.set(id, record);
      else employees.delete(id);
    }
    next.set(personId, { person, employees: [...employees.values()].sort(byId) });
  }
  return next;
}

/** Persons whose order key (createdAt, id; none when missing) changes: their records carry it. */
export function reorderedPersons(
  input: Omit<ChunkInput, "gen" | "scopes">,
  next: ReadonlyMap<string, Bundle>,
): string[] {
  const orderOf = (person: SourcePerson | null | undefined) => (person ? personOrder(person) : null);
  return [...next].flatMap(([id, bundle]) =>
    orderOf(input.bundles.get(id)?.bundle.person) === orderOf(bundle.person) ? [] : [id],
  );
}

/** The record's entries and id index entry, at their generation. */
const entryKeysOf = (id: string, location: Location): ItemKey[] => [
  ...recordEntryKeys(location),
  idEntryKey("employee", id, location.entries),
];

/**
 * A record's items written at the load's generation: its item always; its entries (key and names
 * entries, id entry) only when its company, order key or names change, else kept at theirs. The
 * location it then has.
 */
function writeRecordItems(
  writes: Writes,
  id: string,
  record: SourceEmployee | null,
  stored: StoredLocation | undefined,
  person: OrderKey | null,
): Location | undefined {
  const { gen } = writes;
  const before = stored?.current;
  const next = record ? locationOf(record, gen) : undefined;
  const kept = before !== undefined && next !== undefined && sameEntries(before, next);
  if (before && stored) {
    writes.supersede([recordKey(before, stored.gen)], stored.gen);
    if (!kept) writes.supersede(entryKeysOf(id, before), before.entries);
  }
  if (!record || !next) return undefined;
  if (kept) {
    writes.put(recordItem(record, gen, person, before.entries));
    return { ...next, entries: before.entries };
  }
  writes.put(recordItem(record, gen, person, gen));
  for (const item of [...recordEntryItems(record, gen), idEntryItem("employee", id, gen)]) writes.put(item);
  return next;
}

/**
 * A record written at the load's generation: its items, and its location with the committed value
 * before it, kept for readers and the undo (a location this load already rewrote, even one it
 * deleted in an earlier chunk, keeps the previous it holds). Whether a location is written.
 */
function writeRecord(
  writes: Writes,
  id: string,
  record: SourceEmployee | null,
  stored: StoredLocation | undefined,
  person: OrderKey | null,
): boolean {
  const { gen } = writes;
  const location = writeRecordItems(writes, id, record, stored, person);
  const before = stored?.current;
  const previous =
    stored?.gen === gen ? stored.previous : before && { gen: stored.gen, data: encodeLocation(before) };
  if (!record && !previous) {
    // Created and deleted within this load (or never stored): no location to keep.
    if (!stored) return false;
    writes.supersede([itemKey(locationItem(id, gen, undefined, undefined))], gen);
    return true;
  }
  writes.put(locationItem(id, gen, location, previous));
  return true;
}

/** A person's entries in each of their companies and their id entry, at `entries`. */
function personEntryKeys(personId: string, bundle: Bundle, entries: number): ItemKey[] {
  if (!bundle.person) return [];
  return [
    ...personEntryItems(bundle.person, bundle.employees, entries).map(itemKey),
    idEntryKey("person", personId, entries),
  ];
}

/**
 * A bundle written at the load's generation; the person's entries only when they change (their
 * order key, or their names in a company, or the companies), else kept at their generation. Whether
 * they changed.
 */
function writeBundle(
  writes: Writes,
  personId: string,
  stored: StoredBundle | undefined,
  bundle: Bundle,
  gen: number,
): boolean {
  const old = stored?.bundle;
  const kept =
    stored !== undefined &&
    old?.person != null &&
    bundle.person !== null &&
    personEntriesText(old.person, old.employees) === personEntriesText(bundle.person, bundle.employees);
  if (stored) {
    writes.supersede(bundleKeys(personId, stored.gen, stored.parts), stored.gen);
    if (!kept) writes.supersede(personEntryKeys(personId, stored.bundle, stored.entries), stored.entries);
  }
  if (bundle.person === null && bundle.employees.length === 0) return !kept;
  const entries = kept ? stored.entries : gen;
  for (const item of bundleItems(personId, bundle, gen, entries)) writes.put(item);
  if (bundle.person && !kept)
    for (const item of [
      ...personEntryItems(bundle.person, bundle.employees, gen),
      idEntryItem("person", personId, gen),
    ])
      writes.put(item);
  return !kept;
}

/**
 * A chunk being planned: its input, the persons' next bundles, who is reordered, the posted scopes'
 * censuses as counted so far, and the writes so far.
 */
interface ChunkWork {
  readonly writes: Writes;
  readonly input: ChunkInput;
  readonly next: ReadonlyMap<string, Bundle>;
  readonly reordered: ReadonlySet<string>;
  readonly scopes: readonly ScopeWork[];
}

/** Records that changed, and the unchanged records of reordered persons (their items carry the order). */
function recordsToWrite({ input, next, reordered }: ChunkWork): Map<string, SourceEmployee | null> {
  const toWrite = new Map<string, SourceEmployee | null>();
  for (const [id, record] of input.records) {
    const unchanged = record && input.locations.get(id)?.current?.hash === locationOf(record, 0).hash;
    if (!unchanged) toWrite.set(id, record);
  }
  for (const personId of reordered) {
    for (const record of next.get(personId)?.employees ?? [])
      if (!toWrite.has(record.id)) toWrite.set(record.id, record);
  }
  return toWrite;
}

/** Writes the chunk's records; the ids whose location item is written. */
function writeRecords(work: ChunkWork) {
  const { writes, input, next } = work;
  const personOrderOf = (personId: string | null): OrderKey | null => {
    const person = personId === null ? null : next.get(personId)?.person;
    return person ? personOrder(person) : null;
  };
  const locations: string[] = [];
  for (const [id, record] of recordsToWrite(work)) {
    if (writeRecord(writes, id, record, input.locations.get(id), personOrderOf(record?.personId ?? null)))
      locations.push(id);
  }
  return locations;
}

/**
 * Writes the bundles that changed, with their persons' postings in the posted scopes where their
 * entries changed; per person, a record linking to them while they are missing.
 */
function writeBundles({ writes, input, next, reordered, scopes }: ChunkWork) {
  const dangling = new Map<string, string | null>();
  for (const [personId, bundle] of next) {
    const stored = input.bundles.get(personId);
    if (!stored || !sameJson(stored.bundle, bundle) || reordered.has(personId)) {
      if (writeBundle(writes, personId, stored, bundle, input.gen))
        rewritePersonPostings(writes, scopes, stored, bundle);
    }
    dangling.set(personId, bundle.person === null ? (bundle.employees[0]?.id ?? null) : null);
  }
  scopeCensusWrites(writes, scopes);
  return dangling;
}

/** How many of the chunk's records and persons differ from what is stored (a delete: if stored). */
function changedCount(input: ChunkInput): number {
  let changed = 0;
  for (const [id, record] of input.records) {
    const current = input.locations.get(id)?.current;
    if (record ? current?.hash !== locationOf(record, 0).hash : current !== undefined) changed += 1;
  }
  for (const [personId, person] of input.persons)
    if (!sameJson(input.bundles.get(personId)?.bundle.person ?? null, person)) changed += 1;
  return changed;
}

/**
 * The writes of one chunk. `input.locations` must hold every record of a reordered person
 * (see `reorderedPersons`): their record items carry the person's order key and are rewritten.
 */
export function planChunk(input: ChunkInput): ChunkPlan {
  const touched = touchedPersons(input.records, input.persons, input.locations);
  const next = nextBundles(input, touched);
  const reordered = new Set(reorderedPersons(input, next));
  const writes = new Writes(input.gen);
  const work: ChunkWork = { writes, input, next, reordered, scopes: input.scopes.map(scopeWork) };
  const locations = writeRecords(work);
  const dangling = writeBundles(work);
  return {
    puts: [...writes.puts.values()],
    deletes: [...writes.deletes.values()],
    stamps: [...writes.stamps.values()],
    replaced: [...writes.replaced.values()],
    locations,
    dangling,
    changed: changedCount(input),
    scopes: work.scopes,
  };
}
