/**
 * The one way caller-supplied text (a company id, a field name, a path, a reason quoting them) gets
 * into a log line or an error: anything shaped like a key redacted, and cut to a bounded length,
 * so a key sent in the wrong place never reaches a log and a 1 MiB value costs a short line.
 */
import { redactApiKeys } from "../keys/api-key.js";

/** The most characters of caller text a log line or error message quotes. */
export const MAX_CALLER_TEXT_CHARS = 200;

/**
 * `text` cut to MAX_CALLER_TEXT_CHARS characters (the marker gives the full length), then redacted.
 * Cutting first keeps the work bounded; a key the cut splits keeps its `pd_<env>_` prefix, and the
 * redaction takes any length of key body after it, so the cut never leaves a key readable.
 */
export function callerText(text: string): string {
  if (text.length <= MAX_CALLER_TEXT_CHARS) return redactApiKeys(text);
  let head = text.slice(0, MAX_CALLER_TEXT_CHARS);
  // Never end on half a surrogate pair: the log line would hold an invalid character.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `${redactApiKeys(head)}…[cut: ${text.length} characters in all]`;
}
