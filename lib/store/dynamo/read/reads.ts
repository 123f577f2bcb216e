/**
 * Reads of the directory table as of one generation: searches read at the committed one, a load at
 * its own (the pending state, its writes included, strongly consistent).
 */
import type { DynamoDBDocumentClient, QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { SourceEmployee } from "../../../directory/source.js";
import type { CreatedRange } from "../../../search/matching.js";
import { type OrderKey, phoneBytes } from "../../binary-keys.js";
import { emptyOrderRange, orderRange } from "../../order-range.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { Bundle, ItemKey, ReadAt, StoredBundle, VersionedItem } from "../model/index.js";
import {
  batchGet,
  betweenQuery,
  bundleGenOf,
  bundlePartOf,
  bundleSort,
  bytesOf,
  companyItemVisible,
  companyPartition,
  decompress,
  decompressParts,
  entrySort,
  FAMILY,
  type Family,
  familyRange,
  genOf,
  type Item,
  inParallel,
  keyText,
  newestVersion,
  orderOfSort,
  type PartKeys,
  personPartition,
  queryAll,
  visibleParts,
} from "../model/index.js";
import { ScopeHomes } from "../structures/index.js";
import { GramReads } from "./gram-reads.js";
import { OrderReads } from "./order-reads.js";

const versioned = (item: Item): VersionedItem => {
  const sort = bytesOf(item[A.sort]);
  return { order: orderOfSort(sort), gen: genOf(sort), item };
};

/** Record Queries of one page at once: a page holds at most 100 records (the bundles' 50 likewise). */
const RECORDS_IN_FLIGHT = 50;

const BUNDLE_KEYS: PartKeys = { genOf: bundleGenOf, partOf: bundlePartOf };

export class DirectoryReads {
  private readonly client: DynamoDBDocumentClient;
  private readonly table: string;
  /** Reads of the counted orders. */
  readonly orders: OrderReads;
  /** Reads of the name postings. */
  readonly grams: GramReads;
  /** Where kept scopes live. */
  readonly scopeHomes: ScopeHomes;

  constructor(client: DynamoDBDocumentClient, table: string) {
    this.client = client;
    this.table = table;
    this.orders = new OrderReads(client, table);
    this.grams = new GramReads(client, table);
    this.scopeHomes = new ScopeHomes(client, table);
  }

  private query(input: Omit<QueryCommandInput, "TableName">, at: ReadAt) {
    return queryAll(this.client, { TableName: this.table, ConsistentRead: at.consistent, ...input });
  }

  /** A family's items of one company with order keys in a created range, visible at `at`, in order. */
  async family(
    companyId: string,
    which: Family,
    created: CreatedRange,
    at: ReadAt,
  ): Promise<VersionedItem[]> {
    const range = orderRange(created);
    if (emptyOrderRange(range)) return [];
    const { low, high } = familyRange(which, range.from, range.before);
    const p = companyPartition(companyId);
    const items = await queryAll(this.client, betweenQuery(this.table, { p, low, high }, at.consistent));
    return items.filter((item) => companyItemVisible(item, at)).map(versioned);
  }

  /** Record items whose phone normalizes to `phone`, of one company or of all, from byPhone. */
  async phoneRecords(phone: string, companyId: string | undefined, at: ReadAt): Promise<VersionedItem[]> {
    const items = await queryAll(this.client, {
      TableName: this.table,
      IndexName: "byPhone",
      KeyConditionExpression: companyId === undefined ? "#t = :t" : "#t = :t AND #p = :p",
      ExpressionAttributeNames: { "#t": A.phone, ...(companyId === undefined ? {} : { "#p": A.partition }) },
      ExpressionAttributeValues: {
        ":t": phoneBytes(phone),
        ...(companyId === undefined ? {} : { ":p": companyPartition(companyId) }),
      },
    });
    return items.filter((item) => companyItemVisible(item, at)).map(versioned);
  }

  /** The person's bundle version visible at `at`, with its generation and part count. */
  async bundle(personId: string, at: ReadAt): Promise<StoredBundle | undefined> {
    const items = await this.query(
      {
        KeyConditionExpression: "#p = :p AND #s <= :high",
        ExpressionAttributeNames: { "#p": A.partition, "#s": A.sort },
        ExpressionAttributeValues: { ":p": personPartition(personId), ":high": bundleSort(at.gen, 0xffff) },
        ScanIndexForward: false,
      },
      at,
    );
    const version = visibleParts(items, BUNDLE_KEYS, at, `bundle of person ${personId}`);
    if (!version) return undefined;
    const bundle = decompressParts<Bundle>(version.parts.map((part) => bytesOf(part[A.data])));
    const entries = version.parts[0]?.[A.entriesGen];
    if (typeof entries !== "number") throw new Error(`bundle of person ${personId} has no \`e\``);
    return { gen: version.gen, entries, parts: version.parts.length, bundle };
  }

  /**
   * Records by order key and the generation an entry names (its entries'), in the order asked. A
   * record written with its entries is found by one BatchGetItem; one changed since (its item is
   * newer, so the one named is gone or superseded) by a Query of its newest visible version.
   */
  async recordsByKey(
    companyId: string,
    keys: readonly { order: OrderKey; gen: number }[],
    at: ReadAt,
  ): Promise<SourceEmployee[]> {
    const p = companyPartition(companyId);
    const wanted = keys.map(({ order, gen }) => ({ p, s: entrySort(FAMILY.record, order, gen) }));
    const found = await batchGet(this.client, this.table, wanted, at.consistent);
    const asked = keys.map(({ order }, i) => ({ order, named: found.get(keyText(wanted[i] as ItemKey)) }));
    return inParallel(asked, RECORDS_IN_FLIGHT, async ({ order, named }) => {
      if (named && companyItemVisible(named, at)) return decompress<SourceEmployee>(bytesOf(named[A.data]));
      const key = {
        p,
        low: entrySort(FAMILY.record, order, 0),
        high: entrySort(FAMILY.record, order, at.gen),
      };
      const item = await newestVersion(this.client, this.table, key, at);
      if (!item) throw new Error(`no record item of ${keyText({ p, s: key.low })} is visible`);
      return decompress<SourceEmployee>(bytesOf(item[A.data]));
    });
  }

  /** The visible records of a run of consecutive order keys, first to last inclusive. */
  async recordRun(companyId: string, first: OrderKey, last: OrderKey, at: ReadAt): Promise<SourceEmployee[]> {
    const key = {
      p: companyPartition(companyId),
      low: entrySort(FAMILY.record, first, 0),
      high: entrySort(FAMILY.record, last, 0xffffffff),
    };
    const items = await queryAll(this.client, betweenQuery(this.table, key, at.consistent));
    return items
      .filter((item) => companyItemVisible(item, at))
      .map((item) => decompress<SourceEmployee>(bytesOf(item[A.data])));
  }
}

export const directoryReads = (client: DynamoDBDocumentClient, table: string): DirectoryReads =>
  new DirectoryReads(client, table);
