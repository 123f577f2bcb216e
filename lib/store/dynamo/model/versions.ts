/**
 * Which version of a versioned item a reader at one generation sees (docs/data-model.md,
 * "Generations"): of company items, of chunked values (bundles, censuses), of items whose newest
 * version is the one.
 */
import { type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import { betweenQuery, bytesOf, type Item } from "./batch.js";
import { type Generation, genOf, isAbandoned, type PartitionKey, visibleAt } from "./layout.js";
import type { ReadAt } from "./shapes.js";

/** The generation that superseded this version, if one did (`x`). */
export const supersededAt = (item: Item): number | undefined => {
  const x = item[A.supersededAt];
  return typeof x === "number" ? x : undefined;
};

const sortOf = (item: Item) => bytesOf(item[A.sort]);

/** An item whose sort key ends with its generation, visible at `at`. */
export const companyItemVisible = (item: Item, at: Generation): boolean =>
  visibleAt(genOf(sortOf(item)), supersededAt(item), at);

/** How a chunked value's sort keys name its version and chunk: a bundle's, a census's. */
export interface ChunkedKeys {
  readonly genOf: (sort: Uint8Array) => number;
  readonly chunkOf: (sort: Uint8Array) => number;
}

/**
 * Of a chunked value's items, newest first: the chunks of the version visible at `at`, in order.
 * `what` names the value when a chunk is missing.
 */
export function visibleChunks(items: readonly Item[], keys: ChunkedKeys, at: ReadAt, what: string) {
  // Newest first: the first visible generation is the one.
  const visible = items.filter((item) => visibleAt(keys.genOf(sortOf(item)), supersededAt(item), at));
  const gen = visible[0] && keys.genOf(sortOf(visible[0]));
  if (gen === undefined) return undefined;
  const chunks = visible
    .filter((item) => keys.genOf(sortOf(item)) === gen)
    .sort((a, b) => keys.chunkOf(sortOf(a)) - keys.chunkOf(sortOf(b)));
  if (chunks.length !== chunks[0]?.[A.chunks]) throw new Error(`${what} is missing chunks`);
  return { gen, chunks };
}

/**
 * The newest version of a versioned item with sort keys in [low, high] (high: the version at the
 * reader's generation), if it is visible at `at`: each version supersedes the one before, so an
 * older one is never visible when a newer one is hidden. Versions of abandoned generations are
 * passed over (one more Query each: they exist only after a load lost its lease).
 */
export async function newestVersion(
  client: DynamoDBDocumentClient,
  table: string,
  key: { readonly p: PartitionKey; readonly low: Uint8Array; readonly high: Uint8Array },
  at: ReadAt,
): Promise<Item | undefined> {
  const query = { ...betweenQuery(table, key, at.consistent), ScanIndexForward: false, Limit: 1 };
  let start: Record<string, unknown> | undefined;
  for (;;) {
    const { Items, LastEvaluatedKey } = await client.send(
      new QueryCommand({ ...query, ExclusiveStartKey: start }),
    );
    const [item] = Items ?? [];
    if (!item) return undefined;
    if (!isAbandoned(genOf(sortOf(item)), at))
      return visibleAt(genOf(sortOf(item)), supersededAt(item), at) ? item : undefined;
    if (!LastEvaluatedKey) return undefined;
    start = LastEvaluatedKey;
  }
}
