/**
 * Binary forms of the values keys are made of. A Query is billed on the bytes it reads, so ids,
 * instants and phones are stored in the fewest bytes whose byte order is their sort order:
 * DynamoDB compares Binary keys byte by byte, unsigned.
 */
import { ByteReader, ByteWriter, latin1Bytes, latin1Of } from "./bytes.js";

declare const brand: unique symbol;
/** A value of `T` that only its constructor function makes, so one kind is never passed as another. */
export type Brand<T, Name extends string> = T & { readonly [brand]: Name };

/**
 * An instant as 5 bytes of seconds since the epoch plus 2^39 (years 0000 to 9999 fit, negatives
 * sort first) and 4 bytes of nanoseconds, both big-endian: byte order is time order, and both
 * halves decode with plain numbers (no BigInt), which matters when a search decodes thousands.
 */
const INSTANT_BYTES = 9;
export const UUID_BYTES = 16;
const PHONE_BYTES = 5;

const SECONDS_BIAS = 2 ** 39;
const INSTANT_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{9})Z$/;

/** An instant key (`lib/directory/instant-key.ts`): seconds + 2^39 (5 bytes), nanoseconds (4). */
function writeInstant(writer: ByteWriter, instantKey: string): ByteWriter {
  const match = INSTANT_KEY.exec(instantKey);
  if (!match?.[1] || !match[2]) throw new Error(`not an instant key: ${instantKey}`);
  return writer.u40(Date.parse(`${match[1]}Z`) / 1000 + SECONDS_BIAS).u32(Number(match[2]));
}

function readInstant(reader: ByteReader): string {
  const seconds = reader.u40() - SECONDS_BIAS;
  const nanos = reader.u32();
  const whole = new Date(seconds * 1000).toISOString().slice(0, 19);
  return `${whole}.${String(nanos).padStart(9, "0")}Z`;
}

/** A lower-case uuid as its 16 bytes; hex digit order is byte order, so sorting is unchanged. */
export function writeUuid(writer: ByteWriter, id: string): ByteWriter {
  const hex = id.replaceAll("-", "");
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`not a lower-case uuid: ${id}`);
  return writer.hex(hex);
}

export function readUuid(reader: ByteReader): string {
  const hex = reader.hex(UUID_BYTES);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The 9 bytes of an instant key. */
export const instantBytes = (instantKey: string): Uint8Array =>
  writeInstant(new ByteWriter(INSTANT_BYTES), instantKey).done();

/** The instant key of the 9 bytes at `offset`. */
export const instantKeyOf = (bytes: Uint8Array, offset = 0): string =>
  readInstant(new ByteReader(bytes, offset));

export const uuidBytes = (id: string): Uint8Array => writeUuid(new ByteWriter(UUID_BYTES), id).done();

export const uuidOf = (bytes: Uint8Array, offset = 0): string => readUuid(new ByteReader(bytes, offset));

/** Ten normalized digits as 5 bytes (10^10 < 2^40). */
export function phoneBytes(digits: string): Uint8Array {
  if (!/^\d{10}$/.test(digits)) throw new Error("not a normalized phone");
  return new ByteWriter(PHONE_BYTES).u40(Number(digits)).done();
}

/**
 * An order key: instant (9 bytes) + uuid (16) as a string of one character a byte. Comparing two
 * with `<` orders them by createdAt, then id, as the searches sort; Map keys and sorting on them
 * cost far less than decoding thousands of entries to text.
 */
export type OrderKey = Brand<string, "OrderKey">;
export const ORDER_KEY_BYTES = INSTANT_BYTES + UUID_BYTES;

export const orderKey = (createdKey: string, id: string): OrderKey =>
  orderKeyOfBytes(writeUuid(writeInstant(new ByteWriter(ORDER_KEY_BYTES), createdKey), id).done());

/** The order key of stored bytes: 25 of them, or an instant's 9 (a range bound, below). */
export const orderKeyOfBytes = (bytes: Uint8Array): OrderKey => latin1Of(bytes) as OrderKey;

export const orderKeyBytes = (key: OrderKey): Uint8Array => latin1Bytes(key);

/** The createdAt instant key and the id an order key holds. */
export function orderKeyParts(key: OrderKey): { createdKey: string; id: string } {
  const reader = new ByteReader(orderKeyBytes(key));
  return { createdKey: readInstant(reader), id: readUuid(reader) };
}

/** The order-key prefix of an instant: every key at or after it compares >= it, before it <. */
export const instantOrderPrefix = (createdKey: string): OrderKey => orderKeyOfBytes(instantBytes(createdKey));
