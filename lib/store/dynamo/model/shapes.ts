/**
 * The shapes the store's parts share: what a read is made at, and what a read returns (a bundle,
 * a versioned company item, an order's index). Types only.
 */
import type { SourceEmployee, SourcePerson } from "../../../directory/source.js";
import type { OrderKey } from "../../binary-keys.js";
import type { Item } from "./batch.js";
import type { Generation } from "./layout.js";

/** Which state to read: a generation, and whether the read must see every write before it. */
export interface ReadAt extends Generation {
  readonly consistent: boolean;
}

/** A person's bundle: the person (null while only records linking to a missing one exist) and every record. */
export interface Bundle {
  readonly person: SourcePerson | null;
  readonly employees: readonly SourceEmployee[];
}

/** A versioned company item as read: its order key, generation and the item. */
export interface VersionedItem {
  readonly order: OrderKey;
  readonly gen: number;
  readonly item: Item;
}

/**
 * A person's bundle as stored: the version read, its generation, the generation of the person's
 * entries (`e`: at most the bundle's) and its part count.
 */
export interface StoredBundle {
  readonly gen: number;
  readonly entries: number;
  readonly parts: number;
  readonly bundle: Bundle;
}

/** A block as the index names it: below every key it holds (and above the previous block's). */
export interface BlockRef {
  readonly low: OrderKey;
  /** The generation of the block's version the index points at. */
  readonly gen: number;
  readonly count: number;
}

/** The blocks of an order, by `low`. */
export type OrderIndex = readonly BlockRef[];
