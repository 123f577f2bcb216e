/** What verify's census keeps of each visible record and bundle: a summary, never the item. */
import type { OrderKey } from "../../binary-keys.js";
import type { Location, PersonNameFamily } from "../model/index.js";

/** A visible record item: its generation, its record's location (company, order, person, hashes, `e`). */
export interface RecordSummary {
  readonly gen: number;
  readonly id: string;
  readonly expected: Location;
  /** JSON of the names entry it needs ([pair]), null when unnamed. */
  readonly names: string | null;
  /** The person order key on the item (`q`). */
  readonly q: OrderKey | null;
}

/**
 * A visible bundle: generation, its entries' (`e`), the person's order key, per company the names
 * entries' lists (JSON by family), record locations (with `entries` 0: a bundle does not say).
 */
export interface BundleSummary {
  readonly gen: number;
  readonly entries: number;
  readonly personOrder: OrderKey;
  readonly pairs: ReadonlyMap<string, ReadonlyMap<PersonNameFamily, string>>;
  readonly records: ReadonlyMap<string, Location>;
}
