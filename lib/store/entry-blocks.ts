/**
 * Narrow entries packed into blocks. A search with no exact filter reads every entry of a company,
 * so entries are stored many to an item: the bytes billed are the entries' own (no key or
 * attribute name repeated per entry), and the engine handles a few items instead of thousands.
 *
 * An entry is its 25-byte key (instant, uuid); an employment entry then has the size of its
 * record item (2 bytes, in 16-byte units, rounded up) so a search can price reading a run of
 * records before choosing how to read a page. Then come name pairs, each name a 2-byte length
 * (0xffff for none) and its UTF-8 bytes. Employment entries hold one pair; person entries hold the
 * person's distinct pairs in the company, after a count: one byte below 128, else two bytes with
 * the top bit set.
 */
import { compareBytes, INSTANT_BYTES, UUID_BYTES } from "./binary-keys.js";

export const ENTRY_KEY_BYTES = INSTANT_BYTES + UUID_BYTES;
/** A block is closed once its entries reach this size, so a block item stays under 4 KB. */
export const BLOCK_TARGET_BYTES = 3_800;
const NO_NAME = 0xffff;
/** The longest name an entry holds, in UTF-8 bytes; the loader refuses longer ones first. */
export const MAX_NAME_BYTES = NO_NAME - 1;
const MAX_PAIRS = 0x7fff;

export interface NamePair {
  readonly firstName: string | null;
  readonly lastName: string | null;
}

export interface PackedEntry {
  /** Instant (9 bytes) + uuid (16 bytes): unique within a family of one company, and its order. */
  readonly key: Uint8Array;
  readonly pairs: readonly NamePair[];
  /** Employment entries: bytes DynamoDB bills for the record item (a multiple of 16, rounded up). */
  readonly recordBytes?: number;
}

/** Record sizes are kept in 16-byte units in two bytes: up to 1 MB, more than an item can be. */
const SIZE_UNIT = 16;

export type EntryShape = "employment" | "person";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function nameBytes(name: string | null): Uint8Array {
  if (name === null) return Uint8Array.of(0xff, 0xff);
  const bytes = encoder.encode(name);
  if (bytes.length > MAX_NAME_BYTES) throw new Error("name longer than 65,534 bytes");
  return Uint8Array.of(bytes.length >> 8, bytes.length & 0xff, ...bytes);
}

export function encodeEntry(entry: PackedEntry, shape: EntryShape): Uint8Array {
  if (entry.key.length !== ENTRY_KEY_BYTES) throw new Error("entry key must be 25 bytes");
  if (shape === "employment" && entry.pairs.length !== 1) throw new Error("an employment has one name pair");
  const count = entry.pairs.length;
  if (count > MAX_PAIRS) throw new Error("more than 32,767 name pairs");
  const parts: Uint8Array[] = [entry.key];
  if (shape === "employment") {
    const units = Math.ceil((entry.recordBytes ?? 0) / SIZE_UNIT);
    if (entry.recordBytes === undefined || units > 0xffff)
      throw new Error("an employment needs its record size");
    parts.push(Uint8Array.of(units >> 8, units & 0xff));
  }
  if (shape === "person")
    parts.push(count < 0x80 ? Uint8Array.of(count) : Uint8Array.of(0x80 | (count >> 8), count & 0xff));
  for (const pair of entry.pairs) parts.push(nameBytes(pair.firstName), nameBytes(pair.lastName));
  return Buffer.concat(parts);
}

/** Entries sorted by key, packed into blocks of about BLOCK_TARGET_BYTES. */
export function packBlocks(
  entries: readonly PackedEntry[],
  shape: EntryShape,
): { last: Uint8Array; data: Uint8Array }[] {
  const sorted = [...entries].sort((a, b) => compareBytes(a.key, b.key));
  const blocks: { last: Uint8Array; data: Uint8Array }[] = [];
  let parts: Uint8Array[] = [];
  let size = 0;
  let last: Uint8Array | undefined;
  const close = () => {
    if (last) blocks.push({ last, data: Buffer.concat(parts) });
    parts = [];
    size = 0;
    last = undefined;
  };
  for (const entry of sorted) {
    const bytes = encodeEntry(entry, shape);
    if (size > 0 && size + bytes.length > BLOCK_TARGET_BYTES) close();
    parts.push(bytes);
    size += bytes.length;
    last = entry.key;
  }
  close();
  return blocks;
}

/**
 * Name fragments as UTF-8, to skip entries without decoding them: on well-formed text a byte
 * substring is a character substring, so this only drops entries that cannot match (the search
 * still applies its own rule to what is kept).
 */
export interface NameBytesFilter {
  readonly firstName?: Uint8Array;
  readonly lastName?: Uint8Array;
}

/** Where a name lies in the block: [start, end) of its bytes, or null for none. */
function nameSpan(view: DataView, offset: number): [number, number] | null {
  const length = view.getUint16(offset);
  return length === NO_NAME ? null : [offset + 2, offset + 2 + length];
}

const contains = (block: Buffer, span: [number, number] | null, fragment: Uint8Array | undefined) =>
  fragment === undefined || (span !== null && block.subarray(span[0], span[1]).indexOf(fragment) !== -1);

/**
 * Every entry of a block in key order. With a filter, an entry with no pair that may match keeps
 * its key and record size but no names (a blank pair for an employment, no pairs for a person),
 * so it cannot match and costs no decoding.
 */
export function unpackBlock(data: Uint8Array, shape: EntryShape, filter?: NameBytesFilter): PackedEntry[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const block = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const decode = (span: [number, number] | null) =>
    span === null ? null : decoder.decode(data.subarray(span[0], span[1]));
  const entries: PackedEntry[] = [];
  let offset = 0;
  while (offset < data.length) {
    const key = data.subarray(offset, offset + ENTRY_KEY_BYTES);
    offset += ENTRY_KEY_BYTES;
    let count = 1;
    let recordBytes: number | undefined;
    if (shape === "employment") {
      recordBytes = view.getUint16(offset) * SIZE_UNIT;
      offset += 2;
    }
    if (shape === "person") {
      const first = data[offset] ?? 0;
      count = first < 0x80 ? first : ((first & 0x7f) << 8) | (data[offset + 1] ?? 0);
      offset += first < 0x80 ? 1 : 2;
    }
    const spans: [[number, number] | null, [number, number] | null][] = [];
    for (let i = 0; i < count; i += 1) {
      const first = nameSpan(view, offset);
      offset = first ? first[1] : offset + 2;
      const last = nameSpan(view, offset);
      offset = last ? last[1] : offset + 2;
      spans.push([first, last]);
    }
    if (offset > data.length) break;
    const excluded =
      filter &&
      !spans.some(([f, l]) => contains(block, f, filter.firstName) && contains(block, l, filter.lastName));
    const pairs = excluded
      ? shape === "employment"
        ? [{ firstName: null, lastName: null }]
        : []
      : spans.map(([f, l]) => ({ firstName: decode(f), lastName: decode(l) }));
    entries.push(recordBytes === undefined ? { key, pairs } : { key, pairs, recordBytes });
  }
  if (offset !== data.length) throw new Error("malformed entry block");
  return entries;
}
