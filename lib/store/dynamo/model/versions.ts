/**
 * Which version of a versioned item a reader at one generation sees (docs/data-model.md,
 * "Generations"): of company items, of values in parts (bundles, censuses), of items whose newest
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

/** How the sort keys of a value in parts name its version and part: a bundle's, a census's. */
export interface PartKeys {
  readonly genOf: (sort: Uint8Array) => number;
  readonly partOf: (sort: Uint8Array) => number;
}

/**
 * Of the items of a value in parts, newest first: the parts of the version visible at `at`, in order.
 * `what` names the value when a part is missing.
 */
export function visibleParts(items: readonly Item[], keys: PartKeys, at: ReadAt, what: string) {
  // Newest first: the first visible generation is the one.
  const visible = items.filter((item) => visibleAt(keys.genOf(sortOf(item)), supersededAt(item), at));
  const gen = visible[0] && keys.genOf(sortOf(visible[0]));
  if (gen === undefined) return undefined;
  const parts = visible
    .filter((item) => keys.genOf(sortOf(item)) === gen)
    .sort((a, b) => keys.partOf(sortOf(a)) - keys.partOf(sortOf(b)));
  if (parts.length !== parts[0]?.[A.parts]) throw new Error(`${what} is missing parts`);
  return { gen, parts };
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
