/**
 * Refusal of full US Social Security numbers. The service must never hold one, so the loader scans
 * every string value of a record and refuses the record (without echoing the value) when one looks
 * like a full SSN:
 *
 * - `ddd-dd-dddd` not touching another digit (so `1123-45-67890` is not read as an SSN, but
 *   `SSN:123-45-6789` and `x123-45-6789y` are), or
 * - exactly 9 consecutive digits, not part of a longer digit run. A phone written as 10 or 11
 *   digits in a row (`5551234567`, `15551234567`) is one longer run, so it never trips this.
 *
 * Values are NFKC-normalized first, so full-width digits and hyphens (`１２３－４５－６７８９`)
 * are caught too. Only ASCII digits count after that.
 */

const DASHED = /(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)/;
const NINE_DIGITS = /(?<!\d)\d{9}(?!\d)/;

export function looksLikeFullSsn(value: string): boolean {
  const text = value.normalize("NFKC");
  return DASHED.test(text) || NINE_DIGITS.test(text);
}

/**
 * Fields exempt from the scan because the schema has already proved them to be a uuid or an RFC
 * 3339 date-time: a uuid's hex groups (`…-abc123456789`) and a nanosecond fraction
 * (`…T10:00:00.123456789Z`) both hold 9-digit runs that are not SSNs.
 */
const FORMAT_CHECKED_KEYS: ReadonlySet<string> = new Set([
  "id",
  "personId",
  "createdAt",
  "updatedAt",
  "invitedAt",
  "expiresAt",
  "decidedAt",
  "startsAt",
  "endsAt",
]);

/**
 * The path of the first string value in `value` that looks like a full SSN, or `undefined`.
 * Call it on a record that has passed its schema (the exemptions rely on it).
 */
export function findFullSsn(
  value: unknown,
  path: readonly (string | number)[] = [],
): (string | number)[] | undefined {
  if (typeof value === "string") return looksLikeFullSsn(value) ? [...path] : undefined;
  for (const [key, item] of childrenOf(value)) {
    const found = findFullSsn(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** An array's items by index; an object's values by key, but the format-checked ones; else none. */
function childrenOf(value: unknown): [string | number, unknown][] {
  if (Array.isArray(value)) return [...value.entries()];
  if (value !== null && typeof value === "object")
    return Object.entries(value).filter(([key]) => !FORMAT_CHECKED_KEYS.has(key));
  return [];
}
