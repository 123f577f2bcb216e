/**
 * The one way caller-supplied text (a company id, a field name, a path, a reason quoting them) gets
 * into a log line or an error: anything shaped like a key redacted, and cut to a bounded length,
 * so a key sent in the wrong place never reaches a log and a 1 MiB value costs a short line.
 */
import { KEY_TEXT_SPLIT_CHARS, redactApiKeys } from "../keys/api-key.js";

/** The most characters of caller text a log line or error message quotes. */
export const MAX_CALLER_TEXT_CHARS = 200;

/** The base62 characters that end a cut text, when at most a key's worth less one. */
const TRAILING_KEY_PART = new RegExp(`[0-9A-Za-z]{1,${KEY_TEXT_SPLIT_CHARS}}$`);

/**
 * The first `maxChars` characters of `text`, never ending on half a surrogate pair nor on part of
 * a key: when the cut splits a base62 run, the run's last 37 characters (all a split key could
 * have before the cut) are dropped too. A key with its `pd_<env>_` prefix keeps the prefix, which
 * `redactApiKeys` redacts with whatever follows; a key in any other disguise loses its head here.
 */
export function cutCallerText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let head = text.slice(0, maxChars);
  // Never end on half a surrogate pair: the log line would hold an invalid character.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return /[0-9A-Za-z]/.test(text.charAt(head.length)) ? head.replace(TRAILING_KEY_PART, "") : head;
}

/**
 * `text` cut to MAX_CALLER_TEXT_CHARS characters (the marker gives the full length), then redacted.
 * Cutting first keeps the work bounded, and the cut never leaves part of a key readable.
 */
export function callerText(text: string): string {
  if (text.length <= MAX_CALLER_TEXT_CHARS) return redactApiKeys(text);
  return `${redactApiKeys(cutCallerText(text, MAX_CALLER_TEXT_CHARS))}…[cut: ${text.length} characters in all]`;
}
