/**
 * The loads benchmark's cases: what each load file holds, and the directory state after it. Pure
 * and deterministic: the cases follow one another, each starting from the state the previous one
 * left, so the benchmark applies them in order to one directory.
 *
 * One record R (the first linked record at or after the middle of the file) is changed, another
 * one renamed, then R moved to another company, re-linked to another person, and deleted; then 1% of the records change
 * (a changes file); then the whole directory is loaded as a snapshot, unchanged, with another
 * 1% changed, and without 1% of its records.
 */
import type { SourceEmployee } from "../directory/source.js";
import type { LoadMode } from "../load/change-lines.js";
import type { DirectoryState } from "../store/memory/memory-directory.js";

export interface LoadCase {
  readonly name: string;
  readonly mode: LoadMode;
  /** The load file's lines (NDJSON), produced on demand so a large file is streamed to disk. */
  readonly lines: () => Iterable<string>;
  /** The directory after the load. */
  readonly next: DirectoryState;
}

/** The cases' names, by what the targets (load-targets.ts) bound. */
export const CASE = {
  changed: "one record changed (merge)",
  renamed: "one record renamed (merge)",
  moved: "one record moved to another company (merge)",
  relinked: "one record re-linked to another person (merge)",
  deleted: "one record deleted (changes)",
  unchanged: "snapshot, unchanged",
  dropping: "snapshot dropping 1% of records",
} as const;

/** 1% of records: ceil(n / 100) of them, 100 apart from an offset (wrapping), so two offsets change different ones. */
const SPACING = 100;

/** The data file's lines of a state: persons first, then records (NDJSON, docs/data-format.md). */
export function* stateLines(state: DirectoryState): Generator<string> {
  for (const person of state.persons.values()) yield JSON.stringify({ person });
  for (const employee of state.employees.values()) yield JSON.stringify({ employee });
}

/**
 * The record as its source would send it after an edit: a new phone and a later updatedAt. `n`
 * makes each edit distinct (the updatedAt is 2026-11-24 plus n seconds, after every demo date).
 */
export function edited(record: SourceEmployee, n: number): SourceEmployee {
  const digits = String(n % 10_000).padStart(4, "0");
  return {
    ...record,
    contact: { ...record.contact, phone: `(305) 555-${digits}` },
    updatedAt: new Date(Date.UTC(2026, 10, 24) + n * 1000).toISOString(),
  };
}

function withRecords(state: DirectoryState, records: Iterable<SourceEmployee>): DirectoryState {
  const employees = new Map(state.employees);
  for (const record of records) employees.set(record.id, record);
  return { persons: state.persons, employees };
}

/** 1% of the records, from `offset`, each edited with `n` plus its rank. */
function onePercentEdited(state: DirectoryState, offset: number, n: number): SourceEmployee[] {
  const records = [...state.employees.values()];
  const count = Math.ceil(records.length / SPACING);
  return Array.from({ length: count }, (_, k) =>
    edited(records[(offset + k * SPACING) % records.length] as SourceEmployee, n + k),
  );
}

/** The first record with a person at or after `at` of the way through the file (then from the start). */
function linkedRecordAt(state: DirectoryState, at: number): SourceEmployee {
  const records = [...state.employees.values()];
  const from = Math.floor(records.length * at);
  const r = [...records.slice(from), ...records.slice(0, from)].find((record) => record.personId);
  if (!r) throw new Error("the loads benchmark needs a record with a person");
  return r;
}

/**
 * Another record with a person, given the last name of the file's first record named otherwise: a
 * name change to a name already there, as a marriage brings. R's own cases are unchanged by it.
 */
function renamedRecord(state: DirectoryState, r: SourceEmployee): SourceEmployee {
  const other = [linkedRecordAt(state, 0.75), linkedRecordAt(state, 0.25)].find(
    (record) => record.id !== r.id,
  );
  if (!other) throw new Error("the loads benchmark needs two records with a person");
  const lastName = [...state.employees.values()]
    .map((record) => record.demographics.lastName)
    .find((name) => name !== null && name !== other.demographics.lastName);
  return {
    ...edited(other, 1),
    demographics: { ...other.demographics, lastName: lastName ?? "Quillfeather" },
  };
}

/** A person of the state other than `personId`: the first one, else the second. */
function otherPerson(state: DirectoryState, personId: string): string {
  for (const id of state.persons.keys()) if (id !== personId) return id;
  throw new Error("the loads benchmark needs two persons");
}

/** A company id no record of the state has. */
export function otherCompany(state: DirectoryState): string {
  const used = new Set([...state.employees.values()].map((record) => record.companyId));
  for (let i = 1; ; i += 1) {
    const id = `moved-to-${i}`;
    if (!used.has(id)) return id;
  }
}

/** The cases, in the order they are applied, starting from `initial` (already loaded). */
export function loadCases(initial: DirectoryState): LoadCase[] {
  const cases: LoadCase[] = [];
  let state = initial;
  const add = (name: string, mode: LoadMode, lines: () => Iterable<string>, next: DirectoryState) => {
    cases.push({ name, mode, lines, next });
    state = next;
  };
  const upsertOne = (name: string, record: SourceEmployee) =>
    add(name, "merge", () => [JSON.stringify({ employee: record })], withRecords(state, [record]));

  const r = linkedRecordAt(state, 0.5);
  const changed = edited(r, 0);
  upsertOne(CASE.changed, changed);
  upsertOne(CASE.renamed, renamedRecord(state, r));
  const moved = { ...changed, companyId: otherCompany(state) };
  upsertOne(CASE.moved, moved);
  const relinked = { ...moved, personId: otherPerson(state, r.personId ?? "") };
  upsertOne(CASE.relinked, relinked);
  const without = new Map(state.employees);
  without.delete(r.id);
  add(CASE.deleted, "changes", () => [JSON.stringify({ op: "delete", employee: r.id })], {
    persons: state.persons,
    employees: without,
  });

  const firstPercent = onePercentEdited(state, 50, 1_000);
  add(
    "1% of records changed (changes)",
    "changes",
    () => firstPercent.map((employee) => JSON.stringify({ op: "upsert", employee })),
    withRecords(state, firstPercent),
  );

  const unchanged = state;
  add(CASE.unchanged, "snapshot", () => stateLines(unchanged), unchanged);
  const changedSnapshot = withRecords(state, onePercentEdited(state, 25, 100_000));
  add("snapshot, 1% of records changed", "snapshot", () => stateLines(changedSnapshot), changedSnapshot);
  const dropped = new Set(onePercentEdited(state, 75, 0).map((record) => record.id));
  const shrunk: DirectoryState = {
    persons: state.persons,
    employees: new Map([...state.employees].filter(([id]) => !dropped.has(id))),
  };
  add(CASE.dropping, "snapshot", () => stateLines(shrunk), shrunk);
  return cases;
}
