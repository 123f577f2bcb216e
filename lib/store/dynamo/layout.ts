/**
 * Keys of the directory table (docs/data-model.md). Every derived item exists in versions: its sort
 * key ends with the generation (4 bytes, big-endian) of the load that wrote it, and a version
 * superseded by a later load carries that load's generation in `x`. A reader at generation C sees
 * exactly the versions with gen <= C < x: one state of the directory, whatever a load is doing.
 */
import {
  concatBytes,
  type OrderKey,
  orderKeyBytes,
  orderKeyOfBytes,
  utf8Bytes,
  uuidBytes,
  uuidOf,
} from "../binary-keys.js";

export const GEN_BYTES = 4;

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
/** The families of a person's names entries, each present when its list is not empty. */
export const PERSON_NAME_FAMILIES = [
  FAMILY.personNames,
  FAMILY.personFirstNames,
  FAMILY.personLastNames,
] as const;
export type PersonNameFamily = (typeof PERSON_NAME_FAMILIES)[number];
export type Family = (typeof FAMILY)[keyof typeof FAMILY];

/** Partition prefixes that no company id (`[A-Za-z0-9._-]`, so from 0x2d up) can start with. */
const PARTITION = { person: 0x00, location: 0x01, journal: 0xfe, manifest: 0xff } as const;

export const companyPartition = (companyId: string): Uint8Array => utf8Bytes(companyId);
export const companyOfPartition = (partition: Uint8Array): string => new TextDecoder().decode(partition);
/** A person's bundle versions: the person and every employment, compressed. */
export const personPartition = (personId: string): Uint8Array =>
  concatBytes(PARTITION.person, uuidBytes(personId));
/** Where an employee record is now (and was before the load in progress): by record id. */
export const locationPartition = (recordId: string): Uint8Array =>
  concatBytes(PARTITION.location, uuidBytes(recordId));
export const journalPartition = (gen: number): Uint8Array => concatBytes(PARTITION.journal, genBytes(gen));
export const MANIFEST_KEY = { p: Uint8Array.of(PARTITION.manifest, 0x6d), s: Uint8Array.of(0) } as const;
/** The one sort key of a location item. */
export const LOCATION_SORT = Uint8Array.of(0);

export const isPersonPartition = (p: Uint8Array) => p.length === 17 && p[0] === PARTITION.person;
export const isLocationPartition = (p: Uint8Array) => p.length === 17 && p[0] === PARTITION.location;
export const idOfPartition = (p: Uint8Array): string => uuidOf(p, 1);

export function genBytes(gen: number): Uint8Array {
  const bytes = new Uint8Array(GEN_BYTES);
  new DataView(bytes.buffer).setUint32(0, gen);
  return bytes;
}

/** The generation at the end of a versioned sort key. */
export function genOf(sort: Uint8Array): number {
  return new DataView(sort.buffer, sort.byteOffset + sort.length - GEN_BYTES, GEN_BYTES).getUint32(0);
}

/** family + order key (createdAt, id) + generation. */
export const entrySort = (family: Family, order: OrderKey, gen: number): Uint8Array =>
  concatBytes(family, orderKeyBytes(order), genBytes(gen));

/** The order key of a company item's sort key. */
export const orderOfSort = (sort: Uint8Array): OrderKey => orderKeyOfBytes(sort.subarray(1, 26));

/** Sort-key bounds of a family between two order-key prefixes (an instant, or a whole key). */
export function familyRange(family: Family, from: OrderKey | undefined, before: OrderKey | undefined) {
  return {
    low: concatBytes(family, orderKeyBytes(from ?? "")),
    // `before` as a prefix: every key that starts with it sorts above it, so BETWEEN excludes them.
    high:
      before === undefined
        ? concatBytes(family, new Uint8Array(30).fill(0xff))
        : concatBytes(family, orderKeyBytes(before)),
  };
}

/** A bundle chunk: generation + chunk number, so a person's versions sort by generation. */
export const bundleSort = (gen: number, chunk: number): Uint8Array =>
  concatBytes(genBytes(gen), Uint8Array.of(chunk >> 8, chunk & 0xff));
export const bundleGenOf = (sort: Uint8Array): number =>
  new DataView(sort.buffer, sort.byteOffset, GEN_BYTES).getUint32(0);
export const bundleChunkOf = (sort: Uint8Array): number => ((sort[4] ?? 0) << 8) | (sort[5] ?? 0);

export const journalSort = (seq: number): Uint8Array => genBytes(seq);

/** A versioned item is visible at generation `at` when written at or before it and not superseded by then. */
export function visibleAt(gen: number, supersededAt: number | undefined, at: number): boolean {
  return gen <= at && (supersededAt === undefined || supersededAt > at);
}
