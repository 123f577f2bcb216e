/** Captures what the process writes to stdout and stderr (Powertools writes its JSON lines there). */
import type { Logger } from "../../lib/observability/logger.js";

export interface CapturedOutput {
  /** Everything written so far, as text. */
  text(): string;
  /** The JSON lines written so far, parsed. */
  entries(): Record<string, unknown>[];
  clear(): void;
  restore(): void;
}

export function captureOutput(): CapturedOutput {
  const captured: string[] = [];
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  for (const stream of streams) {
    stream.write = ((written: string | Uint8Array) => {
      captured.push(typeof written === "string" ? written : Buffer.from(written).toString("utf8"));
      return true;
    }) as typeof stream.write;
  }
  return {
    text: () => captured.join(""),
    entries: () =>
      captured
        .join("")
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    clear: () => {
      captured.length = 0;
    },
    restore: () => {
      streams.forEach((stream, index) => {
        const original = originals[index];
        if (original) stream.write = original;
      });
    },
  };
}

/**
 * The log lines of each test of a suite: the logger raised to INFO (test runs are SILENT, see
 * test/support/quiet-logs.ts; request loggers are its children) and the output captured for the
 * suite, cleared after each test, restored after all. The logger is passed in: importing it here
 * would create it before a suite sets the environment it reads (cold start, level).
 */
export function captureLogsPerTest(logger: Logger): CapturedOutput {
  let output: CapturedOutput | undefined;
  beforeAll(() => {
    logger.setLogLevel("INFO");
    output = captureOutput();
  });
  afterEach(() => output?.clear());
  afterAll(() => {
    output?.restore();
    logger.setLogLevel("SILENT");
  });
  const current = () => {
    if (!output) throw new Error("logs are captured only while the suite's tests run");
    return output;
  };
  return {
    text: () => current().text(),
    entries: () => current().entries(),
    clear: () => current().clear(),
    restore: () => current().restore(),
  };
}
