/** The writes a load plans, before they are journaled and sent (write/load-chunk.ts). */
import { type Item, type ItemKey, type KeyText, keyText } from "./batch.js";
import { itemKey } from "./items.js";

/** A load's writes being planned: new versions put, the versions they replace superseded. */
export class Writes {
  readonly gen: number;
  readonly puts = new Map<KeyText, Item>();
  readonly deletes = new Map<KeyText, ItemKey>();
  readonly stamps = new Map<KeyText, ItemKey>();
  constructor(gen: number) {
    this.gen = gen;
  }

  put(item: Item): void {
    const key = keyText(itemKey(item));
    this.deletes.delete(key);
    this.puts.set(key, item);
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
