import { streamFetchReporter } from "../../lib/local/ddblocal-jar.js";

/** A stand-in for stderr, a terminal or not, recording what is written. */
function stream(isTTY: boolean) {
  const writes: string[] = [];
  const fake = { isTTY, write: (text: string) => writes.push(text) > 0 };
  return { writes, reporter: streamFetchReporter(fake as unknown as NodeJS.WriteStream) };
}

describe("the one-time DynamoDB Local fetch's progress", () => {
  it("writes each step as a line", () => {
    const { writes, reporter } = stream(false);
    reporter.line("DynamoDB Local, once: fetching …");
    expect(writes).toEqual(["DynamoDB Local, once: fetching …\n"]);
  });

  it("shows no ticker when stderr is not a terminal (logs, tests), and passes the result on", async () => {
    const { writes, reporter } = stream(false);
    await expect(reporter.during("  downloading…", Promise.resolve(42))).resolves.toBe(42);
    await expect(reporter.during("  extracting…", Promise.reject(new Error("no tar")))).rejects.toThrow(
      "no tar",
    );
    expect(writes).toEqual([]);
  });

  it("on a terminal, shows the label and the seconds so far, then clears the line", async () => {
    const { writes, reporter } = stream(true);
    let finish: (value: string) => void = () => {};
    const work = reporter.during("  downloading…", new Promise<string>((resolve) => (finish = resolve)));
    expect(writes).toEqual(["\r  downloading… 0 s"]);
    finish("done");
    await expect(work).resolves.toBe("done");
    expect(writes.at(-1)).toBe("\r\x1b[K");
  });
});
