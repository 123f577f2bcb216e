/**
 * Stored keys and values written and read field by field, so each layout in
 * docs/data-model.md reads as a list of named fields. Numbers are big-endian: DynamoDB compares
 * Binary keys byte by byte, unsigned, so big-endian numbers sort as numbers. One byte type,
 * Uint8Array, throughout (a Buffer is one too, but none is made here).
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const TWO_32 = 2 ** 32;

export class ByteWriter {
  private buffer: Uint8Array;
  private length = 0;

  constructor(capacity = 32) {
    this.buffer = new Uint8Array(capacity);
  }

  private room(size: number): number {
    const at = this.length;
    if (at + size > this.buffer.length) {
      const grown = new Uint8Array(Math.max(at + size, this.buffer.length * 2));
      grown.set(this.buffer.subarray(0, at));
      this.buffer = grown;
    }
    this.length = at + size;
    return at;
  }

  u8(value: number): this {
    const at = this.room(1);
    this.buffer[at] = value;
    return this;
  }

  u16(value: number): this {
    const at = this.room(2);
    this.buffer[at] = value >>> 8;
    this.buffer[at + 1] = value & 0xff;
    return this;
  }

  u32(value: number): this {
    const at = this.room(4);
    for (let i = 3, rest = value; i >= 0; i -= 1, rest = Math.floor(rest / 0x100))
      this.buffer[at + i] = rest & 0xff;
    return this;
  }

  /** Five bytes: numbers below 2^40 (instants' seconds, phones), with plain numbers, no BigInt. */
  u40(value: number): this {
    return this.u8(Math.floor(value / TWO_32)).u32(value % TWO_32);
  }

  /** 7 bits a byte, low first, high bit set while more follow: values under 128 cost one byte. */
  varint(value: number): this {
    let rest = value;
    while (rest >= 0x80) {
      this.u8((rest & 0x7f) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    return this.u8(rest);
  }

  bytes(value: Uint8Array): this {
    const at = this.room(value.length); // before `this.buffer` is read: room() may replace it
    this.buffer.set(value, at);
    return this;
  }

  /** UTF-8, with no length: the layout says where the text ends. */
  text(value: string): this {
    return this.bytes(encoder.encode(value));
  }

  /** Two hex digits a byte. */
  hex(value: string): this {
    return this.bytes(hexBytes(value));
  }

  /**
   * The bytes written. A full buffer is returned as it is (a later write grows into a new one), so
   * a writer made with the exact size copies nothing.
   */
  done(): Uint8Array {
    return this.length === this.buffer.length ? this.buffer : this.buffer.slice(0, this.length);
  }
}

export class FormatError extends Error {
  override readonly name = "FormatError";
}

export class ByteReader {
  private readonly source: Uint8Array;
  private at: number;

  constructor(source: Uint8Array, offset = 0) {
    this.source = source;
    if (offset < 0 || offset > source.length)
      throw new FormatError(`offset ${offset} outside ${source.length} bytes`);
    this.at = offset;
  }

  get remaining(): number {
    return this.source.length - this.at;
  }

  private take(size: number): number {
    if (size > this.remaining) throw new FormatError(`${size} bytes wanted, ${this.remaining} left`);
    const at = this.at;
    this.at += size;
    return at;
  }

  u8(): number {
    return this.source[this.take(1)] as number;
  }

  u16(): number {
    return this.u8() * 0x100 + this.u8();
  }

  u32(): number {
    return this.u16() * 0x10000 + this.u16();
  }

  u40(): number {
    return this.u8() * TWO_32 + this.u32();
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.remaining === 0) throw new FormatError("truncated varint");
      const byte = this.u8();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  /** The next `size` bytes, as a view (not a copy). */
  bytes(size: number): Uint8Array {
    const at = this.take(size);
    return this.source.subarray(at, at + size);
  }

  /** Every byte left. */
  rest(): Uint8Array {
    return this.bytes(this.remaining);
  }

  text(size: number): string {
    return decoder.decode(this.bytes(size));
  }

  hex(size: number): string {
    return hexOf(this.bytes(size));
  }
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

export const hexOf = (bytes: Uint8Array): string => {
  let text = "";
  for (const byte of bytes) text += HEX[byte];
  return text;
};

export function hexBytes(text: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) throw new FormatError(`not hex: ${text}`);
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** Bytes as a string of one character a byte (0-255): `<` on two such strings is byte order. */
export const latin1Of = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

export function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

export const utf8Bytes = (text: string): Uint8Array => encoder.encode(text);
export const utf8Of = (bytes: Uint8Array): string => decoder.decode(bytes);

/** Byte-wise unsigned comparison, as DynamoDB orders Binary keys. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const difference = (a[i] as number) - (b[i] as number);
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

/** Strings in code-unit order: a sort that gives the same order on every run, for stored values. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => compareBytes(a, b) === 0;
