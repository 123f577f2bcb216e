/** What the command-line tools share about their flags: one error for a bad call, and parsers for values. */
import { type ParseArgsConfig, parseArgs } from "node:util";

/** A bad call: the tool prints the message and its usage, and exits non-zero. */
export class UsageError extends Error {}

/** node:util's parseArgs for `options`, its errors (unknown or malformed flags) as UsageError. */
export function parseOptions<Options extends NonNullable<ParseArgsConfig["options"]>>(
  options: Options,
  args?: string[],
): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({ options, ...(args ? { args } : {}) }).values as Record<
      string,
      string | boolean | undefined
    >;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** A whole-number flag: `fallback` when absent; digits only, at least `min`, else UsageError. */
export function wholeOption(
  name: string,
  value: string | boolean | undefined,
  fallback: number,
  min: number,
): number {
  if (value === undefined) return fallback;
  const number = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min)
    throw new UsageError(`--${name} must be a whole number ≥ ${min}`);
  return number;
}
