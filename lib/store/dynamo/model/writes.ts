/** The writes a load plans, before they are journaled and sent (write/load-chunk.ts). */
import { equalBytes } from "../../bytes.js";
import { type Item, type ItemKey, type KeyText, keyText } from "./batch.js";
import { itemKey } from "./items.js";

/**
 * A put at a key that may hold an item already, as read: an item a repair writes at the generation
 * it carries (an entry, an id entry), not a new version. Its undo puts back
 * the item read, or deletes it when none was.
 */
export interface Rewrite {
  readonly item: Item;
  readonly stored: Item | undefined;
}

/** Whether two items hold the same attributes with the same values. */
function sameItem(a: Item, b: Item | undefined): boolean {
  if (!b || Object.keys(a).length !== Object.keys(b).length) return false;
  return Object.entries(a).every(([name, value]) => {
    const other = b[name];
    return value instanceof Uint8Array && other instanceof Uint8Array
      ? equalBytes(value, other)
      : value === other;
  });
}

/** A load's writes being planned: new versions put, the versions they replace superseded. */
export class Writes {
  readonly gen: number;
  readonly puts = new Map<KeyText, Item>();
  readonly deletes = new Map<KeyText, ItemKey>();
  readonly stamps = new Map<KeyText, ItemKey>();
  /** Versions replaced by a newer one of their key, which readers take: deleted at clean-up. */
  readonly replaced = new Map<KeyText, ItemKey>();
  readonly rewrites = new Map<KeyText, Rewrite>();
  constructor(gen: number) {
    this.gen = gen;
  }

  put(item: Item): void {
    const key = keyText(itemKey(item));
    this.deletes.delete(key);
    this.puts.set(key, item);
  }

  /** `item` over what its key holds (`stored`, as read); nothing when that is the same item. */
  rewrite(item: Item, stored: Item | undefined): void {
    if (!sameItem(item, stored)) this.rewrites.set(keyText(itemKey(item)), { item, stored });
  }

  /**
   * Versions written at `gen` that a new version of the same key (but its generation) replaces,
   * where readers take the newest visible version: left unstamped, deleted by the clean-up. This
   * load's own are overwritten, or deleted when not written again (a value in fewer parts).
   */
  replace(keys: readonly ItemKey[], gen: number): void {
    if (gen === this.gen) this.supersede(keys, gen);
    else for (const key of keys) this.replaced.set(keyText(key), key);
  }

  /** Stored versions a plan drops: replaced when written again at their key (`again`), else stamped. */
  retire(keys: readonly ItemKey[], gen: number, again: boolean): void {
    if (again) this.replace(keys, gen);
    else this.supersede(keys, gen);
  }

  /**
   * The stored blocks or pages a plan drops (`superseded`), keyed by `keyOf`: each replaced where
   * the plan writes one again at its low (readers take the newest), else stamped.
   */
  retireByLow<T extends { readonly low: string; readonly gen: number }>(
    superseded: readonly T[],
    written: readonly { readonly low: string }[],
    keyOf: (stored: T) => ItemKey,
  ): void {
    const lows = new Set(written.map((block) => block.low));
    for (const stored of superseded) this.retire([keyOf(stored)], stored.gen, lows.has(stored.low));
  }

  /** Versions written at `gen` are replaced: this load's own are deleted, older ones stamped. */
  supersede(keys: readonly ItemKey[], gen: number): void {
    for (const key of keys) {
      const text = keyText(key);
      if (gen === this.gen) {
        if (!this.puts.has(text)) this.deletes.set(text, key);
      } else this.stamps.set(text, key);
    }
  }
}
