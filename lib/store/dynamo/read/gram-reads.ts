/**
 * Reads of name postings (name-grams.ts) as of one generation: a partition's marker (are its
 * postings complete?), its census (how many records hold each gram), one gram's blocks (how many
 * postings lie in each range of order keys, gram-blocks.ts) and one gram's postings in a created
 * range: a company's from its posting pages (posting-pages.ts), the page just below the range
 * read beside it; a scope's one item each.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { CreatedRange } from "../../../search/matching.js";
import type { OrderKey } from "../../binary-keys.js";
import { emptyOrderRange, orderRange } from "../../order-range.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { Item, ItemKey, ReadAt, VersionedItem } from "../model/index.js";
import {
  ALL_POSTINGS,
  betweenQuery,
  bytesOf,
  companyItemVisible,
  decodeGramBlock,
  decodePostingPage,
  genOf,
  gramBlockOfSort,
  gramBlockRange,
  gramCensusGenOf,
  gramCensusPartOf,
  gramCensusSort,
  gramMarkerSort,
  isCompanyPartition,
  isGramBlockSort,
  keyOf,
  newestVersion,
  type PartitionKey,
  postingOfSort,
  postingRange,
  postingSort,
  queryAll,
  queryPages,
  visibleParts,
} from "../model/index.js";
import {
  type Gram,
  type GramBlockIndex,
  type GramBlockRef,
  GramCensus,
  gramId,
  type PostingPage,
  type StoredGramCensus,
} from "../structures/index.js";

const CENSUS_KEYS = { genOf: gramCensusGenOf, partOf: gramCensusPartOf };

/** A gram's pages looked back at a time, for the page just below a range (few versions each). */
const LOOKBACK = 4;

/** A Query's item limit for `step` postings: a page holds about seventeen, rarely fewer than eight. */
const queryLimit = (paged: boolean, step: number) =>
  Number.isFinite(step) ? { Limit: Math.max(1, Math.ceil(paged ? step / 8 : step)) } : {};

/** The low of a posting page item (its order key). */
const lowOf = (item: Item) => postingOfSort(bytesOf(item[A.sort])).order;

/**
 * Of a run's visible items in key order, a company's newest version of each page: one written again
 * at its low replaces the one before, unstamped, until the clean-up deletes that.
 */
function newestPages(p: PartitionKey, visible: readonly Item[]): Item[] {
  if (!isCompanyPartition(p)) return [...visible];
  const newest: Item[] = [];
  for (const item of visible) {
    const last = newest.at(-1);
    if (last && lowOf(last) === lowOf(item)) newest[newest.length - 1] = item;
    else newest.push(item);
  }
  return newest;
}

/** A posting page item as a page: its low, generation and postings. */
function pageOf(item: Item): PostingPage {
  const sort = bytesOf(item[A.sort]);
  const low = postingOfSort(sort).order;
  return { low, gen: genOf(sort), postings: decodePostingPage(bytesOf(item[A.data]), low) };
}

/**
 * The postings a visible item of a gram's run holds, in [from, before): a company's page holds
 * several, each as the item a posting of its own would be; a scope's item is one posting.
 */
function postingsOfItem(
  p: PartitionKey,
  gram: Gram,
  item: Item,
  { from, before }: { readonly from?: OrderKey | undefined; readonly before?: OrderKey | undefined },
): VersionedItem[] {
  if (!isCompanyPartition(p)) {
    const sort = bytesOf(item[A.sort]);
    return [{ order: postingOfSort(sort).order, gen: genOf(sort), item }];
  }
  return pageOf(item)
    .postings.filter(
      ({ order }) => (from === undefined || order >= from) && (before === undefined || order < before),
    )
    .map(({ order, gen, pairs }) => ({
      order,
      gen,
      item: { [A.partition]: p, [A.sort]: postingSort(gram.field, gram.text, order, gen), [A.data]: pairs },
    }));
}

/**
 * A gram's visible block items, in key order, as blocks: of a block written again at its low, the
 * newest (the one before it stays, unstamped, until the clean-up).
 */
function blockIndex(visible: readonly Item[]): { blocks: GramBlockIndex; first?: ItemKey } {
  const blocks: GramBlockRef[] = [];
  for (const item of visible) {
    const sort = bytesOf(item[A.sort]);
    const { n, companions } = decodeGramBlock(bytesOf(item[A.data]));
    const block = { low: gramBlockOfSort(sort).low, gen: genOf(sort), count: n, companions };
    if (blocks.at(-1)?.low === block.low) blocks[blocks.length - 1] = block;
    else blocks.push(block);
  }
  const [first] = visible;
  return first ? { blocks, first: keyOf(first) } : { blocks };
}

export class GramReads {
  private readonly client: DynamoDBDocumentClient;
  private readonly table: string;

  constructor(client: DynamoDBDocumentClient, table: string) {
    this.client = client;
    this.table = table;
  }

  /** Whether the partition's postings are complete at `at`: a marker is visible. */
  async covered(p: PartitionKey, at: ReadAt): Promise<boolean> {
    return (await this.marker(p, at)) !== undefined;
  }

  /** The partition's marker visible at `at`, if one is: its generation and value. */
  async marker(p: PartitionKey, at: ReadAt): Promise<{ gen: number; data: Uint8Array } | undefined> {
    const item = await newestVersion(
      this.client,
      this.table,
      { p, low: gramMarkerSort(0), high: gramMarkerSort(at.gen) },
      at,
    );
    return item && { gen: genOf(bytesOf(item[A.sort])), data: bytesOf(item[A.data]) };
  }

  /** The census visible at `at`: there is one exactly when the marker is visible too. */
  async census(p: PartitionKey, at: ReadAt): Promise<StoredGramCensus | undefined> {
    const items = await queryAll(this.client, {
      ...betweenQuery(
        this.table,
        { p, low: gramCensusSort(0, 0), high: gramCensusSort(at.gen, 0xffff) },
        at.consistent,
      ),
      ScanIndexForward: false,
    });
    const version = visibleParts(items, CENSUS_KEYS, at, "a names census");
    if (!version) return undefined;
    const census = GramCensus.decode(version.parts.map((part) => bytesOf(part[A.data])));
    return { census, gen: version.gen, parts: version.parts.length };
  }

  /**
   * One gram's blocks visible at `at`, in order, with the first one's key (what a failed check
   * names); none for a gram not posted.
   */
  async blocks(
    p: PartitionKey,
    gram: Gram,
    at: ReadAt,
  ): Promise<{ blocks: GramBlockIndex; first?: ItemKey }> {
    const items = await queryAll(
      this.client,
      betweenQuery(this.table, { p, ...gramBlockRange(gram.field, gram.text) }, at.consistent),
    );
    return blockIndex(items.filter((item) => companyItemVisible(item, at)));
  }

  /**
   * Every gram's blocks visible at `at`, by `gramId`: one read of the partition's whole postings
   * family (its postings too, which share the family), a page at a time. Where many of a small
   * partition's grams change, it costs a few calls instead of one `blocks` per gram.
   */
  async allBlocks(p: PartitionKey, at: ReadAt): Promise<Map<string, GramBlockIndex>> {
    const byGram = new Map<string, Item[]>();
    const query = betweenQuery(this.table, { p, ...ALL_POSTINGS }, at.consistent);
    for await (const page of queryPages(this.client, query))
      for (const item of page) {
        const sort = bytesOf(item[A.sort]);
        if (!isGramBlockSort(sort) || !companyItemVisible(item, at)) continue;
        const id = gramId(gramBlockOfSort(sort));
        const items = byGram.get(id) ?? [];
        byGram.set(id, items);
        items.push(item);
      }
    return new Map([...byGram].map(([id, items]) => [id, blockIndex(items).blocks]));
  }

  /**
   * One gram's postings visible at `at` whose order keys lie in the created range, in order; the
   * first `count` of them only, when given (read a page at a time until there are that many: a
   * load in progress leaves versions a reader does not see).
   */
  async postings(
    p: PartitionKey,
    gram: Gram,
    created: CreatedRange,
    at: ReadAt,
    count = Number.POSITIVE_INFINITY,
  ): Promise<VersionedItem[]> {
    const range = orderRange(created);
    if (emptyOrderRange(range) || count <= 0) return [];
    return this.postingsBetween(p, gram, range, at, count);
  }

  /** The same between two order keys (or their prefixes): from `from`, before `before`. */
  async postingsBetween(
    p: PartitionKey,
    gram: Gram,
    range: { readonly from?: OrderKey | undefined; readonly before?: OrderKey | undefined },
    at: ReadAt,
    count = Number.POSITIVE_INFINITY,
  ): Promise<VersionedItem[]> {
    return this.matchingBetween(p, gram, range, at, undefined, count, count);
  }

  /**
   * The same, keeping only the postings `keep` keeps (all: undefined): the first `count` kept,
   * read `step` postings a Query page (at most: a page also ends at 1 MB).
   */
  async matchingBetween(
    p: PartitionKey,
    gram: Gram,
    range: { readonly from?: OrderKey | undefined; readonly before?: OrderKey | undefined },
    at: ReadAt,
    keep: ((item: Item) => boolean) | undefined,
    count = Number.POSITIVE_INFINITY,
    step = Number.POSITIVE_INFINITY,
  ): Promise<VersionedItem[]> {
    if (count <= 0) return [];
    const paged = isCompanyPartition(p);
    const { low, high } = postingRange(gram.field, gram.text, range.from, range.before);
    const query = betweenQuery(this.table, { p, low, high }, at.consistent);
    const pages = queryPages(this.client, { ...query, ...queryLimit(paged, step) });
    const [below, first] = await Promise.all([
      paged && range.from !== undefined ? this.pageBelow(p, gram, range.from, at) : undefined,
      pages.next(),
    ]);
    const found: VersionedItem[] = [];
    const add = (item: Item) => {
      for (const posting of postingsOfItem(p, gram, item, range))
        if (!keep || keep(posting.item)) found.push(posting);
    };
    if (below) add(below);
    // A page read last waits for the next Query page, which a newer version of it may start (a
    // page Query reads about twice the pages its count needs); a scope's postings do not wait.
    let last: Item | undefined;
    for (let page = first; !page.done; page = await pages.next()) {
      const visible = page.value.filter((item) => companyItemVisible(item, at));
      const newest = newestPages(p, last ? [last, ...visible] : visible);
      last = paged ? newest.pop() : undefined;
      for (const item of newest) add(item);
      if (found.length >= count) return found.slice(0, count);
    }
    if (last) add(last);
    return found.slice(0, count);
  }

  /**
   * The visible page of a company's gram with the highest low below `from`, which holds its
   * postings from there up to the next visible page's low; read newest first (its newest visible
   * version comes first), a few versions at a time.
   */
  private async pageBelow(
    p: PartitionKey,
    gram: Gram,
    from: OrderKey,
    at: ReadAt,
  ): Promise<Item | undefined> {
    const { low } = postingRange(gram.field, gram.text, undefined, undefined);
    const high = postingRange(gram.field, gram.text, from, undefined).low;
    const query = { ...betweenQuery(this.table, { p, low, high }, at.consistent), ScanIndexForward: false };
    for await (const page of queryPages(this.client, { ...query, Limit: LOOKBACK }))
      for (const item of page) if (companyItemVisible(item, at)) return item;
    return undefined;
  }

  /**
   * A company gram's pages visible at `at` that hold the postings from `lowest` to `highest`: the
   * page below `lowest`, and every page whose low lies between them (both included), in order.
   */
  async pagesAround(
    p: PartitionKey,
    gram: Gram,
    lowest: OrderKey,
    highest: OrderKey,
    at: ReadAt,
  ): Promise<PostingPage[]> {
    const range = {
      p,
      low: postingSort(gram.field, gram.text, lowest, 0),
      high: postingSort(gram.field, gram.text, highest, 0xffff_ffff),
    };
    const [below, items] = await Promise.all([
      this.pageBelow(p, gram, lowest, at),
      queryAll(this.client, betweenQuery(this.table, range, at.consistent)),
    ]);
    const visible = newestPages(
      p,
      items.filter((item) => companyItemVisible(item, at)),
    );
    return (below ? [below, ...visible] : visible).map(pageOf);
  }
}
