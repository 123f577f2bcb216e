/**
 * A changes file read in another mode is refused with the mode it needs; one given no mode is
 * recognised by its first line.
 */
import { Readable } from "node:stream";
import { readChanges, startsWithChangeLine } from "../../lib/load/change-lines.js";
import type { OpenBytes } from "../../lib/load/lines.js";

const CHANGES = [
  '{"op": "delete", "person": "0b7e2c4e-6a51-4bd4-9a0b-3c1f6f1d2e01"}',
  '{"op": "delete", "employee": "0b7e2c4e-6a51-4bd4-9a0b-3c1f6f1d2e02"}',
].join("\n");
const open: OpenBytes = (offset) => Readable.from([Buffer.from(CHANGES).subarray(offset)]);

async function firstRefusal(
  mode: "merge" | "snapshot" | "changes",
  bytes = open,
): Promise<string | undefined> {
  try {
    for await (const _change of readChanges(bytes, mode));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("a changes file", () => {
  it.each(["merge", "snapshot"] as const)(
    "loaded in mode %s is refused, naming --mode changes",
    async (mode) => {
      expect(await firstRefusal(mode)).toBe(
        'line 1: expected an object with one key, "person" or "employee"; it is a change line ("op"): load a changes file with --mode changes',
      );
    },
  );

  it("is read in mode changes", async () => {
    expect(await firstRefusal("changes")).toBeUndefined();
  });

  it("a line that is neither a record nor a change gets no such hint", async () => {
    const other: OpenBytes = () => Readable.from([Buffer.from('{"persons2": []}\n')]);
    expect(await firstRefusal("merge", other)).toBe(
      'line 1: expected an object with one key, "person" or "employee"',
    );
  });
});

describe("startsWithChangeLine", () => {
  const bytesOf =
    (text: string): OpenBytes =>
    (offset) =>
      Readable.from([Buffer.from(text).subarray(offset)]);

  it("is true when the first non-blank line is a change line", async () => {
    expect(await startsWithChangeLine(open)).toBe(true);
    expect(await startsWithChangeLine(bytesOf(`\n  \n${CHANGES}`))).toBe(true);
  });

  it("is false for a record line, a JSON data file, a line that is no JSON, an empty file", async () => {
    for (const text of [
      '{"person": {"id": "0b7e2c4e-6a51-4bd4-9a0b-3c1f6f1d2e01"}}\n{"op": "delete", "person": "x"}',
      '{"persons": [], "employees": []}',
      '{\n"persons": []}',
      "not json",
      "",
      "[1]",
    ])
      expect(await startsWithChangeLine(bytesOf(text))).toBe(false);
  });

  it("is false for a first line over the line limit", async () => {
    const long = `{"op": "delete", "person": "${"x".repeat(2 * 1024 * 1024)}"}`;
    expect(await startsWithChangeLine(bytesOf(long))).toBe(false);
  });
});
