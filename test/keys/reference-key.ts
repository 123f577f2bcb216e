/**
 * An independent implementation of the key rule in the product decisions, written from the text
 * alone (no production helper): `pd_<env>_<body><check>`, `<check>` = CRC32 (IEEE 802.3, the
 * reflected polynomial 0xEDB88320, as zlib and PNG use it) of the ASCII `pd_<env>_<body>`, in
 * base62 `0-9A-Za-z`, left-padded with `0` to 6 characters.
 */

export const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export type Env = "live" | "test";

const CRC_TABLE: readonly number[] = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? (0xedb88320 ^ (value >>> 1)) >>> 0 : value >>> 1;
  return value >>> 0;
});

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code > 0x7f) throw new Error("the checked text is ASCII");
    crc = ((CRC_TABLE[(crc ^ code) & 0xff] ?? 0) ^ (crc >>> 8)) >>> 0;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

export function base62(value: number): string {
  if (!Number.isInteger(value) || value < 0) throw new Error("base62 of a non-negative integer");
  let rest = BigInt(value);
  let digits = "";
  do {
    digits = ALPHABET.charAt(Number(rest % 62n)) + digits;
    rest /= 62n;
  } while (rest > 0n);
  return digits;
}

export function checkOf(env: Env, body: string): string {
  return base62(crc32(`pd_${env}_${body}`)).padStart(6, "0");
}

export function referenceKey(env: Env, body: string): string {
  return `pd_${env}_${body}${checkOf(env, body)}`;
}

export function referenceAccepts(key: string): boolean {
  for (const env of ["live", "test"] as const) {
    const prefix = `pd_${env}_`;
    if (!key.startsWith(prefix) || key.length !== prefix.length + 38) continue;
    const body = key.slice(prefix.length, prefix.length + 32);
    const check = key.slice(prefix.length + 32);
    const inAlphabet = [...body, ...check].every((char) => ALPHABET.includes(char));
    return inAlphabet && checkOf(env, body) === check;
  }
  return false;
}
