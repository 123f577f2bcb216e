/**
 * The bytes of `d`, the one data attribute of every item. Each value starts with the format
 * version, so a reader refuses (rather than misreads) an item written in another format.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { MAX_NAME_BYTES } from "../../../directory/name.js";
import type { NamePair } from "../../../search/matching.js";
import {
  ORDER_KEY_BYTES,
  type OrderKey,
  orderKeyBytes,
  orderKeyOfBytes,
  readUuid,
  writeUuid,
} from "../../binary-keys.js";
import { ByteReader, ByteWriter, compareText, FormatError, utf8Bytes, utf8Of } from "../../bytes.js";
import type { BlockRef, OrderIndex } from "./shapes.js";

/**
 * Version 1 was the packed-block layout; version 2 the generations of docs/data-model.md with one
 * generation for all of a record's or a person's items; version 3 versioned entries apart; version
 * 4 packs a company's name postings in pages.
 */
export const FORMAT = 4;

/** A writer of a value: the format byte first. */
const value = (capacity?: number) => new ByteWriter(capacity).u8(FORMAT);

/** A reader of a value, past its format byte. */
function valueReader(stored: Uint8Array): ByteReader {
  if (stored[0] !== FORMAT) throw new FormatError(`item in format ${stored[0]}, expected ${FORMAT}`);
  return new ByteReader(stored, 1);
}

/** `read`'s result, once it has read the whole value: bytes after it are damage, refused. */
function whole<T>(reader: ByteReader, read: T): T {
  if (reader.remaining !== 0) throw new FormatError(`${reader.remaining} bytes past the end of the value`);
  return read;
}

/** The value with no content: the `d` of key entries. */
export const emptyValue = (): Uint8Array => value(1).done();

/** A value as JSON, brotli-compressed: records, bundles, journal entries. */
export function compress(json: unknown): Uint8Array {
  const packed = brotliCompressSync(JSON.stringify(json), {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 6,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  return value(1 + packed.length)
    .bytes(packed)
    .done();
}

export const decompress = <T>(stored: Uint8Array): T =>
  JSON.parse(utf8Of(brotliDecompressSync(valueReader(stored).rest()))) as T;

/**
 * Whether a compressed value (in parts, or one) ends where its brotli stream ends: brotli ignores
 * bytes past it, so verify checks that the value without its last byte no longer decompresses.
 * (Not by compressing again: brotli's output may change with its library.)
 */
export function endsWithItsStream(parts: readonly Uint8Array[]): boolean {
  const joined = new ByteWriter();
  for (const part of parts) joined.bytes(valueReader(part).rest());
  const body = joined.done();
  try {
    brotliDecompressSync(body.subarray(0, -1));
    return false;
  } catch {
    return true;
  }
}

/**
 * A compressed value split into parts of at most `partBytes` after the format byte, which every
 * part starts with (so each is a value of its own, and verify checks them alike).
 */
export function compressInParts(json: unknown, partBytes: number): Uint8Array[] {
  const body = valueReader(compress(json)).rest();
  const count = Math.max(1, Math.ceil(body.length / partBytes));
  return Array.from({ length: count }, (_, index) =>
    value()
      .bytes(body.subarray(index * partBytes, (index + 1) * partBytes))
      .done(),
  );
}

/** The value of parts in order: each one's bytes after its format byte, joined. */
export function decompressParts<T>(parts: readonly Uint8Array[]): T {
  const joined = value();
  for (const part of parts) joined.bytes(valueReader(part).rest());
  return decompress<T>(joined.done());
}

/**
 * Names: a varint of the UTF-8 length plus one (0: no name; under 127 bytes, one byte), then the
 * UTF-8 bytes.
 */
function writeName(writer: ByteWriter, name: string | null): void {
  if (name === null) {
    writer.varint(0);
    return;
  }
  const bytes = utf8Bytes(name);
  if (bytes.length > MAX_NAME_BYTES) throw new Error(`a name longer than ${MAX_NAME_BYTES} bytes`);
  writer.varint(bytes.length + 1).bytes(bytes);
}

function readName(reader: ByteReader): string | null {
  const stored = reader.varint();
  return stored === 0 ? null : reader.text(stored - 1);
}

/**
 * The name pairs of an employment (one) or of a person in a company (their distinct pairs):
 * format, count (varint), then each pair's first name and last name.
 */
export function encodeNamePairs(pairs: readonly NamePair[]): Uint8Array {
  const writer = value().varint(pairs.length);
  for (const pair of pairs) {
    writeName(writer, pair.firstName);
    writeName(writer, pair.lastName);
  }
  return writer.done();
}

export function decodeNamePairs(stored: Uint8Array): NamePair[] {
  const reader = valueReader(stored);
  const count = reader.varint();
  const pairs = Array.from({ length: count }, () => {
    const firstName = readName(reader);
    return { firstName, lastName: readName(reader) };
  });
  return whole(reader, pairs);
}

/** Where an employee record's items are: its company, order key, person and content hashes. */
export interface Location {
  readonly companyId: string;
  readonly order: OrderKey;
  readonly personId: string | null;
  /** Whether the record has a first or last name, so a names entry exists. */
  readonly named: boolean;
  /** Of the record's JSON (16 hex digits): an upsert of an unchanged record writes nothing. */
  readonly hash: string;
  /** Of the record's normalized names (16 hex digits): its entries change only with them (or its key). */
  readonly names: string;
  /**
   * The generation of the record's entries (key and names entries, id index entry): older than the
   * record item's when the record changed but its company, order key and names did not.
   */
  readonly entries: number;
}

const HAS_PERSON = 1;
const NAMED = 2;
const NAMES_HASH_BYTES = 8;

/**
 * format, flags (has a person, named), company id length (1 byte) and UTF-8, order key (25),
 * person id (16, when it has one), the entries' generation (4), the names hash (8), then the
 * record's hash to the end.
 */
export function encodeLocation(location: Location): Uint8Array {
  const company = utf8Bytes(location.companyId);
  const flags = (location.personId === null ? 0 : HAS_PERSON) | (location.named ? NAMED : 0);
  const writer = value().u8(flags).u8(company.length).bytes(company).bytes(orderKeyBytes(location.order));
  if (location.personId !== null) writeUuid(writer, location.personId);
  return writer.u32(location.entries).hex(location.names).hex(location.hash).done();
}

export function decodeLocation(stored: Uint8Array): Location {
  const reader = valueReader(stored);
  const flags = reader.u8();
  const companyId = reader.text(reader.u8());
  const order = orderKeyOfBytes(reader.bytes(ORDER_KEY_BYTES));
  const personId = flags & HAS_PERSON ? readUuid(reader) : null;
  const entries = reader.u32();
  const names = reader.hex(NAMES_HASH_BYTES);
  const named = (flags & NAMED) !== 0;
  return { companyId, order, personId, named, hash: reader.hex(reader.remaining), names, entries };
}

/** An order's index: per block, its low bound, the generation of its version and its count. */
export function encodeOrderIndex(index: OrderIndex): Uint8Array {
  const writer = value(4 + index.length * (ORDER_KEY_BYTES + 6)).varint(index.length);
  for (const block of index) writer.bytes(orderKeyBytes(block.low)).u32(block.gen).varint(block.count);
  return writer.done();
}

export function decodeOrderIndex(stored: Uint8Array): BlockRef[] {
  const reader = valueReader(stored);
  const index = Array.from({ length: reader.varint() }, () => ({
    low: orderKeyOfBytes(reader.bytes(ORDER_KEY_BYTES)),
    gen: reader.u32(),
    count: reader.varint(),
  }));
  return whole(reader, index);
}

/** An order's block: its keys, 25 bytes each, in order. */
export function encodeOrderBlock(keys: readonly OrderKey[]): Uint8Array {
  const writer = value(1 + keys.length * ORDER_KEY_BYTES);
  for (const key of keys) writer.bytes(orderKeyBytes(key));
  return writer.done();
}

export function decodeOrderBlock(stored: Uint8Array): OrderKey[] {
  const reader = valueReader(stored);
  if (reader.remaining % ORDER_KEY_BYTES !== 0)
    throw new FormatError(`an order block of ${reader.remaining} bytes is no whole number of keys`);
  return Array.from({ length: reader.remaining / ORDER_KEY_BYTES }, () =>
    orderKeyOfBytes(reader.bytes(ORDER_KEY_BYTES)),
  );
}

/**
 * A scope's registry value: its companies, sorted (a count, then each id's length, 1 byte, and
 * UTF-8), then, when it lives in another scope's partition (having taken it over on a scope change),
 * that partition's scope id, 16 bytes.
 */
export function encodeScopeCompanies(companies: readonly string[], home?: string): Uint8Array {
  const writer = value().varint(companies.length);
  for (const company of companies) {
    const bytes = utf8Bytes(company);
    writer.u8(bytes.length).bytes(bytes);
  }
  if (home !== undefined) writer.hex(home);
  return writer.done();
}

export function decodeScopeCompanies(stored: Uint8Array): { companies: string[]; home?: string } {
  const reader = valueReader(stored);
  const companies = Array.from({ length: reader.varint() }, () => reader.text(reader.u8()));
  if (reader.remaining === 0) return { companies };
  return { companies, home: reader.hex(reader.remaining) };
}

/**
 * A scope's postings marker: the generation its postings were built whole at (`base`), and per
 * company that joined or left the scope since, the generation of that change (the postings of its
 * persons were rewritten then).
 */
export interface ScopeMarker {
  readonly base: number;
  readonly changed: ReadonlyMap<string, number>;
}

export function encodeScopeMarker(marker: ScopeMarker): Uint8Array {
  const writer = value().u32(marker.base).varint(marker.changed.size);
  for (const [company, gen] of [...marker.changed].sort(([a], [b]) => compareText(a, b))) {
    const bytes = utf8Bytes(company);
    writer.u8(bytes.length).bytes(bytes).u32(gen);
  }
  return writer.done();
}

export function decodeScopeMarker(stored: Uint8Array): ScopeMarker {
  const reader = valueReader(stored);
  const base = reader.u32();
  const changed = new Map<string, number>();
  for (let n = reader.varint(); n > 0; n--) {
    const company = reader.text(reader.u8());
    changed.set(company, reader.u32());
  }
  return whole(reader, { base, changed });
}

/**
 * What a gram block's value holds after the format byte: its kind (2; no other is read), the
 * count, then its companion counts: per 1 or 2 code-point gram of the other name (sorted, UTF-8 with
 * a length byte), how many of the block's holders have one name pair holding both grams (a varint,
 * never 0).
 */
const GRAM_BLOCK_KIND = 0x02;

/** How many of a gram block's holders hold each short gram of the other name with it. */
export type GramCompanions = ReadonlyMap<string, number>;

/** A gram block's value: how many of its gram's postings it counts, and their companions (gram-blocks.ts). */
export function encodeGramBlock(n: number, companions: GramCompanions): Uint8Array {
  const writer = value(10 + 6 * companions.size)
    .u8(GRAM_BLOCK_KIND)
    .u32(n)
    .varint(companions.size);
  for (const [gram, count] of [...companions].sort(([a], [b]) => compareText(a, b))) {
    if (count <= 0) throw new Error(`a gram block's companion "${gram}" counted ${count}`);
    const bytes = utf8Bytes(gram);
    writer.u8(bytes.length).bytes(bytes).varint(count);
  }
  return writer.done();
}

/** A gram block's count and companion counts. */
export function decodeGramBlock(stored: Uint8Array): { n: number; companions: GramCompanions } {
  const reader = valueReader(stored);
  const kind = reader.u8();
  if (kind !== GRAM_BLOCK_KIND) throw new FormatError(`a gram block of kind ${kind}`);
  const n = reader.u32();
  const companions = new Map<string, number>();
  let previous: string | undefined;
  for (let size = reader.varint(); size > 0; size--) {
    const gram = reader.text(reader.u8());
    const count = reader.varint();
    if (count === 0 || (previous !== undefined && compareText(previous, gram) >= 0))
      throw new FormatError("a gram block's companions out of order or counting none");
    companions.set(gram, count);
    previous = gram;
  }
  return whole(reader, { n, companions });
}

/**
 * A posting in a page: its holder's order key and generation, and the holder's name pairs as their
 * own value (`encodeNamePairs`, format byte included), what a search checks its filter against.
 */
export interface PagedPosting {
  readonly order: OrderKey;
  readonly gen: number;
  readonly pairs: Uint8Array;
}

/**
 * What a posting page's value holds after the format byte: its kind (3), the count (varint), then
 * per posting, in order of order key: the order key (25 bytes), the generation (4) and the pairs'
 * value without its format byte (a varint of its length, then the bytes).
 */
const POSTING_PAGE_KIND = 0x03;

/** The bytes a posting takes in a page. */
export const pagedPostingBytes = (posting: PagedPosting): number => {
  const body = posting.pairs.length - 1;
  return ORDER_KEY_BYTES + 4 + (body < 0x80 ? 1 : body < 0x4000 ? 2 : 3) + body;
};

export function encodePostingPage(postings: readonly PagedPosting[]): Uint8Array {
  const writer = value().u8(POSTING_PAGE_KIND).varint(postings.length);
  for (const { order, gen, pairs } of postings) {
    if (pairs[0] !== FORMAT) throw new Error("a posting's pairs are not a value");
    writer
      .bytes(orderKeyBytes(order))
      .u32(gen)
      .varint(pairs.length - 1)
      .bytes(pairs.subarray(1));
  }
  return writer.done();
}

/**
 * A posting page's postings, in order; each at or above `low` (the page's), in strictly rising
 * order, and each pair list well formed, or the page is malformed.
 */
export function decodePostingPage(stored: Uint8Array, low: OrderKey): PagedPosting[] {
  const reader = valueReader(stored);
  const kind = reader.u8();
  if (kind !== POSTING_PAGE_KIND) throw new FormatError(`a posting page of kind ${kind}`);
  const postings: PagedPosting[] = [];
  let previous: OrderKey | undefined;
  for (let count = reader.varint(); count > 0; count--) {
    const order = orderKeyOfBytes(reader.bytes(ORDER_KEY_BYTES));
    if (order < low || (previous !== undefined && order <= previous))
      throw new FormatError("a posting page's postings out of order, or below its low");
    const gen = reader.u32();
    const pairs = value().bytes(reader.bytes(reader.varint())).done();
    decodeNamePairs(pairs);
    postings.push({ order, gen, pairs });
    previous = order;
  }
  if (postings.length === 0) throw new FormatError("a posting page holding no posting");
  return whole(reader, postings);
}
