import fc from "fast-check";
import {
  type Line,
  LineTooLongError,
  linesFrom,
  MAX_LINE_BYTES,
  type OpenBytes,
} from "../../lib/load/lines.js";

/** A file's bytes served in reads of the given sizes, from any offset. */
const served = (bytes: Uint8Array, sizes: readonly number[]): OpenBytes =>
  async function* (offset) {
    let at = offset;
    for (let i = 0; at < bytes.length; i += 1) {
      const size = sizes.length === 0 ? bytes.length : Math.max(1, sizes[i % sizes.length] ?? 1);
      yield bytes.subarray(at, at + size);
      at += size;
    }
  };

async function all(open: OpenBytes, from?: Line["next"]) {
  const lines: Line[] = [];
  for await (const line of linesFrom(open, from)) lines.push(line);
  return lines;
}

const encode = (text: string) => new TextEncoder().encode(text);

describe("linesFrom", () => {
  it("gives every line with its number, whatever the reads, and goes on from any line's end exactly", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, "")),
          {
            maxLength: 20,
          },
        ),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 5 }),
        async (texts, finalNewline, sizes) => {
          const file = encode(texts.join("\n") + (finalNewline && texts.length > 0 ? "\n" : ""));
          const lines = await all(served(file, sizes));
          // Text after the last line break is a line; nothing after it is none.
          const expected = !finalNewline && texts.at(-1) === "" ? texts.slice(0, -1) : texts;
          expect(lines.map((line) => line.text)).toEqual(expected);
          expect(lines.map((line) => line.number)).toEqual(expected.map((_, i) => i + 1));
          for (const [i, line] of lines.entries()) {
            const rest = await all(served(file, sizes), line.next);
            expect(rest.map((l) => [l.text, l.number])).toEqual(
              lines.slice(i + 1).map((l) => [l.text, l.number]),
            );
          }
          expect(lines.at(-1)?.next.offset ?? 0).toBe(file.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("drops a CR before the line break and the first line's byte order mark", async () => {
    const lines = await all(served(encode("\uFEFFone\r\ntwo\r\n"), [3]));
    expect(lines.map((line) => line.text)).toEqual(["one", "two"]);
  });

  it("keeps a multi-byte character whole across reads", async () => {
    const lines = await all(served(encode("żółw\nnaïve\n"), [1]));
    expect(lines.map((line) => line.text)).toEqual(["żółw", "naïve"]);
  });
});

describe("a line over 1 MiB", () => {
  /** An endless line after `before`: reads of spaces, counting the bytes handed out. */
  const endless = (before: string, served: { bytes: number }): OpenBytes =>
    async function* () {
      const head = encode(before);
      served.bytes += head.length;
      yield head;
      for (;;) {
        served.bytes += 64 * 1024;
        yield new Uint8Array(64 * 1024).fill(0x20);
      }
    };

  it("refuses the file naming the line, having read no more than the limit and a read", async () => {
    const served = { bytes: 0 };
    const refusal = await all(endless("first\n", served)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(LineTooLongError);
    expect((refusal as Error).message).toBe(
      "line 2: longer than 1 MiB (1,048,576 bytes); a line holds one record or change",
    );
    expect(served.bytes).toBeLessThanOrEqual(MAX_LINE_BYTES + 2 * 64 * 1024);
  });

  it("is read whole when it is exactly the limit", async () => {
    const text = "x".repeat(MAX_LINE_BYTES);
    const lines = await all(served(encode(`${text}\nnext`), [70_000]));
    expect(lines.map((line) => line.text.length)).toEqual([MAX_LINE_BYTES, 4]);
  });
});

describe("an abort signal", () => {
  it("stops reading mid-line, at the next read", async () => {
    const interrupt = new AbortController();
    let reads = 0;
    const open: OpenBytes = async function* () {
      for (;;) {
        reads += 1;
        if (reads === 3) interrupt.abort(new Error("interrupted"));
        yield encode("   ");
      }
    };
    const read = async () => {
      for await (const _ of linesFrom(open, undefined, interrupt.signal)) throw new Error("no line ends");
    };
    await expect(read()).rejects.toThrow("interrupted");
    expect(reads).toBe(3);
  });
});
