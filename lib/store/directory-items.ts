/**
 * How persons and employee records are laid out as items of the directory table (see
 * docs/data-model.md). A company's partition holds its employment entries and person entries,
 * packed into blocks, and each employee record whole; a person's partition holds the person
 * with every employment, compressed, so a page of persons is one BatchGetItem.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { instantKey } from "../directory/instant-key.js";
import { normalizeName } from "../directory/name.js";
import { normalizePhone } from "../directory/phone.js";
import type { SourceEmployee, SourcePerson } from "../directory/source.js";
import {
  concatBytes,
  INSTANT_BYTES,
  instantKeyOf,
  type OrderKey,
  orderKey,
  orderKeyBytes,
  orderKeyOfBytes,
  phoneBytes,
  utf8Bytes,
  uuidBytes,
  uuidOf,
} from "./binary-keys.js";
import {
  type EntryShape,
  MAX_NAME_BYTES,
  type NamePair,
  type PackedEntry,
  packBlocks,
} from "./entry-blocks.js";
import { DIRECTORY_ATTR as A } from "./tables.js";

export type DirectoryItem = Record<string, unknown>;
export type { NamePair, OrderKey };

/** First byte of a company partition's sort key: which family an item belongs to. */
export const FAMILY = {
  /** Blocks of employment entries (createdAt, id, names): employees searches without phone or person. */
  employmentBlocks: 0x01,
  /** Blocks of person entries (person createdAt, person id, name pairs), one per person of the company. */
  personBlocks: 0x02,
  /** One item per employee record, the record compressed: a page of employees. byPhone indexes these. */
  employmentRecord: 0x03,
} as const;
export type BlockFamily = typeof FAMILY.employmentBlocks | typeof FAMILY.personBlocks;

export const BLOCK_SHAPE: Readonly<Record<BlockFamily, EntryShape>> = {
  [FAMILY.employmentBlocks]: "employment",
  [FAMILY.personBlocks]: "person",
};

/** A person's partition starts with 0x00, which no company id (`[A-Za-z0-9._-]`) can. */
const PERSON_PARTITION = 0x00;
/** A compressed person bundle larger than this is split over several items (an item holds 400 KB). */
export const BUNDLE_CHUNK_BYTES = 350_000;

export interface PersonRecords {
  readonly person: SourcePerson;
  readonly employees: readonly SourceEmployee[];
}

/** An employment entry as a search reads it: its order key (createdAt, id), names, record size. */
export interface EmploymentEntry extends NamePair {
  readonly order: OrderKey;
  /** Bytes of the record item, to the next 16: what reading it in a run of records costs. */
  readonly recordBytes: number;
}

/** A person entry of one company: order key (person createdAt, person id) and their name pairs. */
export interface PersonEntry {
  readonly order: OrderKey;
  readonly pairs: readonly NamePair[];
}

/** An employment as matching needs it (phone and person paths): enough to match, sort and window. */
export interface NarrowEntry extends NamePair {
  readonly companyId: string;
  /** createdAt and employee id. */
  readonly order: OrderKey;
  /** Person createdAt and person id; null for an employee record with no person. */
  readonly personOrder: OrderKey | null;
  /** Normalized 10 digits, or null when the stored phone does not normalize. */
  readonly phone: string | null;
}

// ---- keys ----------------------------------------------------------------------------------

export const companyPartition = (companyId: string): Uint8Array => utf8Bytes(companyId);
export const personPartition = (personId: string): Uint8Array =>
  concatBytes(PERSON_PARTITION, uuidBytes(personId));
export const recordSortKey = (order: OrderKey): Uint8Array =>
  concatBytes(FAMILY.employmentRecord, orderKeyBytes(order));
export const bundleChunkKey = (index: number): Uint8Array => Uint8Array.of(index >> 8, index & 0xff);
/** Above every order key: 25 bytes of 0xff. */
export const ORDER_KEY_MAX = "\u00ff".repeat(25);

/** The person id of an order key. */
export const idOfOrder = (order: OrderKey): string => uuidOf(orderKeyBytes(order), INSTANT_BYTES);
export const createdKeyOfOrder = (order: OrderKey): string => instantKeyOf(orderKeyBytes(order), 0);

// ---- items ---------------------------------------------------------------------------------

const compress = (value: unknown): Uint8Array =>
  brotliCompressSync(JSON.stringify(value), {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 6,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
export const decompress = <T>(bytes: Uint8Array): T =>
  JSON.parse(brotliDecompressSync(bytes).toString("utf8")) as T;

export function namesOf(record: SourceEmployee): NamePair {
  const { firstName, lastName } = record.demographics;
  for (const [field, name] of [
    ["firstName", firstName],
    ["lastName", lastName],
  ] as const) {
    if (name !== null && Buffer.byteLength(normalizeName(name)) > MAX_NAME_BYTES) {
      throw new Error(`employee ${record.id}: demographics.${field} is longer than ${MAX_NAME_BYTES} bytes`);
    }
  }
  return {
    firstName: firstName === null ? null : normalizeName(firstName),
    lastName: lastName === null ? null : normalizeName(lastName),
  };
}

const nameAttributes = ({ firstName, lastName }: NamePair): DirectoryItem => ({
  ...(firstName === null ? {} : { [A.firstName]: firstName }),
  ...(lastName === null ? {} : { [A.lastName]: lastName }),
});

export const employmentOrder = (record: SourceEmployee): OrderKey =>
  orderKey(instantKey(record.createdAt), record.id);
export const personOrder = (person: SourcePerson): OrderKey =>
  orderKey(instantKey(person.createdAt), person.id);

/** An employee record whole, with what the byPhone index needs to match without reading it. */
export function recordItem(record: SourceEmployee, person: SourcePerson | undefined): DirectoryItem {
  const phone = record.contact.phone === null ? undefined : normalizePhone(record.contact.phone);
  return {
    [A.partition]: companyPartition(record.companyId),
    [A.sort]: recordSortKey(employmentOrder(record)),
    [A.data]: compress(record),
    ...(phone?.ok ? { [A.phone]: phoneBytes(phone.digits) } : {}),
    ...(person ? { [A.person]: orderKeyBytes(personOrder(person)) } : {}),
    ...nameAttributes(namesOf(record)),
  };
}

/** A person's bundle: the person and every employment, compressed, split when large. */
export function bundleItems(records: PersonRecords, chunkBytes = BUNDLE_CHUNK_BYTES): DirectoryItem[] {
  const bundle = compress(records);
  const chunks = Math.max(1, Math.ceil(bundle.length / chunkBytes));
  return Array.from({ length: chunks }, (_, index) => ({
    [A.partition]: personPartition(records.person.id),
    [A.sort]: bundleChunkKey(index),
    [A.data]: bundle.subarray(index * chunkBytes, (index + 1) * chunkBytes),
    ...(index === 0 && chunks > 1 ? { [A.chunks]: chunks } : {}),
  }));
}

/** The bytes DynamoDB bills for an item: attribute names plus values (Binary, String, Number). */
export function itemBytes(item: DirectoryItem): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    bytes += Buffer.byteLength(name);
    if (value instanceof Uint8Array) bytes += value.length;
    else if (typeof value === "string") bytes += Buffer.byteLength(value);
    else if (typeof value === "number") bytes += Math.ceil(String(value).length / 2) + 1;
  }
  return bytes;
}

/** An employment's entry; `recordBytes` is the size of its record item, for pricing page reads. */
export function employmentEntry(record: SourceEmployee, recordBytes: number): PackedEntry {
  return { key: orderKeyBytes(employmentOrder(record)), pairs: [namesOf(record)], recordBytes };
}

/** Per company of the person: their entry with the distinct name pairs of their records there. */
export function personEntries({ person, employees }: PersonRecords): Map<string, PackedEntry> {
  const pairsByCompany = new Map<string, Map<string, NamePair>>();
  for (const record of employees) {
    const pairs = pairsByCompany.get(record.companyId) ?? new Map<string, NamePair>();
    pairsByCompany.set(record.companyId, pairs);
    const names = namesOf(record);
    if (names.firstName !== null || names.lastName !== null) pairs.set(JSON.stringify(names), names);
  }
  const key = orderKeyBytes(personOrder(person));
  return new Map(
    [...pairsByCompany].map(([companyId, pairs]) => [companyId, { key, pairs: [...pairs.values()] }]),
  );
}

/** A family's entries of one company as block items, each keyed by its last entry. */
export function blockItems(
  companyId: string,
  family: BlockFamily,
  entries: readonly PackedEntry[],
): DirectoryItem[] {
  return packBlocks(entries, BLOCK_SHAPE[family]).map(({ last, data }) => ({
    [A.partition]: companyPartition(companyId),
    [A.sort]: concatBytes(family, last),
    [A.data]: data,
  }));
}

// ---- reading items back ----------------------------------------------------------------------

export const bytesOf = (value: unknown): Uint8Array => {
  if (value instanceof Uint8Array) return value;
  throw new Error("expected a Binary attribute");
};
const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** A record item (or its byPhone index entry): everything matching needs, no record body. */
export function narrowEntryFromRecordItem(item: DirectoryItem, phone: string | null): NarrowEntry {
  const person = item[A.person];
  return {
    companyId: new TextDecoder().decode(bytesOf(item[A.partition])),
    order: orderKeyOfBytes(bytesOf(item[A.sort]).subarray(1)),
    personOrder: person === undefined ? null : orderKeyOfBytes(bytesOf(person)),
    firstName: stringOrNull(item[A.firstName]),
    lastName: stringOrNull(item[A.lastName]),
    phone,
  };
}

export function employeeFromItem(item: DirectoryItem): SourceEmployee {
  return decompress<SourceEmployee>(bytesOf(item[A.data]));
}

/** The narrow view of a whole record, so whole records are matched by the very same rule. */
export function narrowView(record: SourceEmployee, person?: SourcePerson): NarrowEntry {
  const phone = record.contact.phone === null ? undefined : normalizePhone(record.contact.phone);
  return {
    companyId: record.companyId,
    order: employmentOrder(record),
    personOrder: person ? personOrder(person) : null,
    ...namesOf(record),
    phone: phone?.ok ? phone.digits : null,
  };
}
