/**
 * Keys of the directory table (docs/data-model.md). Every derived item exists in versions: its sort
 * key ends with the generation (4 bytes, big-endian) of the load that wrote it, and a version
 * superseded by a later load carries that load's generation in `x`. A reader at generation C sees
 * exactly the versions with gen <= C < x: one state of the directory, whatever a load is doing.
 */

import { createHash } from "node:crypto";
import {
  type Brand,
  ORDER_KEY_BYTES,
  type OrderKey,
  orderKeyBytes,
  orderKeyOfBytes,
  readUuid,
  UUID_BYTES,
  writeUuid,
} from "../../binary-keys.js";
import { ByteReader, ByteWriter, FormatError, hexOf, utf8Bytes, utf8Of } from "../../bytes.js";

/** The partition key `p` of an item, made only by the functions below (or read from the table). */
export type PartitionKey = Brand<Uint8Array, "PartitionKey">;
/** The sort key `s` of an item, made only by the functions below (or read from the table). */
export type SortKey = Brand<Uint8Array, "SortKey">;

const partitionKey = (writer: ByteWriter) => writer.done() as PartitionKey;
const sortKey = (writer: ByteWriter) => writer.done() as SortKey;

const GEN_BYTES = 4;

/** A scope (a set of companies a key reads) by the hash of its sorted ids, in hex. */
export type ScopeId = Brand<string, "ScopeId">;
const SCOPE_ID_BYTES = 16;
/** 128 bits of SHA-256: two scopes sharing an id is as likely as guessing a random UUID. */
export function scopeIdOf(companies: Iterable<string>): ScopeId {
  const sorted = [...new Set(companies)].sort();
  return createHash("sha256")
    .update(sorted.join("\n"))
    .digest("hex")
    .slice(0, 2 * SCOPE_ID_BYTES) as ScopeId;
}

/** First byte of a company partition's sort key: which family an item belongs to. */
export const FAMILY = {
  /** One per employee record: createdAt and id. Counts and windows unfiltered employees searches. */
  employmentKey: 0x01,
  /** One per person of the company: the person's createdAt and id. Unfiltered persons searches. */
  personKey: 0x02,
  /** One per employee record, the record compressed; byPhone indexes these. Pages of employees. */
  record: 0x03,
  /** One per employee record that has a name: the normalized names. Employees name searches. */
  employmentNames: 0x04,
  /** One per person of the company with a named record: the distinct name pairs there (first and last filtered). */
  personNames: 0x05,
  /** The person's distinct first names in the company (first name filtered), as pairs with no last name. */
  personFirstNames: 0x06,
  /** The person's distinct last names in the company (last name filtered), as pairs with no first name. */
  personLastNames: 0x07,
} as const;
/**
 * Counted orders (counted-order.ts) in a company partition: the blocks of each order, by their low
 * bound (family + low + gen, like an entry), and one index item per order.
 */
export const ORDER = {
  /** The company's employee records, by order key: unfiltered employees searches. */
  employees: 0x08,
  /** The persons with a record in the company, by person order key: unfiltered persons searches. */
  persons: 0x09,
} as const;
export type OrderFamily = (typeof ORDER)[keyof typeof ORDER];
/** Each company order and the key entry family it counts. */
export const COMPANY_ORDERS = [
  [ORDER.employees, FAMILY.employmentKey],
  [ORDER.persons, FAMILY.personKey],
] as const;
/** First byte of an order index's sort key: 0x0a + the order's family + gen. */
const ORDER_INDEX = 0x0a;
/**
 * First byte of an order index's further parts, when one item cannot hold it (counted-order.ts,
 * INDEX_PART_BLOCKS): 0x0e + the order's family + part number + gen. Part 0 is the index item.
 */
const ORDER_INDEX_PART = 0x0e;

/**
 * Name postings (name-grams.ts) in a company partition: for each gram (1 to 3 code points) of each
 * normalized name, one posting per record holding it, keyed so that one gram's postings are one run
 * in (createdAt, id) order; the census of how many records hold each gram; the marker that says the
 * postings are complete. The sort keys say nothing of the partition, so a scope's partition can
 * hold the same families.
 */
export const GRAMS = {
  /**
   * field + gram (length and UTF-8) + order key + gen: a record's name holds the gram. A gram's
   * blocks (`gramBlockSort`) sort just before its postings, in the same run.
   */
  postings: 0x0b,
  /** gen + part: per field, the records holding each gram, compressed (choosing the rarest). */
  census: 0x0c,
  /** gen: the partition's postings are complete; without one, searches read the names entries. */
  marker: 0x0f,
} as const;
/** Which name a posting is of: its second byte. */
const GRAM_FIELD = { firstName: 0x01, lastName: 0x02 } as const;
export type GramField = keyof typeof GRAM_FIELD;

/** The families of a person's names entries, each present when its list is not empty. */
const PERSON_NAME_FAMILIES = [FAMILY.personNames, FAMILY.personFirstNames, FAMILY.personLastNames] as const;
export type PersonNameFamily = (typeof PERSON_NAME_FAMILIES)[number];
export type Family = (typeof FAMILY)[keyof typeof FAMILY];

/** Partition prefixes that no company id (`[A-Za-z0-9._-]`, so from 0x2d up) can start with. */
const PARTITION = {
  person: 0x00,
  location: 0x01,
  ids: 0xfb,
  scopes: 0xfc,
  scope: 0xfd,
  journal: 0xfe,
  manifest: 0xff,
} as const;

export const companyPartition = (companyId: string): PartitionKey => utf8Bytes(companyId) as PartitionKey;
export const companyOfPartition = (partition: Uint8Array): string => utf8Of(partition);
/** A person's bundle versions: the person and every employment, compressed. */
export const personPartition = (personId: string): PartitionKey =>
  partitionKey(writeUuid(new ByteWriter(1 + UUID_BYTES).u8(PARTITION.person), personId));
/** Where an employee record is now (and was before the load in progress): by record id. */
export const locationPartition = (recordId: string): PartitionKey =>
  partitionKey(writeUuid(new ByteWriter(1 + UUID_BYTES).u8(PARTITION.location), recordId));
/**
 * The id index: one entry per stored person (kind 0x00) and employee record (0x01), in 16
 * partitions a kind (`idBucketOf`), so a snapshot finds the stored ids its file lacks by reading
 * about 30 bytes an id, not the table.
 */
export type IdKind = "person" | "employee";
const ID_KIND = { person: 0x00, employee: 0x01 } as const;
export const ID_BUCKETS = 16;
export const idsPartition = (kind: IdKind, bucket: number): PartitionKey =>
  Uint8Array.of(PARTITION.ids, ID_KIND[kind], bucket) as PartitionKey;
/** An id's partition of the id index: the XOR of its 16 bytes, mod 16 (uuids v1 and v7 share prefixes). */
export function idBucketOf(id: string): number {
  let x = 0;
  for (const byte of writeUuid(new ByteWriter(UUID_BYTES), id).done()) x ^= byte;
  return x % ID_BUCKETS;
}
/** An id entry: the id + the generation of the location or bundle it stands for. */
export const idEntrySort = (id: string, gen: number): SortKey =>
  sortKey(writeUuid(new ByteWriter(UUID_BYTES + GEN_BYTES), id).u32(gen));
export const idOfIdEntrySort = (sort: Uint8Array): string => readUuid(new ByteReader(sort));
/** The registry of scopes: one item per scope kept (its companies), versioned by generation. */
export const SCOPES_PARTITION = Uint8Array.of(PARTITION.scopes) as PartitionKey;
/** A scope's persons order: 0xfd + the scope's id (scopes.ts). */
export const scopePartition = (scopeId: ScopeId): PartitionKey =>
  partitionKey(new ByteWriter(1 + SCOPE_ID_BYTES).u8(PARTITION.scope).hex(scopeId));
/** A scope's registry version: the scope's id + generation. */
export const scopeRegistrySort = (scopeId: ScopeId, gen: number): SortKey =>
  sortKey(new ByteWriter(SCOPE_ID_BYTES + GEN_BYTES).hex(scopeId).u32(gen));
export const scopeOfRegistrySort = (sort: Uint8Array): ScopeId =>
  hexOf(sort.subarray(0, SCOPE_ID_BYTES)) as ScopeId;
export const scopeOfPartition = (p: Uint8Array): ScopeId => hexOf(p.subarray(1)) as ScopeId;
export const journalPartition = (gen: number): PartitionKey =>
  partitionKey(new ByteWriter(1 + GEN_BYTES).u8(PARTITION.journal).u32(gen));
export const MANIFEST_KEY = {
  p: Uint8Array.of(PARTITION.manifest, 0x6d) as PartitionKey,
  s: Uint8Array.of(0) as SortKey,
} as const;
/** The one sort key of a location item. */
export const LOCATION_SORT = Uint8Array.of(0) as SortKey;

/** A company partition: company ids are `[A-Za-z0-9._-]`, 0x2d to 0x7a. */
export const isCompanyPartition = (p: Uint8Array) => (p[0] ?? 0) >= 0x2d && (p[0] ?? 0) <= 0x7a;
export const isPersonPartition = (p: Uint8Array) => p.length === 1 + UUID_BYTES && p[0] === PARTITION.person;
export const isLocationPartition = (p: Uint8Array) =>
  p.length === 1 + UUID_BYTES && p[0] === PARTITION.location;
export const isScopesPartition = (p: Uint8Array) => p.length === 1 && p[0] === PARTITION.scopes;
export const isScopePartition = (p: Uint8Array) =>
  p.length === 1 + SCOPE_ID_BYTES && p[0] === PARTITION.scope;
export const isJournalPartition = (p: Uint8Array) => p.length === 1 + GEN_BYTES && p[0] === PARTITION.journal;
export const isIdsPartition = (p: Uint8Array) =>
  p.length === 3 && p[0] === PARTITION.ids && (p[1] ?? 2) <= 1 && (p[2] ?? ID_BUCKETS) < ID_BUCKETS;
export const idKindOfPartition = (p: Uint8Array): IdKind => (p[1] === ID_KIND.person ? "person" : "employee");
/** The id of a person or location partition. */
export const idOfPartition = (p: Uint8Array): string => readUuid(new ByteReader(p, 1));
/** The generation of a journal partition. */
export const genOfJournal = (p: Uint8Array): number => new ByteReader(p, 1).u32();

/** The generation at the end of a versioned sort key. */
export const genOf = (sort: Uint8Array): number => new ByteReader(sort, sort.length - GEN_BYTES).u32();

/** family + order key (createdAt, id) + generation. */
export const entrySort = (family: Family, order: OrderKey, gen: number): SortKey =>
  sortKey(new ByteWriter(1 + ORDER_KEY_BYTES + GEN_BYTES).u8(family).bytes(orderKeyBytes(order)).u32(gen));

/** An order's block: family + low bound + generation. */
export const orderBlockSort = (order: OrderFamily, low: OrderKey, gen: number): SortKey =>
  sortKey(new ByteWriter(1 + ORDER_KEY_BYTES + GEN_BYTES).u8(order).bytes(orderKeyBytes(low)).u32(gen));

/** An order's index version: 0x0a + family + generation. */
export const orderIndexSort = (order: OrderFamily, gen: number): SortKey =>
  sortKey(new ByteWriter(2 + GEN_BYTES).u8(ORDER_INDEX).u8(order).u32(gen));

export const isOrderIndexSort = (sort: Uint8Array): boolean =>
  sort.length === 2 + GEN_BYTES && sort[0] === ORDER_INDEX;

/** Part `part` (1 or more) of an order's index version: 0x0e + family + part + generation. */
export const orderIndexPartSort = (order: OrderFamily, part: number, gen: number): SortKey =>
  sortKey(new ByteWriter(4 + GEN_BYTES).u8(ORDER_INDEX_PART).u8(order).u16(part).u32(gen));

export const isOrderIndexPartSort = (sort: Uint8Array): boolean =>
  sort.length === 4 + GEN_BYTES && sort[0] === ORDER_INDEX_PART;
/** The part number of an order index part's sort key. */
export const orderIndexPartOf = (sort: Uint8Array): number => new ByteReader(sort, 2).u16();

/** The keys of an order index version in `parts` items: the index item, then its further parts. */
export const orderIndexKeys = (
  partition: PartitionKey,
  order: OrderFamily,
  gen: number,
  parts: number,
): { p: PartitionKey; s: SortKey }[] =>
  Array.from({ length: parts }, (_, part) => ({
    p: partition,
    s: part === 0 ? orderIndexSort(order, gen) : orderIndexPartSort(order, part, gen),
  }));
export const isOrderBlockSort = (sort: Uint8Array): boolean =>
  sort.length === 1 + ORDER_KEY_BYTES + GEN_BYTES &&
  (sort[0] === ORDER.employees || sort[0] === ORDER.persons);

/** The order key of a company item's sort key. */
export const orderOfSort = (sort: Uint8Array): OrderKey =>
  orderKeyOfBytes(new ByteReader(sort, 1).bytes(ORDER_KEY_BYTES));

/** After the family byte, above every order key and generation: a range's open upper end. */
const ABOVE_EVERY_KEY = new Uint8Array(30).fill(0xff);

/** Sort-key bounds of a family between two order-key prefixes (an instant, or a whole key). */
export function familyRange(family: Family, from: OrderKey | undefined, before: OrderKey | undefined) {
  const bound = (rest: Uint8Array) => sortKey(new ByteWriter(1 + rest.length).u8(family).bytes(rest));
  return {
    low: bound(from === undefined ? new Uint8Array() : orderKeyBytes(from)),
    // `before` as a prefix: every key that starts with it sorts above it, so BETWEEN excludes them.
    high: bound(before === undefined ? ABOVE_EVERY_KEY : orderKeyBytes(before)),
  };
}

/** The bytes of a posting's sort key before its order key: family, field, gram (length and UTF-8). */
function postingPrefix(field: GramField, text: string, rest: number): ByteWriter {
  const bytes = utf8Bytes(text);
  return new ByteWriter(3 + bytes.length + rest)
    .u8(GRAMS.postings)
    .u8(GRAM_FIELD[field])
    .u8(bytes.length)
    .bytes(bytes);
}

/**
 * After a gram's prefix: its blocks (`gramBlockSort`) carry this byte, then their low bound. Order
 * keys start with their instant, whose first byte is 0x71 or above for years 0 to 9999, so a
 * gram's blocks sort before its postings and a postings range starting at 0x01 skips them.
 */
const GRAM_BLOCK_MARK = 0x00;
/** Where a gram's postings start: above its blocks, below every order key. */
const FIRST_POSTING = Uint8Array.of(0x01);

/** A posting: family + field + gram (1 byte of length, UTF-8) + order key + generation. */
export const postingSort = (field: GramField, text: string, order: OrderKey, gen: number): SortKey =>
  sortKey(
    postingPrefix(field, text, ORDER_KEY_BYTES + GEN_BYTES)
      .bytes(orderKeyBytes(order))
      .u32(gen),
  );

/**
 * Sort-key bounds of one gram's postings between two order-key prefixes, as `familyRange`'s. A
 * lower bound below every order key (none, or a first block's zero low) starts above the blocks.
 */
export function postingRange(
  field: GramField,
  text: string,
  from: OrderKey | undefined,
  before: OrderKey | undefined,
) {
  const bound = (rest: Uint8Array) => sortKey(postingPrefix(field, text, rest.length).bytes(rest));
  const low = from === undefined ? FIRST_POSTING : orderKeyBytes(from);
  return {
    low: bound((low[0] ?? 0) < (FIRST_POSTING[0] as number) ? FIRST_POSTING : low),
    high: bound(before === undefined ? ABOVE_EVERY_KEY : orderKeyBytes(before)),
  };
}

/** Sort-key bounds of every posting of a partition, and every gram block. */
export const ALL_POSTINGS = {
  low: Uint8Array.of(GRAMS.postings) as SortKey,
  high: Uint8Array.of(GRAMS.postings, 0xff) as SortKey,
} as const;

export const isPostingSort = (sort: Uint8Array): boolean =>
  sort[0] === GRAMS.postings && sort.length === 3 + (sort[2] ?? 0) + ORDER_KEY_BYTES + GEN_BYTES;

/** The field and gram of a posting's or a gram block's sort key, and where they end. */
function gramOfSort(sort: Uint8Array): { field: GramField; text: string; reader: ByteReader } {
  const reader = new ByteReader(sort, 1);
  const byte = reader.u8();
  const field =
    byte === GRAM_FIELD.firstName ? "firstName" : byte === GRAM_FIELD.lastName ? "lastName" : null;
  if (field === null) throw new FormatError(`a posting of field ${byte}`);
  return { field, text: reader.text(reader.u8()), reader };
}

/** A posting's field, gram and order key (its generation: `genOf`). */
export function postingOfSort(sort: Uint8Array): { field: GramField; text: string; order: OrderKey } {
  const { field, text, reader } = gramOfSort(sort);
  return { field, text, order: orderKeyOfBytes(reader.bytes(ORDER_KEY_BYTES)) };
}

/**
 * The low bound of a gram's first block: below every order key, so the first block's low never
 * moves when a lower key is posted.
 */
export const LOWEST_ORDER_KEY = orderKeyOfBytes(new Uint8Array(ORDER_KEY_BYTES));

/**
 * A gram block (gram-blocks.ts): family + field + gram + 0x00 + low bound (an order key) +
 * generation; how many of the gram's postings lie between its low and the next block's.
 */
export const gramBlockSort = (field: GramField, text: string, low: OrderKey, gen: number): SortKey =>
  sortKey(
    postingPrefix(field, text, 1 + ORDER_KEY_BYTES + GEN_BYTES)
      .u8(GRAM_BLOCK_MARK)
      .bytes(orderKeyBytes(low))
      .u32(gen),
  );

/** Sort-key bounds of one gram's blocks: every version of each. */
export function gramBlockRange(field: GramField, text: string) {
  const bound = (rest: Uint8Array) =>
    sortKey(
      postingPrefix(field, text, 1 + rest.length)
        .u8(GRAM_BLOCK_MARK)
        .bytes(rest),
    );
  return { low: bound(new Uint8Array()), high: bound(ABOVE_EVERY_KEY) };
}

export const isGramBlockSort = (sort: Uint8Array): boolean =>
  sort[0] === GRAMS.postings &&
  sort.length === 4 + (sort[2] ?? 0) + ORDER_KEY_BYTES + GEN_BYTES &&
  sort[3 + (sort[2] ?? 0)] === GRAM_BLOCK_MARK;

/** A gram block's field, gram and low bound (its generation: `genOf`). */
export function gramBlockOfSort(sort: Uint8Array): { field: GramField; text: string; low: OrderKey } {
  const { field, text, reader } = gramOfSort(sort);
  if (reader.u8() !== GRAM_BLOCK_MARK) throw new FormatError("a gram block without its mark");
  return { field, text, low: orderKeyOfBytes(reader.bytes(ORDER_KEY_BYTES)) };
}

/** A census part: family + generation + part number (2 bytes), a version's parts together. */
export const gramCensusSort = (gen: number, part: number): SortKey =>
  sortKey(new ByteWriter(1 + GEN_BYTES + 2).u8(GRAMS.census).u32(gen).u16(part));
export const isGramCensusSort = (sort: Uint8Array): boolean =>
  sort.length === 1 + GEN_BYTES + 2 && sort[0] === GRAMS.census;
export const gramCensusGenOf = (sort: Uint8Array): number => new ByteReader(sort, 1).u32();
export const gramCensusPartOf = (sort: Uint8Array): number => new ByteReader(sort, 1 + GEN_BYTES).u16();

/** The postings marker: family + generation. */
export const gramMarkerSort = (gen: number): SortKey =>
  sortKey(new ByteWriter(1 + GEN_BYTES).u8(GRAMS.marker).u32(gen));
export const isGramMarkerSort = (sort: Uint8Array): boolean =>
  sort.length === 1 + GEN_BYTES && sort[0] === GRAMS.marker;

/** A bundle part: generation + part number (2 bytes), so a person's versions sort by generation. */
export const bundleSort = (gen: number, part: number): SortKey =>
  sortKey(new ByteWriter(GEN_BYTES + 2).u32(gen).u16(part));
export const bundleGenOf = (sort: Uint8Array): number => new ByteReader(sort).u32();
export const bundlePartOf = (sort: Uint8Array): number => new ByteReader(sort, GEN_BYTES).u16();

/** A journal item: the sequence number of the chunk it journals. */
export const journalSort = (seq: number): SortKey => sortKey(new ByteWriter(4).u32(seq));
export const seqOfJournal = (sort: Uint8Array): number => new ByteReader(sort).u32();

/**
 * A generation to read at (the committed one, or a load's own), and the generations abandoned by
 * loads that lost their lease: never published, so no reader sees their versions or their stamps,
 * however late a paused loader wrote them.
 */
export interface Generation {
  readonly gen: number;
  readonly abandoned?: ReadonlySet<number>;
}

/** Whether `gen` belongs to a load that lost its lease. */
export const isAbandoned = (gen: number, at: Generation): boolean => at.abandoned?.has(gen) === true;

/**
 * A versioned item is visible at `at` when written at or before it by a generation not abandoned,
 * and not superseded by then (a stamp of an abandoned generation does not count).
 */
export function visibleAt(gen: number, supersededAt: number | undefined, at: Generation): boolean {
  if (gen > at.gen || isAbandoned(gen, at)) return false;
  return supersededAt === undefined || supersededAt > at.gen || isAbandoned(supersededAt, at);
}
