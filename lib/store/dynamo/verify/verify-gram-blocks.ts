/**
 * Gram blocks (gram-blocks.ts) against the postings they count (pure). Where an owner's postings
 * marker is visible, each gram its census counts has blocks that tile its postings from the lowest
 * order key, each counting exactly the visible postings between its low and the next block's (none
 * empty, none above the most a block holds), the whole the census's count; no other block is
 * visible. Each companion count is exactly the block's holders whose pairs hold both grams. A table
 * is read in key order, and a gram's blocks sort just before its postings, so each posting is
 * counted into its block as it is read: kept are the blocks (about one per 1,000 postings), never
 * the postings; a block's companion counts are settled (and let go) once the postings pass it.
 */

import type { NamePair } from "../../../search/matching.js";
import type { OrderKey } from "../../binary-keys.js";
import type { GramCompanions, ItemKey } from "../model/index.js";
import { type GramField, genOf, gramBlockOfSort, LOWEST_ORDER_KEY } from "../model/index.js";
import { companionsOf, GRAM_BLOCK_ENTRIES, type GramCensus } from "../structures/index.js";
import type { Problem } from "./verify-rules.js";

/**
 * A visible block as read: its low, its count, the postings seen in its range, its key; its
 * companion counts less those of the holders seen (all 0 once its postings are read; undefined once
 * settled), and what was wrong with them when settled.
 */
interface SeenBlock {
  readonly low: OrderKey;
  readonly count: number;
  seen: number;
  readonly key: ItemKey;
  companions: Map<string, number> | undefined;
  stored: GramCompanions | undefined;
  wrong?: string;
}

/** One owner's gram's blocks, and its postings read before any of them (a scan out of key order). */
interface SeenGram {
  readonly owner: string;
  readonly field: GramField;
  readonly text: string;
  readonly blocks: SeenBlock[];
  /** The block the last posting was counted into: settled when a posting passes it. */
  open?: SeenBlock;
}

const gramOf = (owner: string, field: GramField, text: string) => `${owner}\u0000${field}\u0000${text}`;

/** The last block whose low is at or below `order`. */
function holding(blocks: readonly SeenBlock[], order: OrderKey): SeenBlock | undefined {
  let low = 0;
  let high = blocks.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((blocks[mid] as SeenBlock).low <= order) low = mid + 1;
    else high = mid;
  }
  return blocks[low - 1];
}

/** A block's companion counts against its holders seen: what is wrong, kept; the counts let go. */
function settle(block: SeenBlock): void {
  const { companions, stored } = block;
  if (!companions || !stored) return;
  const wrong = [...companions]
    .filter(([, left]) => left !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[0];
  if (wrong) {
    const [companion, left] = wrong;
    const counted = stored.get(companion) ?? 0;
    block.wrong ??= `a gram block that counts ${counted} holders of companion "${companion}", where ${counted - left} are`;
  }
  block.companions = undefined;
  block.stored = undefined;
}

export class GramBlockTally {
  /** The block a problem found on reading the next one is about. */
  blamed?: ItemKey;
  private readonly grams = new Map<string, SeenGram>();
  /** Per owner's gram, postings read while none of its blocks had been. */
  private readonly early = new Map<string, ItemKey>();

  /**
   * A visible gram block: what is wrong with it on its own, if anything. One written again at its
   * low replaces the one before it, unstamped, until its generation's clean-up: `replaced` says what
   * is wrong with a replaced version still there, and `blamed` then names it.
   */
  block(
    key: ItemKey,
    owner: string,
    count: number,
    companions: GramCompanions,
    replaced: (by: number) => string | undefined,
  ): string | undefined {
    const { field, text, low } = gramBlockOfSort(key.s);
    if (count === 0) return "a gram block that counts no posting";
    if (count > GRAM_BLOCK_ENTRIES.max)
      return `a gram block that counts ${count} postings, above the ${GRAM_BLOCK_ENTRIES.max} a block holds`;
    const id = gramOf(owner, field, text);
    const gram = this.grams.get(id) ?? { owner, field, text, blocks: [] };
    const last = gram.blocks.at(-1);
    if (last && last.low > low) return "gram blocks read out of key order";
    if (last && last.low === low) {
      const stale = replaced(genOf(key.s));
      if (stale) {
        this.blamed = last.key;
        return stale;
      }
      gram.blocks.pop();
    }
    if ([...companions.values()].some((n) => n > count))
      return "a gram block that counts a companion more often than postings";
    gram.blocks.push({
      low,
      count,
      seen: 0,
      key,
      companions: new Map(companions),
      stored: companions,
    });
    this.grams.set(id, gram);
    return undefined;
  }

  /** A visible posting (its holder's pairs), counted into its gram's block and companions. */
  posting(
    key: ItemKey,
    owner: string,
    gram: { readonly field: GramField; readonly text: string },
    order: OrderKey,
    pairs: readonly NamePair[],
  ): void {
    const id = gramOf(owner, gram.field, gram.text);
    const seen = this.grams.get(id);
    if (!seen) {
      if (!this.early.has(id)) this.early.set(id, key);
      return;
    }
    const block = holding(seen.blocks, order);
    if (!block) return;
    if (seen.open && seen.open !== block) settle(seen.open);
    seen.open = block;
    block.seen += 1;
    if (block.companions)
      for (const companion of companionsOf(gram, pairs))
        block.companions.set(companion, (block.companions.get(companion) ?? 0) - 1);
  }

  /** One owner's gram's blocks against its postings and its census's count. */
  private gram(gram: SeenGram, census: GramCensus): Problem | undefined {
    const [first] = gram.blocks;
    if (!first) return undefined;
    const early = this.early.get(gramOf(gram.owner, gram.field, gram.text));
    if (early)
      return { key: early, what: "a posting read before its gram's blocks (a scan out of key order)" };
    if (first.low !== LOWEST_ORDER_KEY)
      return { key: first.key, what: "a gram's first block is not from the lowest key" };
    for (const block of gram.blocks) {
      if (block.seen !== block.count)
        return {
          key: block.key,
          what: `a gram block that counts ${block.count} postings, where ${block.seen} are`,
        };
      settle(block);
      if (block.wrong) return { key: block.key, what: block.wrong };
    }
    const counted = census.count(gram);
    const total = gram.blocks.reduce((sum, block) => sum + block.count, 0);
    if (total !== counted)
      return {
        key: first.key,
        what: `gram blocks that count ${total} postings, where the census counts ${counted}`,
      };
    return undefined;
  }

  /** A census counting a gram of a marked owner that no block counts. */
  private unblocked(
    markers: ReadonlyMap<string, ItemKey>,
    censuses: ReadonlyMap<string, { key: ItemKey; census: GramCensus }>,
  ): Problem | undefined {
    for (const [owner, { key, census }] of censuses) {
      if (!markers.has(owner)) continue;
      for (const [gram, count] of census.grams())
        if (!this.grams.has(gramOf(owner, gram.field, gram.text)))
          return {
            key,
            what: `counts ${count} holders of ${gram.field} gram "${gram.text}", which no gram block counts`,
          };
    }
    return undefined;
  }

  /**
   * The blocks of every owner against its postings and census; a census counting a gram no block
   * counts; blocks of an owner with no marker, unless a load is in progress (it may be posting one).
   */
  check(
    markers: ReadonlyMap<string, ItemKey>,
    censuses: ReadonlyMap<string, { key: ItemKey; census: GramCensus }>,
    loading: boolean,
  ): Problem | undefined {
    for (const gram of this.grams.values()) {
      const census = censuses.get(gram.owner);
      const [first] = gram.blocks;
      if (!first) continue;
      const problem =
        markers.has(gram.owner) && census
          ? this.gram(gram, census.census)
          : loading
            ? undefined
            : { key: first.key, what: "a gram block in a partition with no postings marker" };
      if (problem) return problem;
    }
    return this.unblocked(markers, censuses);
  }
}
