/**
 * Phone normalization, one function for request filters and stored phones alike, so a filter and
 * a stored number that a person would call the same number always compare equal.
 *
 * Accepted: ASCII digits, with space `-` `.` `(` `)` `+` as punctuation anywhere (position is not
 * checked: `555+123+4567` is accepted), giving exactly 10 digits, or 11 digits whose first is the
 * country code `1` (dropped). Anything else (letters, tabs, other digits such as full-width ones,
 * `ext.`) is invalid: a filter is refused, a stored phone is kept but never matches.
 */

export type PhoneNormalization = { ok: true; digits: string } | { ok: false; reason: string };

const ALLOWED = /^[0-9 ().+-]*$/;

export function normalizePhone(input: string): PhoneNormalization {
  // The reasons name no part of the value: they end up in 400 messages and logs.
  if (!ALLOWED.test(input)) {
    return { ok: false, reason: "may contain only digits, spaces and - . ( ) +" };
  }
  const digits = input.replace(/[^0-9]/g, "");
  if (digits.length === 10) return { ok: true, digits };
  if (digits.length === 11 && digits.startsWith("1")) return { ok: true, digits: digits.slice(1) };
  return {
    ok: false,
    reason: `must have exactly 10 digits, or 11 starting with country code 1 (it has ${digits.length})`,
  };
}
