/**
 * A load file read as a stream of changes (docs/data-format.md): a data file (JSON or NDJSON) gives
 * an upsert per record; a changes file (NDJSON) one change a line. NDJSON is read line by line, so
 * memory does not grow with the file, and from any position a change left off; a JSON data file
 * is one document and is read whole, up to MAX_DOCUMENT_BYTES.
 */
import { z } from "zod";
import {
  type DataFile,
  DataFileError,
  isChangeLine,
  ndjsonEntry,
  notAnEntry,
  parseDataFile,
  parseJson,
  type RecordKind,
  validateRecord,
} from "../directory/source.js";
import type { Change } from "../store/port.js";
import { type LinePosition, LineTooLongError, linesFrom, type OpenBytes, START } from "./lines.js";

export const LOAD_MODES = ["merge", "snapshot", "changes"] as const;
export type LoadMode = (typeof LOAD_MODES)[number];

interface LocatedChange {
  readonly change: Change;
  /** Where it stands in the file, for messages: `line 12`, `person at line 12`, `persons[3]`. */
  readonly label: string;
}

/** Where a load goes on reading its file: a line of NDJSON, or the index of a JSON file's record. */
export interface SourcePosition extends LinePosition {
  /** Changes read before this position. */
  readonly index: number;
}

export const FILE_START: SourcePosition = { ...START, index: 0 };

/** A change, and where the one after it starts. */
export interface PositionedChange extends LocatedChange {
  readonly next: SourcePosition;
}

/** The largest JSON data file a load reads (one document, read whole); NDJSON has no such bound. */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** Non-blank lines with their numbers, streamed from `from`. */
async function* lines(open: OpenBytes, from: LinePosition = START, signal?: AbortSignal) {
  for await (const line of linesFrom(open, from, signal)) if (line.text.trim() !== "") yield line;
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
  if (!entry) throw notAnEntry(number, value);
  const kind: RecordKind = entry.kind;
  // Named as the parser names an NDJSON record (lib/directory/source.ts), duplicates included.
  const label = `${kind} at line ${number}`;
  return kind === "person"
    ? { label, change: { op: "upsert", person: validateRecord("person", entry.raw, label) } }
    : { label, change: { op: "upsert", employee: validateRecord("employee", entry.raw, label) } };
}

/** A JSON data file's start, when written on one line: its first key. */
const DOCUMENT_START = /^\uFEFF?\s*\{\s*"(?:persons|employees)"/;

/**
 * Whether the file is NDJSON: its first line is a whole JSON value, one entry or change. A first
 * line over the line limit is a JSON data file written on one line when it starts like one; any
 * other is an NDJSON line, refused when read.
 */
async function isNdjson(open: OpenBytes, signal?: AbortSignal): Promise<boolean> {
  try {
    for await (const { text } of lines(open, START, signal)) {
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
  } catch (error) {
    if (error instanceof LineTooLongError) return !DOCUMENT_START.test(Buffer.from(error.head).toString());
    throw error;
  }
  throw new DataFileError("data file", null, "is empty; expected JSON {persons, employees} or NDJSON");
}

/**
 * Whether the file's first non-blank line is a change line (`{"op": …}`): a changes file, the one
 * mode such a file can be loaded in. A first line that is no JSON, or over the line limit, is not.
 */
export async function startsWithChangeLine(open: OpenBytes, signal?: AbortSignal): Promise<boolean> {
  try {
    for await (const { text } of lines(open, START, signal)) {
      const first = parseJson(text);
      return first.ok && isChangeLine(first.value);
    }
  } catch (error) {
    if (error instanceof LineTooLongError) return false;
    throw error;
  }
  return false;
}

async function readWhole(open: OpenBytes, signal?: AbortSignal): Promise<string> {
  const pieces: Uint8Array[] = [];
  let length = 0;
  for await (const data of open(0)) {
    signal?.throwIfAborted();
    length += data.length;
    if (length > MAX_DOCUMENT_BYTES)
      throw new DataFileError(
        "data file",
        null,
        "is a JSON document over 256 MiB, which is read whole; write it as NDJSON (one record a line)",
      );
    pieces.push(data);
  }
  return Buffer.concat(pieces, length).toString("utf8");
}

/** A data file's records as upserts, persons first, from the `from`-th (a JSON file, demo data). */
export function* dataFileChanges(data: DataFile, from: number): Generator<PositionedChange> {
  const located: LocatedChange[] = [
    ...data.persons.map((person, i) => ({
      label: `persons[${i}]`,
      change: { op: "upsert", person } as const,
    })),
    ...data.employees.map((employee, i) => ({
      label: `employees[${i}]`,
      change: { op: "upsert", employee } as const,
    })),
  ];
  for (let index = from; index < located.length; index += 1)
    yield { ...(located[index] as LocatedChange), next: { ...START, index: index + 1 } };
}

/**
 * The file's changes in order from `from` (default: its start), each validated and with the
 * position after it; the first problem throws `DataFileError`. `signal` is asked at every read of
 * the file, so a load stops while reading as well as between changes.
 */
export async function* readChanges(
  open: OpenBytes,
  mode: LoadMode,
  from: SourcePosition = FILE_START,
  signal?: AbortSignal,
): AsyncGenerator<PositionedChange> {
  if (mode !== "changes" && !(await isNdjson(open, signal))) {
    yield* dataFileChanges(parseDataFile(await readWhole(open, signal)), from.index);
    return;
  }
  let index = from.index;
  for await (const { text, number, next } of lines(open, from, signal)) {
    const parsed = parseJson(text);
    if (!parsed.ok) throw new DataFileError(`line ${number}`, null, "not valid JSON");
    const located = mode === "changes" ? changeOf(parsed.value, number) : upsertOf(parsed.value, number);
    index += 1;
    yield { ...located, next: { ...next, index } };
  }
}
