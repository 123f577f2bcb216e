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
import { entriesOf } from "./well-formed.js";

const DASHED = /(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)/;
const NINE_DIGITS = /(?<!\d)\d{9}(?!\d)/;

/** Text of ASCII only is its own NFKC form: most values skip the normalization. */
const ASCII_ONLY = /^[^\u0080-\uffff]*$/;

export function looksLikeFullSsn(value: string): boolean {
  const text = ASCII_ONLY.test(value) ? value : value.normalize("NFKC");
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
 * Call it on a record that has passed its schema (the exemptions rely on it). It runs on every
 * record a load reads, so the path is one array, copied only when something is found.
 */
export function findFullSsn(
  value: unknown,
  path: readonly (string | number)[] = [],
): (string | number)[] | undefined {
  const at = [...path];
  return ssnIn(value, at) ? at : undefined;
}

/** Whether `value` holds a full SSN; `at` is left as the path to it when it does. */
function ssnIn(value: unknown, at: (string | number)[]): boolean {
  if (typeof value === "string") return looksLikeFullSsn(value);
  if (value === null || typeof value !== "object") return false;
  for (const [key, item] of entriesOf(value)) {
    if (typeof key === "string" && FORMAT_CHECKED_KEYS.has(key)) continue;
    at.push(key);
    if (ssnIn(item, at)) return true;
    at.pop();
  }
  return false;
}
