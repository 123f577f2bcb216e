/**
 * Lines of a file read from any byte offset, each with its number and the offset just past it, so
 * a load can stop after any line and go on from there later: in another step of an ingest, in
 * another Lambda invocation. The bytes come from a local file or an S3 object (ranged reads).
 * A line longer than MAX_LINE_BYTES refuses the file as soon as that many bytes of it are read, so
 * memory holds at most one such line, whatever the file.
 */

import { DataFileError } from "../directory/source.js";

/** The longest line a load reads (its line break excluded): a record or a change is far smaller. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** Where reading goes on: the byte offset of the next line, and that line's number less one. */
export interface LinePosition {
  readonly offset: number;
  readonly line: number;
}

export const START: LinePosition = { offset: 0, line: 0 };

export interface Line {
  /** Without its line break (and without the byte order mark of the file's first line). */
  readonly text: string;
  readonly number: number;
  /** Where the next line starts. */
  readonly next: LinePosition;
}

/** Opens the bytes of a file from an offset. */
export type OpenBytes = (offset: number) => AsyncIterable<Uint8Array>;

const NEWLINE = 0x0a;
const decoder = new TextDecoder("utf-8", { fatal: false });

function lineText(bytes: Uint8Array, number: number): string {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0d) end -= 1;
  const text = decoder.decode(bytes.subarray(0, end));
  return number === 1 && text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/** The file is refused: line `number` is longer than MAX_LINE_BYTES. */
export class LineTooLongError extends DataFileError {
  /** The line's first bytes, as read (to tell what the file is). */
  readonly head: Uint8Array;

  constructor(number: number, head: Uint8Array) {
    super(`line ${number}`, null, "longer than 1 MiB (1,048,576 bytes); a line holds one record or change");
    this.head = head;
  }
}

/**
 * Every line from `from` on, blank ones included (callers skip those), with positions. `signal`
 * is asked at every read, so a load stops mid-line as well as between lines.
 */
export async function* linesFrom(
  open: OpenBytes,
  from: LinePosition = START,
  signal?: AbortSignal,
): AsyncGenerator<Line> {
  let offset = from.offset;
  let number = from.line;
  let pending: Uint8Array[] = [];
  let pendingLength = 0;
  const tooLong = () => new LineTooLongError(number + 1, prefix(pending, 1024));
  for await (const data of open(from.offset)) {
    signal?.throwIfAborted();
    let start = 0;
    for (let at = data.indexOf(NEWLINE); at >= 0; at = data.indexOf(NEWLINE, start)) {
      const piece = data.subarray(start, at);
      if (pendingLength + piece.length > MAX_LINE_BYTES) {
        pending.push(piece);
        pendingLength += piece.length;
        throw tooLong();
      }
      const bytes = pendingLength === 0 ? piece : concat([...pending, piece], pendingLength + piece.length);
      pending = [];
      pendingLength = 0;
      offset += bytes.length + 1;
      number += 1;
      yield { text: lineText(bytes, number), number, next: { offset, line: number } };
      start = at + 1;
    }
    if (start < data.length) {
      pending.push(data.subarray(start));
      pendingLength += data.length - start;
      if (pendingLength > MAX_LINE_BYTES) throw tooLong();
    }
  }
  if (pendingLength > 0) {
    number += 1;
    offset += pendingLength;
    yield { text: lineText(concat(pending, pendingLength), number), number, next: { offset, line: number } };
  }
}

function concat(pieces: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** The first `length` bytes (at most) of `pieces` laid end to end. */
function prefix(pieces: readonly Uint8Array[], length: number): Uint8Array {
  const out: Uint8Array[] = [];
  let kept = 0;
  for (const piece of pieces) {
    if (kept >= length) break;
    const head = piece.subarray(0, length - kept);
    out.push(head);
    kept += head.length;
  }
  return concat(out, kept);
}
