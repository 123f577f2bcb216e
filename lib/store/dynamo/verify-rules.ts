/**
 * What may exist in the directory table besides the committed state, as the manifest says (pure):
 * a well-formed manifest, versions of the load in progress, and superseded versions awaiting the
 * clean-up the manifest names. Everything else is left over by a dead load or a failed clean-up.
 */
import type { Item, ItemKey } from "./batch.js";
import { MANIFEST_KEY } from "./layout.js";
import type { Lease, Manifest } from "./manifest.js";

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

/** The manifest item checked: a committed generation, a live lease if any, cleanup absent or = committed. */
export function checkManifest(
  item: Item | undefined,
  now: number,
): { manifest: Manifest; problem?: Problem } {
  // No manifest: nothing was ever committed; any other item is then an orphan.
  if (!item) return { manifest: { committed: 0 } };
  const broken = (what: string) => ({ manifest: { committed: 0 }, problem: { key: MANIFEST_KEY, what } });
  const { committed, cleanup } = item;
  if (!isGen(committed)) return broken("manifest: `committed` is not a generation number");
  const lease = item.lease === undefined ? undefined : leaseOf(item.lease);
  if (item.lease !== undefined && !lease) return broken("manifest: malformed lease");
  if (cleanup !== undefined && cleanup !== committed)
    return broken(`manifest: cleanup ${String(cleanup)} is not the committed generation ${committed}`);
  const manifest: Manifest = {
    committed,
    ...(lease ? { lease } : {}),
    ...(cleanup === undefined ? {} : { cleanup: committed }),
  };
  if (lease && lease.gen !== committed && lease.gen !== committed + 1)
    return broken(
      `manifest: the lease's generation ${lease.gen} is neither ${committed} nor ${committed + 1}`,
    );
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
  return {
    committed,
    /** What is wrong with a version written at `gen` and superseded at `x`, if anything. */
    version(gen: number, x: number | undefined): string | undefined {
      if (x !== undefined && x <= gen) return `superseded at generation ${x}, not after its own ${gen}`;
      if (gen > committed && gen !== loading)
        return `written by generation ${gen} > committed ${committed} with no load of it in progress (left by a dead load)`;
      if (x !== undefined && x <= committed && x !== cleanup)
        return `superseded at generation ${x} <= committed ${committed} and never removed (stale garbage)`;
      if (x !== undefined && x > committed && x !== loading)
        return `stamped superseded by generation ${x}, which never committed and has no load in progress`;
      return undefined;
    },
    /** A location deleted at `gen` (no current value) stays only until its generation's clean-up. */
    deletedLocation(gen: number): string | undefined {
      if (gen > committed) return gen === loading ? undefined : this.version(gen, undefined);
      return gen === cleanup
        ? undefined
        : `deleted at generation ${gen} <= committed ${committed} and never removed (stale garbage)`;
    },
    journal(gen: number): string | undefined {
      return gen === loading || gen === cleanup
        ? undefined
        : `journal of generation ${gen} with no load of it in progress and no clean-up pending (left by a dead load)`;
    },
  };
}

export type Allowances = ReturnType<typeof allowances>;
