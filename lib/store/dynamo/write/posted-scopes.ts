/**
 * The kept scopes whose name postings are complete as of a load (their marker is visible): a chunk
 * rewrites its persons' postings there; a scope not posted is posted whole when a load derives it.
 */
import { hexOf } from "../../bytes.js";
import {
  decodeScopeMarker,
  inParallel,
  type PartitionKey,
  type ScopeId,
  scopePartition,
} from "../model/index.js";
import type { PostedScope } from "../structures/index.js";
import { readScopes } from "../structures/index.js";
import { type ChunkContext, loadAt } from "./chunk-context.js";

/** Scopes read at once. */
const IN_FLIGHT = 16;

/** A kept scope's postings, if complete as of the load: its marker and census. */
export async function postedScope(
  context: ChunkContext,
  p: PartitionKey,
  companies: readonly string[],
): Promise<(PostedScope & { readonly markerGen: number }) | undefined> {
  const at = loadAt(context);
  const [marker, census] = await Promise.all([
    context.reads.grams.marker(p, at),
    context.reads.grams.census(p, at),
  ]);
  if (marker === undefined) return undefined;
  if (!census) throw new Error(`the scope partition ${hexOf(p)} has a postings marker but no names census`);
  return {
    p,
    companies: new Set(companies),
    marker: decodeScopeMarker(marker.data),
    markerGen: marker.gen,
    census,
  };
}

/** The kept scopes whose postings are complete as of the load, with their markers and censuses. */
export async function postedScopes(context: ChunkContext): Promise<PostedScope[]> {
  const registered = await readScopes(context.client, context.table, loadAt(context));
  const found = await inParallel([...registered.values()], IN_FLIGHT, (scope) =>
    postedScope(context, scopePartition(scope.home), scope.companies),
  );
  return found.filter((scope) => scope !== undefined);
}

/** Whether the postings in a scope's home partition are complete as of the load. */
export async function scopePosted(context: ChunkContext, home: ScopeId): Promise<boolean> {
  return context.reads.grams.covered(scopePartition(home), loadAt(context));
}
