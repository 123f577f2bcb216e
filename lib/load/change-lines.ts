/**
 * A load file read as a stream of changes (docs/data-format.md): a data file (JSON or NDJSON) gives
 * an upsert per record; a changes file (NDJSON) one change a line. NDJSON is read line by line, so
 * memory does not grow with the file; a JSON data file is one document and is read whole.
 */
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { z } from "zod";
import {
  DataFileError,
  ndjsonEntry,
  parseDataFile,
  parseJson,
  type RecordKind,
  validateRecord,
} from "../directory/source.js";
import type { Change } from "../store/port.js";

export const LOAD_MODES = ["merge", "snapshot", "changes"] as const;
export type LoadMode = (typeof LOAD_MODES)[number];

export interface LocatedChange {
  readonly change: Change;
  /** Where it stands in the file, for messages: `line 12`, `person at line 12`, `persons[3]`. */
  readonly label: string;
}

/** Non-blank lines with their numbers, streamed. */
async function* lines(path: string): AsyncGenerator<{ text: string; number: number }> {
  const reader = createInterface({
    input: createReadStream(path, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let number = 0;
  for await (const line of reader) {
    number += 1;
    const text = number === 1 && line.startsWith("\uFEFF") ? line.slice(1) : line;
    if (text.trim() !== "") yield { text, number };
  }
}

const uuid = z.guid().transform((id) => id.toLowerCase());

/** One line of a changes file: `{"op": "upsert"|"delete", "person"|"employee": …}`. */
function changeOf(value: unknown, number: number): LocatedChange {
  const label = `line ${number}`;
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new DataFileError(label, null, 'expected an object {"op", "person" or "employee"}');
  const { op, ...rest } = value as Record<string, unknown>;
  const keys = Object.keys(rest);
  const kind = keys[0];
  if (op !== "upsert" && op !== "delete")
    throw new DataFileError(label, "op", 'expected "upsert" or "delete"');
  if (keys.length !== 1 || (kind !== "person" && kind !== "employee"))
    throw new DataFileError(label, null, 'expected exactly one of "person" or "employee" beside "op"');
  const raw = rest[kind];
  if (op === "delete") {
    const id = uuid.safeParse(raw);
    if (!id.success) throw new DataFileError(label, kind, "expected the uuid of the record to delete");
    return { label, change: kind === "person" ? { op, person: id.data } : { op, employee: id.data } };
  }
  const located = `${kind} at ${label}`;
  return kind === "person"
    ? { label, change: { op, person: validateRecord("person", raw, located) } }
    : { label, change: { op, employee: validateRecord("employee", raw, located) } };
}

/** One line of an NDJSON data file: `{"person": …}` or `{"employee": …}`. */
function upsertOf(value: unknown, number: number): LocatedChange {
  const entry = ndjsonEntry(value);
  if (!entry)
    throw new DataFileError(
      `line ${number}`,
      null,
      'expected an object with one key, "person" or "employee"',
    );
  const kind: RecordKind = entry.kind;
  // Named as the parser names an NDJSON record (lib/directory/source.ts), duplicates included.
  const label = `${kind} at line ${number}`;
  return kind === "person"
    ? { label, change: { op: "upsert", person: validateRecord("person", entry.raw, label) } }
    : { label, change: { op: "upsert", employee: validateRecord("employee", entry.raw, label) } };
}

/** Whether the file is NDJSON: its first line is a whole JSON value, one entry or change. */
async function isNdjson(path: string): Promise<boolean> {
  for await (const { text } of lines(path)) {
    const first = parseJson(text);
    return (
      first.ok &&
      first.value !== null &&
      typeof first.value === "object" &&
      !Array.isArray(first.value) &&
      !("persons" in first.value) &&
      !("employees" in first.value)
    );
  }
  throw new DataFileError("data file", null, "is empty; expected JSON {persons, employees} or NDJSON");
}

/** The file's changes in order, each validated; the first problem throws `DataFileError`. */
export async function* readChanges(path: string, mode: LoadMode): AsyncGenerator<LocatedChange> {
  if (mode !== "changes" && !(await isNdjson(path))) {
    const data = parseDataFile(await readFile(path, "utf8"));
    for (const [i, person] of data.persons.entries())
      yield { label: `persons[${i}]`, change: { op: "upsert", person } };
    for (const [i, employee] of data.employees.entries())
      yield { label: `employees[${i}]`, change: { op: "upsert", employee } };
    return;
  }
  for await (const { text, number } of lines(path)) {
    const parsed = parseJson(text);
    if (!parsed.ok) throw new DataFileError(`line ${number}`, null, "not valid JSON");
    yield mode === "changes" ? changeOf(parsed.value, number) : upsertOf(parsed.value, number);
  }
}
