/**
 * The inbox of a deployed stage: an S3 bucket where a file put under `merge/`, `snapshot/` or
 * `changes/` is applied to the directory (docs/operations.md, "Loading data"). Shared by the
 * ingest (which reads and reports), the load CLI (which uploads and waits) and the stacks (which
 * route the events and grant each prefix).
 */
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

/** The report of one object version: `reports/<key>/<versionId>.json`, next to nothing else. */
export const reportKey = (object: Pick<InboxObject, "key" | "versionId">): string =>
  `${REPORTS_PREFIX}${object.key}/${object.versionId}.json`;
