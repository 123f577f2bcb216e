/**
 * A load file on local disk, opened once: every pass of a load (validation, then applying) reads
 * this one descriptor, by offset, so a file replaced at its path meanwhile is not what gets
 * applied. A file rewritten in place is caught too: each read from the start to the end hashes the
 * bytes, and one that differs from the first refuses the load before it commits. Only a regular
 * file is read: a FIFO, a device or a directory is refused at once (opened without blocking, so a
 * FIFO with no writer does not hang, then checked).
 */
import { createHash } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { DataFileError } from "../directory/source.js";
import type { OpenBytes } from "./lines.js";

/** Bytes a read of the file asks for. */
const READ_BYTES = 64 * 1024;

export interface LocalLoadFile {
  readonly path: string;
  /** Its size when opened, in bytes. */
  readonly size: number;
  readonly handle: FileHandle;
  readonly bytes: OpenBytes;
  close(): Promise<void>;
}

function notRegular(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isDirectory()) return "a directory";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return "not a plain file";
}

/** Opens `path` for a load: a regular file, or a `DataFileError` naming what it is instead. */
export async function openLoadFile(path: string): Promise<LocalLoadFile> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  let size: number;
  try {
    const stats = await handle.stat();
    if (!stats.isFile())
      throw new DataFileError(path, null, `is ${notRegular(stats)}, not a regular file; give a file`);
    size = stats.size;
  } catch (error) {
    await handle.close();
    throw error;
  }
  let digest: string | undefined;
  const bytes: OpenBytes = async function* (offset) {
    const hash = offset === 0 ? createHash("sha256") : undefined;
    for (let at = offset; ; ) {
      // A new buffer each time: a reader may keep the last one's bytes (a line not yet ended).
      const buffer = new Uint8Array(READ_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, READ_BYTES, at);
      if (bytesRead === 0) break;
      const data = buffer.subarray(0, bytesRead);
      hash?.update(data);
      at += bytesRead;
      yield data;
    }
    if (!hash) return;
    const read = hash.digest("hex");
    digest ??= read;
    if (read !== digest)
      throw new DataFileError(path, null, "changed while it was loaded; load it again once it is written");
  };
  return { path, size, handle, bytes, close: () => handle.close() };
}
