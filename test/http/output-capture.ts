/** Captures what the process writes to stdout and stderr (Powertools writes its JSON lines there). */

export interface CapturedOutput {
  /** Everything written so far, as text. */
  text(): string;
  /** The JSON lines written so far, parsed. */
  entries(): Record<string, unknown>[];
  clear(): void;
  restore(): void;
}

export function captureOutput(): CapturedOutput {
  const chunks: string[] = [];
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  for (const stream of streams) {
    stream.write = ((chunk: string | Uint8Array) => {
      chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return true;
    }) as typeof stream.write;
  }
  return {
    text: () => chunks.join(""),
    entries: () =>
      chunks
        .join("")
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    clear: () => {
      chunks.length = 0;
    },
    restore: () => {
      streams.forEach((stream, index) => {
        const original = originals[index];
        if (original) stream.write = original;
      });
    },
  };
}
