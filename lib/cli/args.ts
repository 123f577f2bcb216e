/**
 * What every command-line tool shares: its flags, parsed by node:util's parseArgs, with `--help`
 * and `-h`; parsers for values; and one way to end.
 *
 * - `--help` or `-h`: the usage on stdout, exit 0.
 * - A bad call (unknown option, bad value, missing argument): one line naming the option or value,
 *   then the usage, on stderr; exit 2 (EXIT_USAGE).
 * - A failure while running (unreachable endpoint, bad file): one line on stderr, exit 1
 *   (EXIT_FAILURE). Never a stack trace.
 *
 * The line names what was given, so it is printed with keys redacted and unprintable characters
 * escaped (terminal-text.ts): one line, whatever the caller or a file wrote.
 */
import { parseArgs } from "node:util";
import { redactApiKeys } from "../keys/api-key.js";
import { terminalText } from "./terminal-text.js";

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A bad call: the tool prints the message and its usage, and exits with EXIT_USAGE. */
export class UsageError extends Error {}

interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
}
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** The flags given: a string option's text, `true` for a boolean one, absent when not given. */
export type OptionValues<Options extends OptionSpecs> = {
  -readonly [Name in keyof Options]?: Options[Name]["type"] extends "string" ? string : boolean;
};

export interface CommandLine<Options extends OptionSpecs> {
  values: OptionValues<Options>;
  positionals: string[];
}

export interface CliDefinition<Options extends OptionSpecs> {
  /** How the tool names itself at the start of an error line, e.g. `keys`. */
  readonly name: string;
  readonly usage: string;
  /** Its flags; `help` (`-h`) is added to every tool. */
  readonly options: Options;
  /** Whether it takes positional arguments (a file, a command); a stray one is a usage error otherwise. */
  readonly positionals?: boolean;
}

const HELP_FLAGS = new Set(["--help", "-h"]);

/** Whether the call asks for help (before any `--`), even among otherwise bad flags. */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((arg) => HELP_FLAGS.has(arg));
}

/**
 * The tool's flags and positionals, or "help" when asked for. Unknown or malformed flags and stray
 * positionals are UsageErrors carrying parseArgs's own message (it names the flag).
 */
export function parseCommandLine<Options extends OptionSpecs>(
  definition: CliDefinition<Options>,
  args: readonly string[],
): CommandLine<Options> | "help" {
  if (asksForHelp(args)) return "help";
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: definition.options,
      allowPositionals: definition.positionals ?? false,
      strict: true,
    });
    return { values: values as OptionValues<Options>, positionals };
  } catch (error) {
    // Its first sentence names the flag; the rest is advice about `--` that rarely applies.
    const message = messageOf(error);
    throw new UsageError(message.split(/\.\s/)[0] ?? message);
  }
}

/** A value as an error line quotes it: keys redacted, cut short. */
export function quoted(value: string): string {
  const redacted = redactApiKeys(value);
  return JSON.stringify(redacted.length > 60 ? `${redacted.slice(0, 60)}…` : redacted);
}

/** A whole-number flag (digits only, from `min` to `max`), or undefined when absent. */
export function wholeNumberOption(
  name: string,
  value: string | undefined,
  { min, max = Number.MAX_SAFE_INTEGER }: { min: number; max?: number },
): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`--${name} must be a whole number ${range}, got ${quoted(value)}`);
  }
  return number;
}

/** A positive decimal flag such as a rate (`0.5`, `10`), or undefined when absent. */
export function positiveNumberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(number > 0 && Number.isFinite(number)))
    throw new UsageError(`--${name} must be a positive number, got ${quoted(value)}`);
  return number;
}

/** A flag that takes one of `choices`, or undefined when absent. */
export function choiceOption<Choice extends string>(
  name: string,
  value: string | undefined,
  choices: readonly Choice[],
): Choice | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${choices.join(", ")}, got ${quoted(value)}`);
  return value as Choice;
}

/** An http(s) URL flag, such as a local engine's endpoint, or undefined when absent. */
export function urlOption(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const url = URL.parse(value);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    throw new UsageError(`--${name} must be an http:// or https:// URL, got ${quoted(value)}`);
  return value;
}

/** A flag's value, or a UsageError saying the flag is required. */
export function required<Value>(name: string, value: Value | undefined): Value {
  if (value === undefined || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

/** An error's message; duck-typed, as errors from another realm (a test's VM) are no `instanceof Error`. */
function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : String(error);
}

/** The one line a failure prints: its message (an AggregateError's inner ones), never a stack. */
export function failureLine(error: unknown): string {
  const inner = (error as { errors?: unknown } | null)?.errors;
  if (Array.isArray(inner) && inner.length > 0) return [...new Set(inner.map(failureLine))].join("; ");
  if (typeof error !== "object" || error === null) return String(error);
  const { code, name } = error as { code?: unknown; name?: unknown };
  return messageOf(error) || (typeof code === "string" ? code : "") || String(name);
}

export interface RunOptions {
  readonly args?: readonly string[];
  /** The failure line for errors whose own message is not the one to show; undefined for the default. */
  readonly describeFailure?: (error: unknown) => string | undefined;
  readonly stdout?: (text: string) => void;
  readonly stderr?: (text: string) => void;
}

/**
 * Runs a tool: parses its command line, answers --help, runs `main`, and reports a bad call or a
 * failure as the module comment says. Resolves to the exit code (0 on success).
 */
export async function runCli<Options extends OptionSpecs>(
  definition: CliDefinition<Options>,
  main: (commandLine: CommandLine<Options>) => Promise<void>,
  {
    args = process.argv.slice(2),
    describeFailure,
    stdout = (text) => process.stdout.write(text),
    stderr = (text) => process.stderr.write(text),
  }: RunOptions = {},
): Promise<number> {
  try {
    const commandLine = parseCommandLine(definition, args);
    if (commandLine === "help") stdout(`${definition.usage}\n`);
    else await main(commandLine);
    return 0;
  } catch (error) {
    const usage = error instanceof UsageError;
    const line = usage ? error.message : (describeFailure?.(error) ?? failureLine(error));
    const said = terminalText(redactApiKeys(`${definition.name}: ${line}`));
    stderr(`${said}\n${usage ? `\n${definition.usage}\n` : ""}`);
    return usage ? EXIT_USAGE : EXIT_FAILURE;
  }
}

/**
 * A tool's entry point: runCli, then a failure ends the process at once with its code (a half-done
 * run may still hold sockets or a child process). On success the process ends by itself, with
 * whatever exit code `main` set.
 */
export function cli<Options extends OptionSpecs>(
  definition: CliDefinition<Options>,
  main: (commandLine: CommandLine<Options>) => Promise<void>,
  options: RunOptions = {},
): void {
  void runCli(definition, main, options).then((code) => {
    if (code !== 0) process.exit(code);
  });
}
