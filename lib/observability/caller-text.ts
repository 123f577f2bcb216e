/**
 * The one way caller- or operator-supplied text (a company id, a field name, a path, a partner name,
 * a reason quoting them) gets into a log line or an error: anything shaped like a key redacted, cut
 * to a bounded length, and the characters that would hide or reorder what a reader sees escaped,
 * so a key sent in the wrong place never reaches a log, a 1 MiB value costs a short line, and a
 * line shows what was sent.
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
 * Characters that hide, or change how a terminal or log viewer shows the text around them: controls
 * (C0, DEL, C1), format characters (bidi embeddings, overrides, isolates and marks; zero-width
 * ones), line and paragraph separators, and lone surrogates.
 */
export const UNSAFE_TO_SHOW_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const UNSAFE_TO_SHOW = new RegExp(UNSAFE_TO_SHOW_CHARACTER.source, "gu");
/** The same, less what JSON.stringify escapes itself (C0 controls, lone surrogates). */
const RAW_IN_JSON = /[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;

/** Each UTF-16 unit of `chars` as `\uXXXX`, as JSON would write it. */
function escaped(chars: string): string {
  let out = "";
  for (let at = 0; at < chars.length; at++) out += `\\u${chars.charCodeAt(at).toString(16).padStart(4, "0")}`;
  return out;
}

/**
 * `text` with every character that could hide or reorder what is shown written as `\uXXXX`: for a
 * log line here, and for what the operator tools print (lib/cli/terminal-text.ts).
 */
export function escapeUnsafeCharacters(text: string): string {
  return text.replace(UNSAFE_TO_SHOW, escaped);
}

/**
 * `text` cut to MAX_CALLER_TEXT_CHARS characters (the marker gives the full length), then redacted,
 * then escaped (escapeUnsafeCharacters). Cutting first keeps the work bounded, and the cut never
 * leaves part of a key readable.
 */
export function callerText(text: string): string {
  if (text.length <= MAX_CALLER_TEXT_CHARS) return escapeUnsafeCharacters(redactApiKeys(text));
  const cut = redactApiKeys(cutCallerText(text, MAX_CALLER_TEXT_CHARS));
  return `${escapeUnsafeCharacters(cut)}…[cut: ${text.length} characters in all]`;
}

/**
 * What the service logger writes for every string in a line (lib/observability/logger.ts): what
 * JSON would leave raw escaped, so no line hides or reorders its text, even text no call site
 * passed through callerText (an error's message and stack). It neither cuts (a stack keeps its
 * lines) nor redacts (the key search costs time by the character): caller text gets callerText
 * where it enters a line.
 */
export function loggedString(text: string): string {
  return text.replace(RAW_IN_JSON, escaped);
}
