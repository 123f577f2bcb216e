/**
 * The scopes whose persons the directory keeps in one counted order (docs/data-model.md, "Scope
 * orders"): a registry item per scope in partition 0xfc, versioned like every derived item, so a
 * load sees the registry of its own generation and an undo restores the one before.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { distinctScopes } from "../../scopes.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { ReadAt } from "../model/index.js";
import {
  bytesOf,
  decodeScopeCompanies,
  encodeScopeCompanies,
  genOf,
  gramCensusGenOf,
  type Item,
  type ItemKey,
  isGramCensusSort,
  keyOf,
  newestVersion,
  type PartitionKey,
  queryAll,
  SCOPES_PARTITION,
  type ScopeId,
  scopeIdOf,
  scopeOfRegistrySort,
  scopePartition,
  scopeRegistrySort,
  visibleAt,
} from "../model/index.js";

/**
 * A scope as registered: its sorted companies, the generation of its registry version, and its
 * home: the scope whose partition holds its order and postings (itself, unless it took over the
 * partition of a scope it replaced, or its own partition was another's home).
 */
export interface RegisteredScope {
  readonly companies: readonly string[];
  readonly gen: number;
  readonly home: ScopeId;
}

/** A registry value as stored: a scope's companies and home (its own id when none is stored). */
function registeredValue(scopeId: ScopeId, item: Item, gen: number): RegisteredScope {
  const { companies, home } = decodeScopeCompanies(bytesOf(item[A.data]));
  return { companies, gen, home: (home ?? scopeId) as ScopeId };
}

/** The distinct scopes of these company lists, by id (scopes.ts). */
export const scopesOf = (lists: readonly (readonly string[])[]): Map<ScopeId, readonly string[]> =>
  new Map(distinctScopes(lists).map((companies) => [scopeIdOf(companies), companies]));

/** The generation of a scope partition's item: a census part's is before its part number. */
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
    return visibleAt(gen, typeof x === "number" ? x : undefined, at) ? [{ key, item, gen }] : [];
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
    visible.map(({ key, item, gen }) => {
      const scopeId = scopeOfRegistrySort(key.s);
      return [scopeId, registeredValue(scopeId, item, gen)];
    }),
  );
}

/**
 * The home partition of one scope as of `at`, if the scope is kept: its registry version visible
 * then (one query of the scope's registry versions, newest first).
 */
async function scopeHomeAt(
  client: DynamoDBDocumentClient,
  table: string,
  scopeId: ScopeId,
  at: ReadAt,
): Promise<PartitionKey | undefined> {
  const item = await newestVersion(
    client,
    table,
    { p: SCOPES_PARTITION, low: scopeRegistrySort(scopeId, 0), high: scopeRegistrySort(scopeId, at.gen) },
    at,
  );
  return item && scopePartition(registeredValue(scopeId, item, genOf(bytesOf(item[A.sort]))).home);
}

/** The registry item of a scope living in `home`'s partition, at generation `gen`. */
export const registryItem = (
  scopeId: ScopeId,
  companies: readonly string[],
  home: ScopeId,
  gen: number,
): Item => ({
  [A.partition]: SCOPES_PARTITION,
  [A.sort]: scopeRegistrySort(scopeId, gen),
  [A.data]: encodeScopeCompanies(companies, home === scopeId ? undefined : home),
});

/** The key of a scope's registry version. */
export const registryKey = (scopeId: ScopeId, registered: RegisteredScope): ItemKey => ({
  p: SCOPES_PARTITION,
  s: scopeRegistrySort(scopeId, registered.gen),
});

/** The keys of a scope's registry version and of every item of its home partition (order, name postings) visible at `at`. */
export async function scopeItems(
  client: DynamoDBDocumentClient,
  table: string,
  scopeId: ScopeId,
  registered: RegisteredScope,
  at: ReadAt,
): Promise<{ key: ItemKey; gen: number }[]> {
  const order = await visibleItems(client, table, scopePartition(registered.home), at);
  return [
    { key: registryKey(scopeId, registered), gen: registered.gen },
    ...order.map(({ key, gen }) => ({ key, gen })),
  ];
}

/** Scopes whose homes a reader remembers for its generation; past it, the memory starts again. */
const HOMES_KEPT = 10_000;

/**
 * The homes of the scopes searches ask about, remembered for the generation they were read at: a
 * search over a kept scope finds its partition without a round trip more, but for the first after
 * each load (a load may change any scope's home). Reads at a load's own generation are not
 * remembered: the load changes the registry as it goes.
 */
export class ScopeHomes {
  private readonly client: DynamoDBDocumentClient;
  private readonly table: string;
  private gen = -1;
  private homes = new Map<ScopeId, Promise<PartitionKey | undefined>>();

  constructor(client: DynamoDBDocumentClient, table: string) {
    this.client = client;
    this.table = table;
  }

  /** The home partition of the scope these companies are, if it is kept as of `at`. */
  home(companies: Iterable<string>, at: ReadAt): Promise<PartitionKey | undefined> {
    const scopeId = scopeIdOf(companies);
    if (at.consistent) return scopeHomeAt(this.client, this.table, scopeId, at);
    if (at.gen !== this.gen || this.homes.size >= HOMES_KEPT) {
      this.gen = at.gen;
      this.homes = new Map();
    }
    let home = this.homes.get(scopeId);
    if (!home) {
      const homes = this.homes;
      home = scopeHomeAt(this.client, this.table, scopeId, at);
      home.catch(() => homes.delete(scopeId));
      homes.set(scopeId, home);
    }
    return home;
  }
}
