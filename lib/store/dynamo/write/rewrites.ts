/**
 * Rewrites: the puts of a repair at keys that may hold an item already (entries and id entries
 * carry the generation of their entries, so a repair heals them where they are). Unlike a new version, the journal names each with the item it replaces, so an undo puts
 * that back; each is sent on the condition that its key still holds what was read, so a loader
 * that lost its lease never overwrites what a later load wrote there.
 */
import { type DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  type Item,
  type ItemKey,
  type KeyText,
  keyOf,
  keyOfText,
  keyText,
  type Rewrite,
  sendConditional,
} from "../model/index.js";

const REWRITES_IN_FLIGHT = 16;

/** An attribute as journal JSON: Binary as base64, Number, String. */
type AttributeJson = { readonly b: string } | { readonly n: number } | { readonly s: string };
/** An item as journal JSON. */
export type ItemJson = Readonly<Record<string, AttributeJson>>;

export function itemJson(item: Item): ItemJson {
  const json: Record<string, AttributeJson> = {};
  for (const [name, value] of Object.entries(item)) {
    if (value instanceof Uint8Array) json[name] = { b: Buffer.from(value).toString("base64") };
    else if (typeof value === "number") json[name] = { n: value };
    else if (typeof value === "string") json[name] = { s: value };
    else throw new Error(`attribute ${name} is neither Binary, Number nor String`);
  }
  return json;
}

export function itemOfJson(json: ItemJson): Item {
  const item: Item = {};
  for (const [name, value] of Object.entries(json))
    item[name] =
      "b" in value ? Uint8Array.from(Buffer.from(value.b, "base64")) : "n" in value ? value.n : value.s;
  return item;
}

/** A rewrite as its journal entry names it: the key, and the item it replaces (none: it put one). */
export interface JournaledRewrite {
  readonly key: KeyText;
  readonly before?: ItemJson;
}

export const journaledRewrite = ({ item, stored }: Rewrite): JournaledRewrite => ({
  key: keyText(keyOf(item)),
  ...(stored ? { before: itemJson(stored) } : {}),
});

/** What undoing a rewrite writes: the item it replaced, or the deletion of the one it put. */
export const undoneRewrite = ({ key, before }: JournaledRewrite): { put: Item } | { delete: ItemKey } =>
  before ? { put: itemOfJson(before) } : { delete: keyOfText(key) };

/** A condition that attribute `#name` holds `value`, or is absent when `value` is undefined. */
const holds = (name: string, value: unknown) =>
  value === undefined ? `attribute_not_exists(#${name})` : `#${name} = :${name}`;

/**
 * The put of a rewrite, on the condition that its key holds what was read (the same `d` and stamp,
 * or no item), or already what it writes (a put the SDK retries may have landed).
 */
function rewriteCommand(table: string, { item, stored }: Rewrite) {
  const read = stored
    ? `${holds("d", stored[A.data])} AND ${holds("x", stored[A.supersededAt])}`
    : "attribute_not_exists(#d)";
  const values = {
    ":w": item[A.data],
    ...(stored?.[A.data] === undefined ? {} : { ":d": stored[A.data] }),
    ...(stored?.[A.supersededAt] === undefined ? {} : { ":x": stored[A.supersededAt] }),
  };
  return new PutCommand({
    TableName: table,
    Item: item,
    ConditionExpression: `(${read}) OR (#d = :w AND attribute_not_exists(#x))`,
    ExpressionAttributeNames: { "#d": A.data, "#x": A.supersededAt },
    ExpressionAttributeValues: values,
  });
}

/** Sends rewrites; returns how many found their key changed since it was read. */
export async function writeRewrites(
  client: DynamoDBDocumentClient,
  table: string,
  rewrites: readonly Rewrite[],
): Promise<number> {
  return sendConditional(
    client,
    rewrites.map((rewrite) => rewriteCommand(table, rewrite)),
    REWRITES_IN_FLIGHT,
  );
}
