/** The items one employee record or one person bundle is stored as, at a generation. */
import { createHash } from "node:crypto";
import { instantKey } from "../../../directory/instant-key.js";
import type { SourceEmployee, SourcePerson } from "../../../directory/source.js";
import { type NamePair, namesOf, phoneOf } from "../../../search/matching.js";
import { type OrderKey, orderKey, orderKeyBytes, phoneBytes } from "../../binary-keys.js";
import { hexOf } from "../../bytes.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { Item, ItemKey } from "./batch.js";
import {
  compress,
  compressInParts,
  decodeLocation,
  emptyValue,
  encodeLocation,
  encodeNamePairs,
  type Location,
} from "./codec.js";
import {
  bundleSort,
  companyPartition,
  entrySort,
  FAMILY,
  type Generation,
  type IdKind,
  idBucketOf,
  idEntrySort,
  idsPartition,
  isAbandoned,
  LOCATION_SORT,
  locationPartition,
  type PartitionKey,
  type PersonNameFamily,
  personPartition,
  type SortKey,
} from "./layout.js";
import type { Bundle } from "./shapes.js";

/** A compressed bundle larger than this is split over several items (an item holds 400 KB). */
const BUNDLE_PART_BYTES = 350_000;

export const employmentOrder = (record: SourceEmployee): OrderKey =>
  orderKey(instantKey(record.createdAt), record.id);
export const personOrder = (person: SourcePerson): OrderKey =>
  orderKey(instantKey(person.createdAt), person.id);
const isNamed = (names: NamePair) => names.firstName !== null || names.lastName !== null;

const hash16 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/**
 * Where a record is and what it holds, with `entries` the generation of its entries. A record whose
 * company, order key and normalized names stay keeps its entries (`sameEntries`): only its item
 * and location are written again.
 */
export function locationOf(record: SourceEmployee, entries: number): Location {
  const names = namesOf(record);
  return {
    companyId: record.companyId,
    order: employmentOrder(record),
    personId: record.personId,
    named: isNamed(names),
    hash: hash16(JSON.stringify(record)),
    names: hash16(JSON.stringify([names.firstName, names.lastName])),
    entries,
  };
}

/** Whether two locations call for the same entries: same company, order key and names. */
export const sameEntries = (a: Location, b: Location): boolean =>
  a.companyId === b.companyId && a.order === b.order && a.names === b.names;

/** The record item's key, at the generation of its location's value. */
export const recordKey = (location: Location, gen: number): ItemKey => ({
  p: companyPartition(location.companyId),
  s: entrySort(FAMILY.record, location.order, gen),
});

/** The record's entries in its company, at their generation: key entry, and names entry when named. */
export function recordEntryKeys(location: Location): ItemKey[] {
  const p = companyPartition(location.companyId);
  const families = [FAMILY.employmentKey, ...(location.named ? [FAMILY.employmentNames] : [])];
  return families.map((family) => ({ p, s: entrySort(family, location.order, location.entries) }));
}

/**
 * The record item (with what byPhone matches on, and `e`: the generation of its entries), at the
 * generation of its location's value.
 */
export function recordItem(
  record: SourceEmployee,
  gen: number,
  person: OrderKey | null,
  entries: number,
): Item {
  const names = namesOf(record);
  const phone = phoneOf(record);
  return {
    [A.partition]: companyPartition(record.companyId),
    [A.sort]: entrySort(FAMILY.record, employmentOrder(record), gen),
    [A.data]: compress(record),
    [A.entriesGen]: entries,
    ...(phone === null ? {} : { [A.phone]: phoneBytes(phone) }),
    ...(person === null ? {} : { [A.person]: orderKeyBytes(person) }),
    ...(names.firstName === null ? {} : { [A.firstName]: names.firstName }),
    ...(names.lastName === null ? {} : { [A.lastName]: names.lastName }),
  };
}

/** The record's key entry and, when it has a name, its names entry, at generation `entries`. */
export function recordEntryItems(record: SourceEmployee, entries: number): Item[] {
  const p = companyPartition(record.companyId);
  const order = employmentOrder(record);
  const names = namesOf(record);
  const items: Item[] = [
    { [A.partition]: p, [A.sort]: entrySort(FAMILY.employmentKey, order, entries), [A.data]: emptyValue() },
  ];
  if (isNamed(names))
    items.push({
      [A.partition]: p,
      [A.sort]: entrySort(FAMILY.employmentNames, order, entries),
      [A.data]: encodeNamePairs([names]),
    });
  return items;
}

const distinct = (pairs: Iterable<NamePair>): NamePair[] => [
  ...new Map([...pairs].map((pair) => [JSON.stringify(pair), pair])).values(),
];

/**
 * Per company of the person's records: what each names family holds (the distinct pairs, first
 * names, last names; empty lists mean no entry). A filter on one name reads only that name's
 * family: the other name's bytes are not billed; both names need the pairs (same employment).
 */
export function personNameLists(
  employees: readonly SourceEmployee[],
): Map<string, Map<PersonNameFamily, NamePair[]>> {
  const byCompany = new Map<string, NamePair[]>();
  for (const record of employees) {
    const names = byCompany.get(record.companyId) ?? [];
    byCompany.set(record.companyId, names);
    const pair = namesOf(record);
    if (isNamed(pair)) names.push(pair);
  }
  return new Map(
    [...byCompany].map(([companyId, pairs]) => [
      companyId,
      new Map<PersonNameFamily, NamePair[]>([
        [FAMILY.personNames, distinct(pairs)],
        [
          FAMILY.personFirstNames,
          distinct(
            pairs.flatMap(({ firstName }) => (firstName === null ? [] : [{ firstName, lastName: null }])),
          ),
        ],
        [
          FAMILY.personLastNames,
          distinct(
            pairs.flatMap(({ lastName }) => (lastName === null ? [] : [{ firstName: null, lastName }])),
          ),
        ],
      ]),
    ]),
  );
}

/** A person's entries in each of their companies: a key entry, and names entries when named. */
export function personEntryItems(
  person: SourcePerson,
  employees: readonly SourceEmployee[],
  gen: number,
): Item[] {
  const order = personOrder(person);
  return [...personNameLists(employees)].flatMap(([companyId, lists]) => {
    const p = companyPartition(companyId);
    const key = {
      [A.partition]: p,
      [A.sort]: entrySort(FAMILY.personKey, order, gen),
      [A.data]: emptyValue(),
    };
    const names = [...lists]
      .filter(([, list]) => list.length > 0)
      .map(([family, list]) => ({
        [A.partition]: p,
        [A.sort]: entrySort(family, order, gen),
        [A.data]: encodeNamePairs(list),
      }));
    return [key, ...names];
  });
}

/**
 * What a person's entries hold, whatever their generation: the same text for two bundles means
 * the same entries, which a load then keeps (only the bundle is written again).
 */
export function personEntriesText(person: SourcePerson | null, employees: readonly SourceEmployee[]): string {
  if (person === null) return "";
  return personEntryItems(person, employees, 0)
    .map(
      (item) =>
        `${hexOf(item[A.partition] as Uint8Array)} ${hexOf(item[A.sort] as Uint8Array)} ${hexOf(item[A.data] as Uint8Array)}`,
    )
    .join("\n");
}

export const itemKey = (item: Item): ItemKey => ({
  p: item[A.partition] as PartitionKey,
  s: item[A.sort] as SortKey,
});

/**
 * A bundle version's parts: the person and every record, compressed, split when large; each
 * with `e`, the generation of the person's entries (older than the bundle's when they stayed).
 */
export function bundleItems(
  personId: string,
  bundle: Bundle,
  gen: number,
  entries: number,
  partBytes = BUNDLE_PART_BYTES,
): Item[] {
  return compressInParts(bundle, partBytes).map((data, index, parts) => ({
    [A.partition]: personPartition(personId),
    [A.sort]: bundleSort(gen, index),
    [A.data]: data,
    [A.parts]: parts.length,
    [A.hasPerson]: bundle.person === null ? 0 : 1,
    [A.entriesGen]: entries,
  }));
}

/**
 * A stored id's entry in the id index, of the generation of the record's entries or of the
 * person's entries: written and superseded with them.
 */
export const idEntryKey = (kind: IdKind, id: string, gen: number): ItemKey => ({
  p: idsPartition(kind, idBucketOf(id)),
  s: idEntrySort(id, gen),
});
export function idEntryItem(kind: IdKind, id: string, gen: number): Item {
  const { p, s } = idEntryKey(kind, id, gen);
  return { [A.partition]: p, [A.sort]: s, [A.data]: emptyValue() };
}

export const bundleKeys = (personId: string, gen: number, parts: number): ItemKey[] =>
  Array.from({ length: parts }, (_, index) => ({ p: personPartition(personId), s: bundleSort(gen, index) }));

/** A location item: the current value (absent once deleted) at `gen`, and the value before it. */
export function locationItem(
  recordId: string,
  gen: number,
  current: Location | undefined,
  previous: { gen: number; data: Uint8Array } | undefined,
): Item {
  return {
    [A.partition]: locationPartition(recordId),
    [A.sort]: LOCATION_SORT,
    [A.gen]: gen,
    ...(current ? { [A.data]: encodeLocation(current) } : {}),
    ...(previous ? { [A.previousGen]: previous.gen, [A.previousData]: previous.data } : {}),
  };
}

/** A location item as read: the generation of its value, the value (absent once deleted), the one before. */
export interface StoredLocation {
  readonly gen: number;
  readonly current?: Location;
  readonly previous?: { readonly gen: number; readonly data: Uint8Array };
}

/** A location item as stored. */
export function storedLocation(item: Item): StoredLocation {
  const data = item[A.data];
  const previousData = item[A.previousData];
  const previousGen = item[A.previousGen];
  return {
    gen: item[A.gen] as number,
    ...(data instanceof Uint8Array ? { current: decodeLocation(data) } : {}),
    ...(previousData instanceof Uint8Array && typeof previousGen === "number"
      ? { previous: { gen: previousGen, data: previousData } }
      : {}),
  };
}

/**
 * A location item as seen at `at`. A value written by an abandoned generation (a paused loader
 * that woke after losing its lease) is not there: the value before it is the current one, or
 * there is none.
 */
export function locationSeenAt(item: Item, at: Generation): StoredLocation | undefined {
  const stored = storedLocation(item);
  if (!isAbandoned(stored.gen, at)) return stored;
  const previous = stored.previous;
  return previous && { gen: previous.gen, current: decodeLocation(previous.data) };
}
