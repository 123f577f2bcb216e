/**
 * The scopes whose persons the directory keeps in one counted order (docs/data-model.md, "Scope
 * orders"): a registry item per scope in partition 0xfc, versioned like every derived item, so a
 * load sees the registry of its own generation and an undo restores the one before.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { distinctScopes } from "../scopes.js";
import { DIRECTORY_ATTR as A } from "../tables.js";
import { bytesOf, type Item, type ItemKey, keyOf, queryAll } from "./batch.js";
import { decodeScopeCompanies, encodeScopeCompanies } from "./codec.js";
import {
  genOf,
  gramCensusGenOf,
  isGramCensusSort,
  SCOPES_PARTITION,
  type ScopeId,
  scopeIdOf,
  scopeOfRegistrySort,
  scopePartition,
  scopeRegistrySort,
  visibleAt,
} from "./layout.js";
import type { ReadAt } from "./reads.js";

/** A scope as registered: its sorted companies and the generation of its registry version. */
export interface RegisteredScope {
  readonly companies: readonly string[];
  readonly gen: number;
}

/** The distinct scopes of these company lists, by id (scopes.ts). */
export const scopesOf = (lists: readonly (readonly string[])[]): Map<ScopeId, readonly string[]> =>
  new Map(distinctScopes(lists).map((companies) => [scopeIdOf(companies), companies]));

/** The generation of a scope partition's item: a census chunk's is before its chunk number. */
const genOfScopeItem = (sort: Uint8Array) => (isGramCensusSort(sort) ? gramCensusGenOf(sort) : genOf(sort));

/** The items of a scope or the registry partition visible at `at`, with their generations. */
async function visibleItems(
  client: DynamoDBDocumentClient,
  table: string,
  partition: Uint8Array,
  at: ReadAt,
): Promise<{ key: ItemKey; item: Item; gen: number }[]> {
  const items = await queryAll(client, {
    TableName: table,
    ConsistentRead: at.consistent,
    KeyConditionExpression: "#p = :p",
    ExpressionAttributeNames: { "#p": A.partition },
    ExpressionAttributeValues: { ":p": partition },
  });
  return items.flatMap((item) => {
    const key = keyOf(item);
    const gen = genOfScopeItem(key.s);
    const x = item[A.supersededAt];
    return visibleAt(gen, typeof x === "number" ? x : undefined, at.gen) ? [{ key, item, gen }] : [];
  });
}

/** The scopes registered as of `at`. */
export async function readScopes(
  client: DynamoDBDocumentClient,
  table: string,
  at: ReadAt,
): Promise<Map<ScopeId, RegisteredScope>> {
  const visible = await visibleItems(client, table, SCOPES_PARTITION, at);
  return new Map(
    visible.map(({ key, item, gen }) => [
      scopeOfRegistrySort(key.s),
      { companies: decodeScopeCompanies(bytesOf(item[A.data])), gen },
    ]),
  );
}

/** The registry item of a scope, at generation `gen`. */
export const registryItem = (scopeId: ScopeId, companies: readonly string[], gen: number): Item => ({
  [A.partition]: SCOPES_PARTITION,
  [A.sort]: scopeRegistrySort(scopeId, gen),
  [A.data]: encodeScopeCompanies(companies),
});

/** The keys of a scope's registry version and of every item of its partition (order, name postings) visible at `at`. */
export async function scopeItems(
  client: DynamoDBDocumentClient,
  table: string,
  scopeId: ScopeId,
  registered: RegisteredScope,
  at: ReadAt,
): Promise<{ key: ItemKey; gen: number }[]> {
  const order = await visibleItems(client, table, scopePartition(scopeId), at);
  return [
    { key: { p: SCOPES_PARTITION, s: scopeRegistrySort(scopeId, registered.gen) }, gen: registered.gen },
    ...order.map(({ key, gen }) => ({ key, gen })),
  ];
}
