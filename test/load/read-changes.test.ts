/**
 * How a load file's kind is told and how much of it is read (lib/load/change-lines.ts): a JSON data
 * file on one line longer than the line limit is read as the document it is; a file that is
 * neither is refused having read its bytes once; a JSON document over its limit is refused while
 * being read.
 */
import { DataFileError } from "../../lib/directory/source.js";
import { MAX_DOCUMENT_BYTES, readChanges } from "../../lib/load/change-lines.js";
import { MAX_LINE_BYTES, type OpenBytes } from "../../lib/load/lines.js";
import { employeeInput, testUuid } from "../support/records.js";

const READ_BYTES = 64 * 1024;

/** `bytes` served in reads of 64 KiB from any offset, counting what is handed out. */
function counted(bytes: Uint8Array) {
  const served = { bytes: 0 };
  const open: OpenBytes = async function* (offset) {
    for (let at = offset; at < bytes.length; at += READ_BYTES) {
      const data = bytes.subarray(at, at + READ_BYTES);
      served.bytes += data.length;
      yield data;
    }
  };
  return { open, served };
}

async function outcome(open: OpenBytes, mode: "merge" | "changes" = "merge") {
  let changes = 0;
  try {
    for await (const _ of readChanges(open, mode)) changes += 1;
    return { changes };
  } catch (error) {
    if (!(error instanceof DataFileError)) throw error;
    return { changes, refused: error.message };
  }
}

const record = (n: number) =>
  employeeInput({
    id: testUuid(0xfeed, 1, n),
    companyId: "acme",
    personId: null,
    createdAt: "2024-03-01T00:00:00Z",
  });

describe("readChanges", () => {
  it("reads a JSON data file written on one line longer than 1 MiB as a document", async () => {
    const employees = Array.from({ length: 2_000 }, (_, i) => record(i + 1));
    const text = JSON.stringify({ persons: [], employees });
    expect(text.length).toBeGreaterThan(MAX_LINE_BYTES);
    const { open } = counted(Buffer.from(text));
    expect(await outcome(open)).toEqual({ changes: 2_000 });
  });

  it("refuses a file that is neither NDJSON nor JSON having read it whole once (and a line more)", async () => {
    const bytes = Buffer.from(`${"{".repeat(2 * MAX_LINE_BYTES)}\n`);
    const { open, served } = counted(bytes);
    expect(await outcome(open)).toEqual({
      changes: 0,
      refused: "line 1: longer than 1 MiB (1,048,576 bytes); a line holds one record or change",
    });
    expect(served.bytes).toBeLessThanOrEqual(2 * (MAX_LINE_BYTES + READ_BYTES));
    const document = Buffer.from(`{"persons": [${" ".repeat(3 * MAX_LINE_BYTES)}`);
    const read = counted(document);
    expect((await outcome(read.open)).refused).toMatch(/^data file: not valid JSON/);
    expect(read.served.bytes).toBeLessThanOrEqual(document.length + MAX_LINE_BYTES + READ_BYTES);
  });

  it("refuses a JSON document over its limit while reading it, before holding more", async () => {
    const served = { bytes: 0 };
    const spaces = new Uint8Array(READ_BYTES).fill(0x20); // one buffer, handed out again and again
    const open: OpenBytes = async function* () {
      yield Buffer.from('{"persons": [\n');
      for (;;) {
        served.bytes += READ_BYTES;
        yield spaces;
      }
    };
    expect(await outcome(open)).toEqual({
      changes: 0,
      refused:
        "data file: is a JSON document over 256 MiB, which is read whole; write it as NDJSON (one record a line)",
    });
    expect(served.bytes).toBeLessThanOrEqual(MAX_DOCUMENT_BYTES + READ_BYTES);
  });
});
