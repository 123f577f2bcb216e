/**
 * What may exist in the directory table besides the committed state, as the manifest says (pure):
 * a well-formed manifest, versions of the load in progress, and superseded versions awaiting the
 * clean-up the manifest names. Everything else is left over by a dead load or a failed clean-up.
 */

import { TableFormatError } from "../../port.js";
import { abandonedOf, type Lease, type Manifest } from "../manifest/index.js";
import type { Item, ItemKey } from "../model/index.js";
import { FORMAT, type Generation, isAbandoned, MANIFEST_KEY } from "../model/index.js";

/** A broken item: its key, and what is wrong with it. */
export interface Problem {
  readonly key: ItemKey;
  readonly what: string;
}

const isGen = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 0xffffffff;

function leaseOf(value: unknown): Lease | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const lease = value as Record<string, unknown>;
  const wellFormed =
    typeof lease.owner === "string" &&
    typeof lease.label === "string" &&
    typeof lease.startedAt === "number" &&
    typeof lease.expiresAt === "number" &&
    isGen(lease.gen);
  return wellFormed ? (lease as unknown as Lease) : undefined;
}

/** What is wrong with the manifest's generation fields, if anything. */
function malformedGenerations(item: Item): string | undefined {
  const { committed, issued, abandoned = [] } = item;
  if (!isGen(committed)) return "manifest: `committed` is not a generation number";
  if (!Array.isArray(abandoned) || !abandoned.every(isGen))
    return "manifest: `abandoned` is not a list of generation numbers";
  if (issued !== undefined && !isGen(issued)) return "manifest: `issued` is not a generation number";
  return undefined;
}

/** A lease or committed generation where none may be: before the committed one, or abandoned. */
function misplacedGenerations({ committed, lease, abandoned }: Manifest): string | undefined {
  if (lease && lease.gen < committed)
    return `manifest: the lease's generation ${lease.gen} is before the committed ${committed}`;
  if (lease && abandoned.includes(lease.gen))
    return `manifest: the lease's generation ${lease.gen} is abandoned`;
  if (abandoned.includes(committed)) return `manifest: the committed generation ${committed} is abandoned`;
  return undefined;
}

/** The manifest item as read, once its fields are known to be well formed. */
function manifestOf(item: Item, lease: Lease | undefined): Manifest {
  const { committed, cleanup, issued, abandoned = [] } = item;
  return {
    committed: committed as number,
    abandoned: abandoned as number[],
    ...(issued === undefined ? {} : { issued: issued as number }),
    ...(lease ? { lease } : {}),
    ...(cleanup === undefined ? {} : { cleanup: committed as number }),
  };
}

/** The manifest item checked: a committed generation, a live lease if any, cleanup absent or = committed. */
export function checkManifest(
  item: Item | undefined,
  now: number,
): { manifest: Manifest; problem?: Problem } {
  // No manifest: nothing was ever committed; any other item is then an orphan.
  if (!item) return { manifest: { committed: 0, abandoned: [] } };
  const broken = (what: string) => ({
    manifest: { committed: 0, abandoned: [] },
    problem: { key: MANIFEST_KEY, what },
  });
  const malformed = malformedGenerations(item);
  if (malformed) return broken(malformed);
  if (typeof item.committed === "number" && item.committed > 0 && item.formatVersion !== FORMAT)
    return broken(
      `manifest: ${new TableFormatError(typeof item.formatVersion === "number" ? item.formatVersion : undefined, FORMAT).message}`,
    );
  const lease = item.lease === undefined ? undefined : leaseOf(item.lease);
  if (item.lease !== undefined && !lease) return broken("manifest: malformed lease");
  const { committed, cleanup } = item;
  if (cleanup !== undefined && cleanup !== committed)
    return broken(
      `manifest: cleanup ${String(cleanup)} is not the committed generation ${String(committed)}`,
    );
  const manifest = manifestOf(item, lease);
  const misplaced = misplacedGenerations(manifest);
  if (misplaced) return broken(misplaced);
  if (lease && lease.expiresAt <= now) {
    const at = new Date(lease.expiresAt).toISOString();
    return {
      manifest,
      problem: {
        key: MANIFEST_KEY,
        what: `manifest: stale lease of load "${lease.label}" (generation ${lease.gen}, expired ${at}): the load died; the next load undoes or finishes it`,
      },
    };
  }
  return { manifest };
}

/** What the manifest allows beyond the committed state; a stale lease was reported already. */
export function allowances(manifest: Manifest) {
  const committed = manifest.committed;
  const loading = manifest.lease?.gen;
  const cleanup = manifest.cleanup;
  const at: Generation = { gen: committed, abandoned: abandonedOf(manifest) };
  /** What is wrong with a stamp `x` on a version of `gen`, if anything. */
  const stampProblem = (gen: number, x: number): string | undefined => {
    if (x <= gen) return `superseded at generation ${x}, not after its own ${gen}`;
    if (gen > committed && gen !== loading)
      return `written by generation ${gen} > committed ${committed} with no load of it in progress (left by a dead load)`;
    if (x <= committed && x !== cleanup)
      return `superseded at generation ${x} <= committed ${committed} and never removed (stale garbage)`;
    if (x > committed && x !== loading)
      return `stamped superseded by generation ${x}, which never committed and has no load in progress`;
    return undefined;
  };
  return {
    committed,
    /** The committed generation as searches read it. */
    at,
    /** What is wrong with a version written at `gen` and superseded at `x`, if anything. */
    version(gen: number, stamp: number | undefined): string | undefined {
      // Versions and stamps of abandoned generations are never seen, and the next load removes
      // them from their journal (kept for that): allowed, as a load in progress's are.
      if (isAbandoned(gen, at)) return undefined;
      const x = stamp !== undefined && isAbandoned(stamp, at) ? undefined : stamp;
      if (gen > committed && gen !== loading && (x === undefined || x > gen))
        return `written by generation ${gen} > committed ${committed} with no load of it in progress (left by a dead load)`;
      return x === undefined ? undefined : stampProblem(gen, x);
    },
    /**
     * A version replaced, unstamped, by a newer one of its key at `by` (readers take the newest)
     * stays only until that generation's clean-up.
     */
    replaced(by: number): string | undefined {
      return by === cleanup
        ? undefined
        : `replaced at generation ${by} <= committed ${committed} and never removed (stale garbage)`;
    },
    /** A location deleted at `gen` (no current value) stays only until its generation's clean-up. */
    deletedLocation(gen: number): string | undefined {
      if (isAbandoned(gen, at)) return undefined;
      if (gen > committed) return gen === loading ? undefined : this.version(gen, undefined);
      return gen === cleanup
        ? undefined
        : `deleted at generation ${gen} <= committed ${committed} and never removed (stale garbage)`;
    },
    journal(gen: number): string | undefined {
      // Kept by the undo: a loader that lost its lease may still send that entry's writes.
      if (isAbandoned(gen, at)) return undefined;
      return gen === loading || gen === cleanup
        ? undefined
        : `journal of generation ${gen} with no load of it in progress and no clean-up pending (left by a dead load)`;
    },
  };
}

export type Allowances = ReturnType<typeof allowances>;
