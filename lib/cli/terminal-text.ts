/**
 * What the operator tools print, made safe for a terminal. Text they print may hold what someone
 * else wrote (a partner name, a file's field name, a path): a control character (ESC, CR, BEL), a
 * bidirectional override (U+202E) or a line separator in it would act on the terminal or reorder
 * the line instead of showing. Every such character is printed as a visible escape: `\x1b`, `\r`,
 * `\u202e`; in JSON output always `\u…`, so a JSON line stays valid JSON. Each tool prints through
 * `say` (stderr: what happened), `print` and `printJson` (stdout: the answer), or `sayLines` and
 * `printLines` for a report or banner of several lines (test/repo/terminal-output.test.ts checks).
 */
import { UNPRINTABLE_CHARACTER } from "../keys/partner-name.js";

const UNPRINTABLE = new RegExp(UNPRINTABLE_CHARACTER.source, "gu");
/** JSON.stringify escapes C0 controls and lone surrogates itself; it leaves these raw. */
const UNPRINTABLE_IN_JSON = /[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };

const hex = (code: number, digits: number) => code.toString(16).padStart(digits, "0");

/** `\uXXXX` for each UTF-16 unit of `characters` (a pair for a character beyond U+FFFF). */
function unicodeEscape(characters: string): string {
  let out = "";
  for (let at = 0; at < characters.length; at += 1) out += `\\u${hex(characters.charCodeAt(at), 4)}`;
  return out;
}

function textEscape(characters: string): string {
  const short = SHORT_ESCAPES[characters];
  if (short !== undefined) return short;
  const code = characters.charCodeAt(0);
  return characters.length === 1 && code <= 0xff ? `\\x${hex(code, 2)}` : unicodeEscape(characters);
}

/** `text` with every unprintable character (line breaks included) as a visible escape: one line. */
export function terminalText(text: string): string {
  return text.replace(UNPRINTABLE, textEscape);
}

/** `value` as JSON (pretty with `indent`) whose strings show every unprintable character as `\u…`. */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNPRINTABLE_IN_JSON, unicodeEscape);
}

/** Where a tool prints: process.stdout or process.stderr, or a test's stand-in. */
export interface OutputStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Writes `text` as one line, escaped. */
export function writeLine(stream: OutputStream, text: string): void {
  stream.write(`${terminalText(text)}\n`);
}

/** Writes `text`, a report of several lines, each line escaped: only its own line breaks act. */
export function writeLines(stream: OutputStream, text: string): void {
  const lines = text.endsWith("\n") ? text.slice(0, -1) : text;
  stream.write(`${lines.split("\n").map(terminalText).join("\n")}\n`);
}

/** Writes `value` as JSON on one line (several with `indent`), escaped. */
export function writeJson(stream: OutputStream, value: unknown, indent?: number): void {
  stream.write(`${terminalJson(value, indent)}\n`);
}

/** A line on stderr: what a command did, a warning, a note. */
export const say = (text: string): void => writeLine(process.stderr, text);

/** A line on stdout: the command's answer. */
export const print = (text: string): void => writeLine(process.stdout, text);

/** JSON on stdout: the command's answer. */
export const printJson = (value: unknown, indent?: number): void => writeJson(process.stdout, value, indent);

/** Lines on stderr: a tool's progress report or notice of several lines. */
export const sayLines = (text: string): void => writeLines(process.stderr, text);

/** Lines on stdout: a tool's report, table or banner. */
export const printLines = (text: string): void => writeLines(process.stdout, text);
