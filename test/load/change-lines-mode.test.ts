/** A changes file read in another mode is refused with the mode it needs. */
import { Readable } from "node:stream";
import { readChanges } from "../../lib/load/change-lines.js";
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
