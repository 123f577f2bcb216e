/**
 * The timing a reader and a load agree on: a load removes the versions it superseded only
 * `GRACE_MS` after its flip, longer than a reader uses a manifest and its answer's reads take, so
 * a search never reads a version that is gone (docs/data-model.md, "Generations").
 */

/** How long a reader uses a manifest it read before it reads it again. */
export const MANIFEST_TTL_MS = 1_000;
/** An answer that took longer than this after its manifest was read is checked against it again. */
export const MAX_READ_AGE_MS = 1_000;
/** How long after its flip a load waits before it removes what it superseded. */
export const GRACE_MS = MANIFEST_TTL_MS + MAX_READ_AGE_MS + 500;
