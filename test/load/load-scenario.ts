/**
 * A seeded load scenario for the crash, concurrency and during-load tests: a directory before (demo
 * data), and a changes file of a few thousand lines that gives the undo real work (edits, moves to
 * another company, re-links to another person or to none, record and person deletes, new persons
 * and records, ids changed twice). The state after is what the in-memory store makes of the same
 * file through the same use case, never a hand-written answer.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoCompanyIds, demoRecords } from "../../lib/directory/demo-data.js";
import { DemoRandom } from "../../lib/directory/demo-random.js";
import {
  type DataFile,
  parseDataFile,
  type SourceEmployeeInput,
  type SourcePersonInput,
} from "../../lib/directory/source.js";
import type { LoadMode } from "../../lib/load/change-lines.js";
import { loadData, loadFile } from "../../lib/load/load-file.js";
import { type DirectoryState, memoryDirectory } from "../../lib/store/memory/memory-directory.js";
import type { DirectoryReader } from "../../lib/store/port.js";

const COMPANIES = demoCompanyIds(4);

type Line =
  | { op: "upsert"; person: SourcePersonInput }
  | { op: "upsert"; employee: SourceEmployeeInput }
  | { op: "delete"; person: string }
  | { op: "delete"; employee: string };

export interface ScenarioSize {
  /** Employee records before the load. */
  readonly records: number;
  /** New employee records the file adds (with about half as many new persons). */
  readonly added: number;
}

/** The directory before, as demo data: persons and records, raw as a file holds them. */
function demoBefore(seed: number, records: number) {
  const persons = new Map<string, SourcePersonInput>();
  const employees = new Map<string, SourceEmployeeInput>();
  for (const record of demoRecords({ companies: COMPANIES.length, employees: records, seed })) {
    if (record.kind === "person") persons.set(record.value.id, record.value);
    else employees.set(record.value.id, record.value);
  }
  return { persons, employees };
}

/** The raw directory as the change lines leave it, the lines so far, and the seeded source of choices. */
interface Draft {
  readonly rng: DemoRandom;
  readonly persons: Map<string, SourcePersonInput>;
  readonly employees: Map<string, SourceEmployeeInput>;
  readonly lines: Line[];
}

function upsertRecord(draft: Draft, employee: SourceEmployeeInput): void {
  draft.employees.set(employee.id, employee);
  draft.lines.push({ op: "upsert", employee });
}

function deleteRecord(draft: Draft, id: string): void {
  draft.employees.delete(id);
  draft.lines.push({ op: "delete", employee: id });
}

const personIds = (draft: Draft) => [...draft.persons.keys()];

/** How an existing record changes: each its own seeded choices, in a fixed order. */
const CHANGED: Record<
  "edit" | "move" | "relink",
  (draft: Draft, current: SourceEmployeeInput) => SourceEmployeeInput
> = {
  edit: ({ rng }, current) => ({
    ...current,
    demographics: { ...current.demographics, lastName: rng.pick(["Okafor", "Lindqvist", "Nguyễn", null]) },
    contact: { ...current.contact, phone: rng.pick(["(555) 010-2030", "555.404.5060", null]) },
  }),
  move: ({ rng }, current) => ({ ...current, companyId: rng.pick(COMPANIES) }),
  relink: (draft, current) => ({
    ...current,
    personId: draft.rng.chance(0.2) ? null : draft.rng.pick(personIds(draft)),
  }),
};

/** One change of a record of the directory before: edited, moved, re-linked, deleted, or revived. */
function changeOnce(draft: Draft, employee: SourceEmployeeInput): void {
  const current = draft.employees.get(employee.id);
  const kind = draft.rng.weighted([
    ["edit", 4],
    ["move", 3],
    ["relink", 3],
    ["delete", 2],
    ["revive", current ? 0 : 4],
  ] as const);
  if (kind === "revive" || !current) upsertRecord(draft, employee);
  else if (kind === "delete") deleteRecord(draft, current.id);
  else upsertRecord(draft, CHANGED[kind](draft, current));
}

/** Existing records: most change, some twice (the later line wins). */
function changeExisting(draft: Draft): void {
  for (const employee of [...draft.employees.values()]) {
    const times = draft.rng.weighted([
      [0, 3],
      [1, 6],
      [2, 1],
    ] as const);
    for (let i = 0; i < times; i += 1) changeOnce(draft, employee);
  }
}

/** Persons deleted: their records go first, or move to another person. */
function deletePersons(draft: Draft): void {
  const { rng } = draft;
  for (const id of rng.sample(personIds(draft), Math.floor(draft.persons.size / 12))) {
    draft.persons.delete(id);
    for (const employee of [...draft.employees.values()].filter((record) => record.personId === id)) {
      if (rng.chance(0.5)) upsertRecord(draft, { ...employee, personId: rng.pick(personIds(draft)) });
      else deleteRecord(draft, employee.id);
    }
    draft.lines.push({ op: "delete", person: id });
  }
}

/** New persons and records, cloned from existing ones under new ids. */
function addNew(draft: Draft, count: number): void {
  const { rng } = draft;
  const templates = [...draft.employees.values()];
  for (let added = 0; added < count; ) {
    const person = { ...rng.pick([...draft.persons.values()]), id: rng.uuid() };
    draft.persons.set(person.id, person);
    draft.lines.push({ op: "upsert", person });
    for (const companyId of rng.sample(COMPANIES, rng.int(1, 3))) {
      upsertRecord(draft, { ...rng.pick(templates), id: rng.uuid(), companyId, personId: person.id });
      added += 1;
    }
  }
}

/** The change lines, and the raw records after them (for the same state as a snapshot file). */
function changeLines(seed: number, size: ScenarioSize) {
  const draft: Draft = { rng: new DemoRandom(seed ^ 0x5eed), ...demoBefore(seed, size.records), lines: [] };
  changeExisting(draft);
  deletePersons(draft);
  addNew(draft, size.added);
  return { lines: draft.lines, persons: draft.persons, employees: draft.employees };
}

/**
 * A merge file that edits records of the directory before (same ids, same persons, whose lines it
 * also holds): valid whether it runs before or after the changes file, with a different outcome.
 */
function edits(seed: number, size: ScenarioSize) {
  const rng = new DemoRandom(seed ^ 0xed17);
  const { persons, employees } = demoBefore(seed, size.records);
  const chosen = rng.sample([...employees.values()], Math.floor(employees.size / 3));
  const linked = new Set(chosen.flatMap((employee) => (employee.personId ? [employee.personId] : [])));
  return [
    ...[...linked].map((id) => ({ person: { ...persons.get(id), updatedAt: "2025-02-01T00:00:00Z" } })),
    ...chosen.map((employee) => ({
      employee: {
        ...employee,
        demographics: { ...employee.demographics, lastName: rng.pick(["Okafor", "Abara", "Okafor-Lund"]) },
        contact: { ...employee.contact, phone: "(555) 010-2030" },
        updatedAt: "2025-02-01T00:00:00Z",
      },
    })),
  ];
}

export type FileMode = "changes" | "snapshot" | "merge";

export interface Scenario {
  readonly seed: number;
  /** The directory before the load. */
  readonly before: DataFile;
  readonly beforeState: DirectoryState;
  /** The load file for `mode`, in `dir` (merge: edits of the state before, see `edits`). */
  readonly file: (mode: FileMode) => string;
  /** Lines of the changes file. */
  readonly changes: number;
  /** What either file makes of `before`. */
  readonly afterState: DirectoryState;
  readonly dir: string;
  dispose(): Promise<void>;
}

const ndjson = (values: readonly unknown[]) => `${values.map((value) => JSON.stringify(value)).join("\n")}\n`;

/** What the in-memory store makes of `before` and then each file, in order, through the real use case. */
export async function stateAfter(
  before: DataFile,
  files: readonly { path: string; mode: LoadMode }[],
): Promise<DirectoryState> {
  const memory = memoryDirectory();
  await loadData(before, memory, "snapshot");
  for (const { path, mode } of files) await loadFile(path, mode, memory, { allowShrink: true });
  return memory.state();
}

export async function scenario(
  seed: number,
  size: ScenarioSize = { records: 800, added: 700 },
): Promise<Scenario> {
  const dir = await mkdtemp(join(tmpdir(), `load-scenario-${seed}-`));
  const before = demoBefore(seed, size.records);
  const beforeData = parseDataFile(
    JSON.stringify({ persons: [...before.persons.values()], employees: [...before.employees.values()] }),
  );
  const after = changeLines(seed, size);
  const files = {
    changes: join(dir, "changes.ndjson"),
    snapshot: join(dir, "snapshot.ndjson"),
    merge: join(dir, "edits.ndjson"),
  };
  await writeFile(files.changes, ndjson(after.lines));
  await writeFile(files.merge, ndjson(edits(seed, size)));
  await writeFile(
    files.snapshot,
    ndjson([
      ...[...after.persons.values()].map((person) => ({ person })),
      ...[...after.employees.values()].map((employee) => ({ employee })),
    ]),
  );
  const afterState = await stateAfter(beforeData, [{ path: files.changes, mode: "changes" }]);
  const bySnapshot = await stateAfter(beforeData, [{ path: files.snapshot, mode: "snapshot" }]);
  // The two files describe one state: a test may use either.
  expect(await searchAnswers(memoryReaderOf(bySnapshot))).toEqual(
    await searchAnswers(memoryReaderOf(afterState)),
  );
  return {
    seed,
    before: beforeData,
    beforeState: await stateAfter(beforeData, []),
    file: (mode) => files[mode],
    changes: after.lines.length,
    afterState,
    dir,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

export const memoryReaderOf = (state: DirectoryState): DirectoryReader => memoryDirectory(state);

/** One search a partner could make, asked of a reader. */
export type Search = (reader: DirectoryReader) => Promise<unknown>;

/**
 * What partners would see: every company's employee records and persons (each whole, and one
 * window of each), and searches by last name and by phone that read the name and phone entries.
 */
export function searches(): Search[] {
  const all = new Set(COMPANIES);
  const list: Search[] = [];
  for (const company of COMPANIES) {
    const companies = new Set([company]);
    for (const window of [
      { offset: 0, limit: 100_000 },
      { offset: 7, limit: 25 },
    ]) {
      list.push((reader) => reader.employees({ filter: { companies }, created: {}, ...window }));
      list.push((reader) => reader.persons({ filter: { companies }, readable: all, created: {}, ...window }));
    }
    list.push((reader) =>
      reader.employees({ filter: { companies, lastName: "okafor" }, created: {}, offset: 0, limit: 50 }),
    );
  }
  list.push((reader) =>
    reader.persons({
      filter: { companies: all, phone: "5550102030" },
      readable: all,
      created: {},
      offset: 0,
      limit: 100_000,
    }),
  );
  return list;
}

/** Every answer of `searches()`, in order. */
export async function searchAnswers(reader: DirectoryReader): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const search of searches()) answers.push(await search(reader));
  return answers;
}
