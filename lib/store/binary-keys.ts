/**
 * Binary forms of the values keys are made of. A Query is billed on the bytes it reads, so ids,
 * instants and phones are stored in the fewest bytes whose byte order is their sort order:
 * DynamoDB compares Binary keys byte by byte, unsigned.
 */

/**
 * An instant as 5 bytes of seconds since the epoch plus 2^39 (years 0000 to 9999 fit, negatives
 * sort first) and 4 bytes of nanoseconds, both big-endian: byte order is time order, and both
 * halves decode with plain numbers (no BigInt), which matters when a search decodes thousands.
 */
const INSTANT_BYTES = 9;
const UUID_BYTES = 16;
const PHONE_BYTES = 5;

const SECONDS_BIAS = 2 ** 39;
const INSTANT_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{9})Z$/;

/** An instant key (`lib/directory/instant-key.ts`) as 9 bytes. */
function instantBytes(instantKey: string): Uint8Array {
  const match = INSTANT_KEY.exec(instantKey);
  if (!match?.[1] || !match[2]) throw new Error(`not an instant key: ${instantKey}`);
  const bytes = Buffer.alloc(INSTANT_BYTES);
  bytes.writeUIntBE(Date.parse(`${match[1]}Z`) / 1000 + SECONDS_BIAS, 0, 5);
  bytes.writeUInt32BE(Number(match[2]), 5);
  return bytes;
}

/** The instant key of the 9 bytes at `offset`. */
function instantKeyOf(bytes: Uint8Array, offset = 0): string {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset + offset, INSTANT_BYTES);
  const seconds = view.readUIntBE(0, 5) - SECONDS_BIAS;
  const nanos = view.readUInt32BE(5);
  const whole = new Date(seconds * 1000).toISOString().slice(0, 19);
  return `${whole}.${String(nanos).padStart(9, "0")}Z`;
}

/** A lower-case uuid as its 16 bytes; hex digit order is byte order, so sorting is unchanged. */
export function uuidBytes(id: string): Uint8Array {
  const hex = id.replaceAll("-", "");
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`not a lower-case uuid: ${id}`);
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

export function uuidOf(bytes: Uint8Array, offset = 0): string {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset + offset, UUID_BYTES).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Ten normalized digits as 5 bytes (10^10 < 2^34). */
export function phoneBytes(digits: string): Uint8Array {
  if (!/^\d{10}$/.test(digits)) throw new Error("not a normalized phone");
  let value = BigInt(digits);
  const bytes = new Uint8Array(PHONE_BYTES);
  for (let i = PHONE_BYTES - 1; i >= 0; i -= 1) {
    bytes[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return bytes;
}

export function concatBytes(...parts: readonly (Uint8Array | number)[]): Uint8Array {
  const arrays = parts.map((part) => (typeof part === "number" ? Uint8Array.of(part) : part));
  const out = new Uint8Array(arrays.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of arrays) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Byte-wise unsigned comparison, as DynamoDB orders Binary keys. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

export function utf8Bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/**
 * An order key: instant (9 bytes) + uuid (16) as a latin1 string, one character a byte. Comparing
 * two with `<` orders them by createdAt, then id, as the searches sort; Map keys and sorting on
 * them cost far less than decoding thousands of entries to text.
 */
export type OrderKey = string;

export function orderKey(createdKey: string, id: string): OrderKey {
  return Buffer.from(concatBytes(instantBytes(createdKey), uuidBytes(id))).toString("latin1");
}

export const orderKeyOfBytes = (bytes: Uint8Array): OrderKey =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");

export const orderKeyBytes = (key: OrderKey): Uint8Array => Buffer.from(key, "latin1");

/** The createdAt instant key and the id an order key holds. */
export function orderKeyParts(key: OrderKey): { createdKey: string; id: string } {
  const bytes = orderKeyBytes(key);
  return { createdKey: instantKeyOf(bytes, 0), id: uuidOf(bytes, INSTANT_BYTES) };
}

/** The order-key prefix of an instant: every key at or after it compares >= it, before it <. */
export const instantOrderPrefix = (createdKey: string): string =>
  Buffer.from(instantBytes(createdKey)).toString("latin1");
