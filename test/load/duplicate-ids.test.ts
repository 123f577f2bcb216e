import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDataset } from "../../lib/bench/dataset.js";
import { DataFileError } from "../../lib/directory/source.js";
import { loadFile } from "../../lib/load/load-file.js";
import { type DirectoryState, memoryDirectory } from "../../lib/store/memory/memory-directory.js";

// The ids a data file's first pass remembers (to refuse an id used twice, and for a snapshot to
// delete the stored ids the file lacks) are kept as ordinals; the first use is found again only
// to word the refusal.
describe("loadFile: the ids of a data file", () => {
  const { data } = buildDataset({ records: 6, companies: 1, seed: 5 });
  const lines = [
    ...data.persons.map((person) => JSON.stringify({ person })),
    ...data.employees.map((employee) => JSON.stringify({ employee })),
  ];
  const [firstRecord, ...otherRecords] = data.employees;
  let dir: string;
  const fileOf = async (name: string, content: readonly string[]) => {
    const file = join(dir, name);
    await writeFile(file, content.map((line) => `${line}\n`).join(""));
    return file;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "duplicate-ids-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(["merge", "snapshot"] as const)(
    "refuses an id used twice in %s, naming both lines",
    async (mode) => {
      const again = JSON.stringify({ employee: { ...firstRecord, updatedAt: "2026-11-24T00:00:00Z" } });
      const file = await fileOf(`twice-${mode}.ndjson`, [...lines, again]);
      const directory = memoryDirectory();
      const firstLine = lines.indexOf(JSON.stringify({ employee: firstRecord })) + 1;
      const refusal = loadFile(file, mode, directory);
      await expect(refusal).rejects.toThrow(DataFileError);
      await expect(refusal).rejects.toThrow(
        `employee at line ${lines.length + 1} (id ${firstRecord?.id}): id: duplicate employee id ` +
          `(first used by employee at line ${firstLine})`,
      );
      expect(directory.state().employees.size).toBe(0);
    },
  );

  it("deletes in a snapshot exactly the stored ids the file lacks", async () => {
    const initial: DirectoryState = {
      persons: new Map(data.persons.map((person) => [person.id, person])),
      employees: new Map(data.employees.map((employee) => [employee.id, employee])),
    };
    const file = await fileOf(
      "without-first.ndjson",
      lines.filter((line) => !line.includes(firstRecord?.id ?? "-")),
    );
    const directory = memoryDirectory(initial);
    const summary = await loadFile(file, "snapshot", directory, { allowShrink: true });
    expect(summary.deletedBySnapshot).toBe(1);
    expect([...directory.state().employees.keys()].sort()).toEqual(otherRecords.map((r) => r.id).sort());
    expect(directory.state().persons.size).toBe(data.persons.length);
  });
});
