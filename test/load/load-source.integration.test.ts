/**
 * A load reads what it checked (docs/data-format.md, "Keeping the directory current"): both passes
 * read the one descriptor opened at the start, so a file replaced at its path after validation is
 * not what gets applied, and one rewritten in place is refused; anything but a regular file is
 * refused at once; a line over 1 MiB refuses the file, naming the line; an abort while reading
 * undoes the load. On every store, nothing changes when a load is refused.
 */
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { DataFileError } from "../../lib/directory/source.js";
import { loadFile } from "../../lib/load/load-file.js";
import {
  describeEachStore,
  E,
  employee,
  employeeIds,
  fileWith,
  merge,
  ndjson,
  seen,
  upsertEmployee,
} from "./load-harness.js";

async function refusal(attempt: Promise<unknown>): Promise<Error> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) throw new Error("the load was not refused");
  return error;
}

describeEachStore("a load's file", (directory, it) => {
  beforeEach(async () => {
    await merge(directory(), [], [employee(1)]);
  });

  it("replaced at its path after validation is not what gets applied: the validated one is", async () => {
    const path = await fileWith(ndjson([upsertEmployee(employee(2))]));
    // Valid on its own, but never validated: a duplicate id and another record.
    const other = await fileWith(ndjson([upsertEmployee(employee(3)), upsertEmployee(employee(3))]));
    const summary = await loadFile(path, "changes", directory(), {
      onProgress: ({ phase }) => {
        if (phase === "validated") execFileSync("mv", [other, path]);
      },
    });
    expect(summary.changes).toBe(1);
    expect(await employeeIds(directory(), "acme")).toEqual([E(1), E(2)]);
  });

  it("rewritten in place after validation is refused, nothing changed", async () => {
    const path = await fileWith(ndjson([upsertEmployee(employee(2))]));
    const before = await seen(directory());
    const error = await refusal(
      loadFile(path, "changes", directory(), {
        onProgress: ({ phase }) => {
          if (phase === "validated")
            execFileSync("sh", [
              "-c",
              `printf '%s\\n' "$1" > "$2"`,
              "sh",
              ndjson([upsertEmployee(employee(3))]).trim(),
              path,
            ]);
        },
      }),
    );
    expect(error).toBeInstanceOf(DataFileError);
    expect(error.message).toBe(`${path}: changed while it was loaded; load it again once it is written`);
    expect(await seen(directory())).toEqual(before);
  });

  it.each([
    ["changes", upsertEmployee(employee(2))],
    ["merge", { employee: employee(2) }],
  ] as const)("with a 3 MB line is refused naming the line (%s), nothing changed", async (mode, first) => {
    const before = await seen(directory());
    const path = await fileWith(`${ndjson([first])}${"x".repeat(3_000_000)}\n`);
    const error = await refusal(loadFile(path, mode, directory()));
    expect(error.message).toBe(
      "line 2: longer than 1 MiB (1,048,576 bytes); a line holds one record or change",
    );
    expect(await seen(directory())).toEqual(before);
  });

  it("whose first line is a 3 MB record is refused naming it, not read as a JSON document", async () => {
    const big = { op: "upsert", employee: { ...employee(2), lastName: "x".repeat(3_000_000) } };
    const path = await fileWith(ndjson([big]));
    const error = await refusal(loadFile(path, "merge", directory()));
    expect(error.message).toBe(
      "line 1: longer than 1 MiB (1,048,576 bytes); a line holds one record or change",
    );
  });

  it.each([
    ["/dev/zero", "a device"],
    ["/", "a directory"],
  ])("%s is refused at once as %s, nothing changed", async (path, kind) => {
    const before = await seen(directory());
    const error = await refusal(loadFile(path, "merge", directory()));
    expect(error.message).toBe(`${path}: is ${kind}, not a regular file; give a file`);
    expect(await seen(directory())).toEqual(before);
  });

  it("a FIFO with no writer is refused at once, nothing changed", async () => {
    const fifo = join(
      dirname(await fileWith("")),
      `fifo-${process.pid}-${Math.random().toString(36).slice(2)}`,
    );
    execFileSync("mkfifo", [fifo]);
    const error = await refusal(loadFile(fifo, "changes", directory()));
    expect(error.message).toBe(`${fifo}: is a FIFO (named pipe), not a regular file; give a file`);
  });

  it("aborted while reading is undone, nothing changed", async () => {
    const before = await seen(directory());
    // Blank lines: no change to check the signal between, only bytes.
    const path = await fileWith(`${"\n".repeat(200_000)}${ndjson([upsertEmployee(employee(2))])}`);
    const interrupt = new AbortController();
    interrupt.abort(new Error("interrupted"));
    await expect(loadFile(path, "changes", directory(), { signal: interrupt.signal })).rejects.toThrow(
      "interrupted",
    );
    expect(await seen(directory())).toEqual(before);
  });
});
