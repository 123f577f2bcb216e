/**
 * What the operator tools print, made safe for a terminal. Text they print may hold what someone
 * else wrote (a partner name, a file's field name, a path): a control character (ESC, CR, BEL), a
 * bidirectional override (U+202E) or a line separator in it would act on the terminal or reorder
 * the line instead of showing. Every such character is printed as the escape logs use (`\u001b`,
 * `\u000d`, `\u202e`), so a JSON line stays valid JSON. Each tool prints through
 * `say` (stderr: what happened), `print` and `printJson` (stdout: the answer), or `sayLines` and
 * `printLines` for a report or banner of several lines (test/repo/terminal-output.test.ts checks).
 */
import { escapeUnsafeCharacters, loggedString } from "../observability/caller-text.js";

/** `text` with every unprintable character (line breaks included) as a `\u…` escape: one line. */
export function terminalText(text: string): string {
  return escapeUnsafeCharacters(text);
}

/**
 * `value` as JSON (pretty with `indent`) whose strings show every unprintable character as `\u…`:
 * JSON.stringify escapes controls and lone surrogates itself, loggedString what it leaves raw.
 */
export function terminalJson(value: unknown, indent?: number): string {
  return loggedString(JSON.stringify(value, null, indent));
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
