/**
 * The inbox of a deployed stage: an S3 bucket where a file put under `merge/`, `snapshot/` or
 * `changes/` is applied to the directory (docs/operations.md, "Loading data"). Shared by the
 * ingest (which reads and reports), the load CLI (which uploads and waits) and the stacks (which
 * route the events and grant each prefix).
 */
import { createHash } from "node:crypto";
import { LOAD_MODES, type LoadMode } from "../load/change-lines.js";

/** One version of an object in the inbox: what an ingest applies, exactly once. */
export interface InboxObject {
  readonly bucket: string;
  readonly key: string;
  readonly versionId: string;
}

/** The prefixes whose objects start an ingest, one per load mode. */
export const INBOX_PREFIXES = LOAD_MODES.map((mode) => `${mode}/`);

/** Where an ingest writes its report, and where the loader keeps what it carries between steps. */
export const REPORTS_PREFIX = "reports/";
export const WORK_PREFIX = "work/";

/** The load mode an inbox key asks for, by its first path segment; undefined for any other key. */
export function modeOfKey(key: string): LoadMode | undefined {
  const mode = key.slice(0, key.indexOf("/"));
  return (LOAD_MODES as readonly string[]).includes(mode) && key.length > mode.length + 1
    ? (mode as LoadMode)
    : undefined;
}

/**
 * The largest object the ingest reads (a larger one is refused, its report says so): about 10
 * million records of NDJSON, whose ids (16 bytes each, and their set) fit the step function's memory.
 */
export const MAX_OBJECT_BYTES = 5 * 1024 ** 3;

/** The rule an object (or a file uploaded by the CLI) over `max` bytes breaks. */
export const overMaximum = (size: number, max = MAX_OBJECT_BYTES): string =>
  `is ${size.toLocaleString("en-US")} bytes, over the inbox's maximum of ${max.toLocaleString("en-US")} bytes`;

/** S3's longest key, in UTF-8 bytes. */
const MAX_KEY_BYTES = 1024;

/**
 * The report of one object version: `reports/<key>/<versionId>.json`, next to nothing else; for a
 * key too long for that to fit S3's 1,024 bytes, `reports/long-keys/<SHA-256 of the key>/…` (no
 * inbox key starts `long-keys/`, so the two never meet).
 */
export function reportKey(object: Pick<InboxObject, "key" | "versionId">): string {
  const plain = `${REPORTS_PREFIX}${object.key}/${object.versionId}.json`;
  if (Buffer.byteLength(plain) <= MAX_KEY_BYTES) return plain;
  const digest = createHash("sha256").update(object.key).digest("hex");
  return `${REPORTS_PREFIX}long-keys/${digest}/${object.versionId}.json`;
}
