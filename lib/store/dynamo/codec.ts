/**
 * The bytes of `d`, the one data attribute of every item. Each value starts with the format
 * version, so a reader refuses (rather than misreads) an item written in another format.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { MAX_NAME_BYTES } from "../../directory/name.js";
import type { NamePair } from "../../search/matching.js";
import { type OrderKey, orderKeyBytes, orderKeyOfBytes, uuidBytes, uuidOf } from "../binary-keys.js";

/** Version 1 was the packed-block layout; version 2 the generations of docs/data-model.md. */
export const FORMAT = 2;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class FormatError extends Error {
  override readonly name = "FormatError";
}

function body(value: Uint8Array): Uint8Array {
  if (value[0] !== FORMAT) throw new FormatError(`item in format ${value[0]}, expected ${FORMAT}`);
  return value.subarray(1);
}

export function compress(value: unknown): Uint8Array {
  const packed = brotliCompressSync(JSON.stringify(value), {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 6,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  return Buffer.concat([Uint8Array.of(FORMAT), packed]);
}

export const decompress = <T>(value: Uint8Array): T =>
  JSON.parse(brotliDecompressSync(body(value)).toString("utf8")) as T;

/**
 * Lengths and counts as varints (7 bits a byte, high bit: more follows): names under 127 bytes
 * cost one length byte. A name's length is stored plus one; 0 means no name.
 */
function writeVarint(parts: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    parts.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  parts.push(rest);
}

function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length; i += 1) {
    const byte = bytes[i] ?? 0;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, i + 1];
    scale *= 0x80;
  }
  throw new FormatError("truncated varint");
}

function writeName(parts: number[], name: string | null): void {
  if (name === null) {
    parts.push(0);
    return;
  }
  const bytes = encoder.encode(name);
  if (bytes.length > MAX_NAME_BYTES) throw new Error(`a name longer than ${MAX_NAME_BYTES} bytes`);
  writeVarint(parts, bytes.length + 1);
  for (const byte of bytes) parts.push(byte);
}

function readName(bytes: Uint8Array, at: number): [string | null, number] {
  const [stored, start] = readVarint(bytes, at);
  if (stored === 0) return [null, start];
  const end = start + stored - 1;
  return [decoder.decode(bytes.subarray(start, end)), end];
}

/** The name pairs of an employment (one) or of a person in a company (their distinct pairs). */
export function encodeNamePairs(pairs: readonly NamePair[]): Uint8Array {
  const parts = [FORMAT];
  writeVarint(parts, pairs.length);
  for (const pair of pairs) {
    writeName(parts, pair.firstName);
    writeName(parts, pair.lastName);
  }
  return Uint8Array.from(parts);
}

export function decodeNamePairs(value: Uint8Array): NamePair[] {
  const bytes = body(value);
  const [count, first] = readVarint(bytes, 0);
  const pairs: NamePair[] = [];
  let at = first;
  for (let i = 0; i < count; i += 1) {
    const [firstName, next] = readName(bytes, at);
    const [lastName, end] = readName(bytes, next);
    pairs.push({ firstName, lastName });
    at = end;
  }
  return pairs;
}

/** Where an employee record's items are: its company, order key, person and content hash. */
export interface Location {
  readonly companyId: string;
  readonly order: OrderKey;
  readonly personId: string | null;
  /** Whether the record has a first or last name, so a names entry exists. */
  readonly named: boolean;
  /** Of the record's JSON: an upsert of an unchanged record writes nothing. */
  readonly hash: string;
}

const HAS_PERSON = 1;
const NAMED = 2;

export function encodeLocation(location: Location): Uint8Array {
  const company = encoder.encode(location.companyId);
  const flags = (location.personId === null ? 0 : HAS_PERSON) | (location.named ? NAMED : 0);
  return Buffer.concat([
    Uint8Array.of(FORMAT, flags, company.length),
    company,
    orderKeyBytes(location.order),
    location.personId === null ? new Uint8Array() : uuidBytes(location.personId),
    Buffer.from(location.hash, "hex"),
  ]);
}

export function decodeLocation(value: Uint8Array): Location {
  const bytes = body(value);
  const flags = bytes[0] ?? 0;
  const companyEnd = 2 + (bytes[1] ?? 0);
  const orderEnd = companyEnd + 25;
  const personEnd = flags & HAS_PERSON ? orderEnd + 16 : orderEnd;
  return {
    companyId: decoder.decode(bytes.subarray(2, companyEnd)),
    order: orderKeyOfBytes(bytes.subarray(companyEnd, orderEnd)),
    personId: flags & HAS_PERSON ? uuidOf(bytes, orderEnd) : null,
    named: (flags & NAMED) !== 0,
    hash: Buffer.from(bytes.subarray(personEnd)).toString("hex"),
  };
}
