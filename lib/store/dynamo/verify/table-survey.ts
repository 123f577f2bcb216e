/**
 * One pass over the directory table's items (pure): each item is checked on its own (format byte,
 * key shape, whether the manifest allows its version to exist, attributes agreeing with its data)
 * and what is visible at the committed generation is kept as a small summary per id, never the
 * record itself, for verify-links.ts to check the items against each other.
 */
import type { SourceEmployee } from "../../../directory/source.js";
import { namesOf, phoneOf } from "../../../search/matching.js";
import {
  type Brand,
  ORDER_KEY_BYTES,
  type OrderKey,
  orderKeyBytes,
  orderKeyOfBytes,
  phoneBytes,
} from "../../binary-keys.js";
import { equalBytes, FormatError, hexOf } from "../../bytes.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { Bundle, OrderIndex } from "../model/index.js";
import {
  bundleGenOf,
  bundlePartOf,
  bundleSort,
  bytesOf,
  companyOfPartition,
  companyPartition,
  decodeGramBlock,
  decodeNamePairs,
  decodeOrderBlock,
  decodeOrderIndex,
  decodePostingPage,
  decodeScopeCompanies,
  decodeScopeMarker,
  decompress,
  decompressParts,
  endsWithItsStream,
  entrySort,
  FAMILY,
  FORMAT,
  type GramField,
  genOf,
  genOfJournal,
  gramCensusGenOf,
  gramCensusPartOf,
  gramCensusSort,
  type Item,
  type ItemKey,
  idBucketOf,
  idKindOfPartition,
  idOfIdEntrySort,
  idOfPartition,
  isCompanyPartition,
  isGramBlockSort,
  isGramCensusSort,
  isGramMarkerSort,
  isIdsPartition,
  isJournalPartition,
  isLocationPartition,
  isOrderBlockSort,
  isOrderIndexPartSort,
  isOrderIndexSort,
  isPersonPartition,
  isPostingSort,
  isScopePartition,
  isScopesPartition,
  type KeyText,
  keyOf,
  keyText,
  type Location,
  locationOf,
  MANIFEST_KEY,
  ORDER,
  type OrderFamily,
  orderIndexPartOf,
  orderIndexSort,
  orderOfSort,
  type PagedPosting,
  type PartitionKey,
  personNameLists,
  personOrder,
  postingOfSort,
  type ScopeId,
  type ScopeMarker,
  scopeIdOf,
  scopeOfPartition,
  scopeOfRegistrySort,
  scopePartition,
  visibleAt,
} from "../model/index.js";
import { locationAt } from "../read/index.js";
import { GramCensus } from "../structures/index.js";
import type { BundleSummary, RecordSummary } from "./summaries.js";
import { GramTally, type NamesEntry } from "./verify-grams.js";
import type { Allowances, Problem } from "./verify-rules.js";
import { scopeNamesEntries } from "./verify-scope-postings.js";

/** A company item's logical key (all its versions): family (1 char), order key (25), company. */
export type EntryKey = Brand<string, "EntryKey">;
export const entryKey = (family: number, order: OrderKey, company: string) =>
  `${String.fromCharCode(family)}${order}${company}` as EntryKey;
export const entryKeyParts = (key: EntryKey) => ({
  family: key.charCodeAt(0),
  order: key.slice(1, 1 + ORDER_KEY_BYTES) as OrderKey,
  company: key.slice(1 + ORDER_KEY_BYTES),
});

/** An order of a company or a scope (`scopeOwner`): its family byte and its owner. */
export const orderId = (family: number, owner: string) => `${family}/${owner}`;
/** A scope as an order's owner: no company id holds a colon. */
export const scopeOwner = (scopeId: string) => `scope:${scopeId}`;
const SCOPE_OWNER = scopeOwner("");
const isScopeOwner = (owner: string) => owner.startsWith(SCOPE_OWNER);
/** The partition of a company or a scope (`scopeOwner`). */
const ownerPartition = (owner: string): PartitionKey =>
  isScopeOwner(owner) ? scopePartition(owner.slice(SCOPE_OWNER.length) as ScopeId) : companyPartition(owner);
/** A block version of an order. */
export const orderBlockId = (family: number, company: string, low: OrderKey, gen: number) =>
  `${orderId(family, company)}/${hexOf(orderKeyBytes(low))}/${gen}`;

const PAST_END = "`d` holds bytes past the end of its compressed value";
/** A name posting's, gram block's, names census part's or postings marker's sort key. */
const isGramItemSort = (s: Uint8Array) =>
  isPostingSort(s) || isGramBlockSort(s) || isGramCensusSort(s) || isGramMarkerSort(s);
const sameBytes = (a: unknown, b: Uint8Array | undefined) =>
  b === undefined ? a === undefined : a instanceof Uint8Array && equalBytes(a, b);
const textOrNull = (value: unknown) => (typeof value === "string" ? value : null);

/** A visible posting page as verify reads it. */
interface PendingPage {
  readonly key: ItemKey;
  readonly owner: string;
  readonly field: GramField;
  readonly text: string;
  readonly low: OrderKey;
  readonly postings: readonly PagedPosting[];
}

/** Whether two pages are of one gram of one partition. */
const samePageRun = (a: PendingPage, b: PendingPage) =>
  equalBytes(a.key.p, b.key.p) && a.field === b.field && a.text === b.text;

export class TableSurvey {
  private readonly rules: Allowances;
  readonly records = new Map<EntryKey, RecordSummary>();
  /** Key, names, person key and person names entries: generation, and name pairs (JSON). */
  readonly entries = new Map<EntryKey, { gen: number; pairs?: string }>();
  readonly bundles = new Map<string, BundleSummary>();
  /** Location values visible at the committed generation, by record id. */
  readonly locations = new Map<string, { gen: number; value: Location }>();
  /** Visible entries of the id index, by kind and id: their generation. */
  readonly ids = { person: new Map<string, number>(), employee: new Map<string, number>() };
  /** Visible order indexes, by company and order family (`<family>/<company>`). */
  readonly orderIndexes = new Map<string, { key: ItemKey; gen: number; index: OrderIndex }>();
  /** Visible order blocks, by company, order family, low and generation (`orderBlockId`). */
  readonly orderBlocks = new Map<string, { key: ItemKey; keys: OrderKey[] }>();
  /** Registered scopes visible at the committed generation, by the owner of their home partition (`scopeOwner` of the home). */
  readonly scopes = new Map<string, { key: ItemKey; companies: string[] }>();
  /** Ids of the scopes with a visible registry version. */
  private readonly registered = new Set<string>();
  /** Visible scope postings markers, by owner (the home). */
  private readonly scopeMarkers = new Map<string, ScopeMarker>();
  /** The last visible posting page read, waiting for the next item; the last one kept before it. */
  private pendingPage?: PendingPage;
  private lastPage?: PendingPage;
  /** The item a problem found on reading another one is about (a page read before it). */
  private blamed?: ItemKey;
  /** Visible name postings, markers and censuses, for verify-grams.ts. */
  readonly grams = new GramTally({ partitionOf: ownerPartition, isScope: isScopeOwner });
  /** Values in parts being gathered, by their first part's key, which names them. */
  private readonly gathering = new Map<
    KeyText,
    { first: ItemKey; n: number; k: unknown; e: unknown; what: string; parts: Uint8Array[] }
  >();

  constructor(rules: Allowances) {
    this.rules = rules;
  }

  /** Checks one item and keeps what it contributes; the problem with it, if any. */
  add(item: Item): Problem | undefined {
    const key = keyOf(item);
    for (const attr of [A.data, A.previousData]) {
      const value = item[attr];
      if (value !== undefined && !(value instanceof Uint8Array && value[0] === FORMAT))
        return { key, what: `\`${attr}\` does not start with the format byte ${FORMAT}` };
    }
    try {
      const what = this.classify(key, item);
      const blamed = this.blamed;
      this.blamed = undefined;
      return what === undefined ? undefined : { key: blamed ?? key, what };
    } catch (error) {
      this.blamed = undefined;
      return { key, what: `unreadable: ${(error as Error).message}` };
    }
  }

  /** The last posting page read, once the table is read: kept, or what is wrong with it. */
  endOfPages(): Problem | undefined {
    const pending = this.pendingPage;
    this.pendingPage = undefined;
    const what = pending && this.keepPage(pending);
    const blamed = this.blamed;
    this.blamed = undefined;
    return what === undefined ? undefined : { key: blamed ?? (pending as PendingPage).key, what };
  }

  /**
   * Of a version of generation `gen`: what is wrong with it (a version the manifest does not
   * allow), null when it is allowed but not visible at the committed generation, undefined when
   * it is visible (and so checked and kept).
   */
  private unseen(gen: number, item: Item): string | null | undefined {
    const x = item[A.supersededAt] as number | undefined;
    const wrong = this.rules.version(gen, x);
    if (wrong) return wrong;
    return visibleAt(gen, x, this.rules.at) ? undefined : null;
  }

  /** What is wrong with a version replaced unstamped by one of generation `by`, still there. */
  replaced(by: number): string | undefined {
    return this.rules.replaced(by);
  }

  /** Bundles and censuses whose parts were not all found. */
  incomplete(): Problem | undefined {
    for (const pending of this.gathering.values()) {
      const found = pending.parts.filter(Boolean).length;
      return { key: pending.first, what: `${pending.what} has ${found} of its ${pending.n} parts` };
    }
    return undefined;
  }

  /**
   * What name postings index, for verify-grams.ts: the visible names entries (`0x04`) of companies,
   * and each person with names in a posted scope, from their bundle (scope-postings.ts).
   */
  *namesEntries(): Generator<NamesEntry> {
    for (const [logical, entry] of this.entries) {
      const { family, order, company } = entryKeyParts(logical);
      if (family === FAMILY.employmentNames && entry.pairs !== undefined) {
        const key = { p: companyPartition(company), s: entrySort(family, order, entry.gen) };
        yield { company, order, gen: entry.gen, pairs: entry.pairs, key };
      }
    }
    yield* scopeNamesEntries(this.scopes, this.scopeMarkers, this.bundles);
  }

  /** Name postings, a census or a marker in the partition of a scope that is not registered. */
  unregisteredPostings(): Problem | undefined {
    for (const [owner, key] of this.grams.owners())
      if (isScopeOwner(owner) && !this.scopes.has(owner))
        return { key, what: "name postings of a scope that is not registered" };
    return undefined;
  }

  private classify(key: ItemKey, item: Item): string | undefined {
    const { p } = key;
    if (equalBytes(p, MANIFEST_KEY.p)) return undefined;
    if (isJournalPartition(p)) return this.rules.journal(genOfJournal(p));
    if (isPersonPartition(p)) return this.bundlePart(key, item);
    if (isLocationPartition(p)) return this.location(key, item);
    if (isIdsPartition(p)) return this.idEntry(key, item);
    if (isScopesPartition(p)) return this.scope(key, item);
    if (isScopePartition(p)) return this.scopePartitionItem(key, item);
    if (isCompanyPartition(p)) return this.companyPartitionItem(key, item);
    return "an item of no known kind";
  }

  /** An item of a scope's home partition: its persons order or its name postings. */
  private scopePartitionItem(key: ItemKey, item: Item): string | undefined {
    const owner = scopeOwner(scopeOfPartition(key.p));
    if (isGramItemSort(key.s)) return this.gramItem(key, item, owner);
    if (
      !isOrderIndexSort(key.s) &&
      !isOrderIndexPartSort(key.s) &&
      !(isOrderBlockSort(key.s) && key.s[0] === ORDER.persons)
    )
      return "a scope item that is no persons order's index or block, nor a name posting's";
    return this.orderItem(key, item, owner);
  }

  /** A scope's registry version: kept when visible, for verify-orders.ts. */
  private scope(key: ItemKey, item: Item): string | undefined {
    if (key.s.length !== 20) return "a scope registry item with a malformed sort key";
    const gen = genOf(key.s);
    const unseen = this.unseen(gen, item);
    if (unseen !== undefined) return unseen ?? undefined;
    const scopeId = scopeOfRegistrySort(key.s);
    const { companies, home } = decodeScopeCompanies(bytesOf(item[A.data]));
    if (scopeIdOf(companies) !== scopeId)
      return "a scope registered under an id its companies do not hash to";
    if (this.registered.has(scopeId)) return "a second visible version of a scope's registry item";
    this.registered.add(scopeId);
    // A scope's order and postings are its home partition's items: owned by the home.
    const owner = scopeOwner(home ?? scopeId);
    if (this.scopes.has(owner)) return "a second scope registered in one home partition";
    this.scopes.set(owner, { key, companies });
    return undefined;
  }

  /** An order index or block of a company or a scope (`owner`): kept when visible, for verify-orders.ts. */
  private orderItem(key: ItemKey, item: Item, owner: string): string | undefined {
    const gen = genOf(key.s);
    const unseen = this.unseen(gen, item);
    if (unseen !== undefined) return unseen ?? undefined;
    if (isOrderIndexSort(key.s) || isOrderIndexPartSort(key.s)) return this.orderIndex(key, item, owner, gen);
    this.orderBlocks.set(orderBlockId(key.s[0] ?? 0, owner, orderOfSort(key.s), gen), {
      key,
      keys: decodeOrderBlock(bytesOf(item[A.data])),
    });
    return undefined;
  }

  /** A visible order index item or part, kept once all its parts are read. */
  private orderIndex(key: ItemKey, item: Item, owner: string, gen: number): string | undefined {
    const order = (key.s[1] ?? 0) as OrderFamily;
    const first = { p: key.p, s: orderIndexSort(order, gen) };
    const data = bytesOf(item[A.data]);
    // An index in one item says nothing of parts; one in parts is gathered like a bundle's parts.
    const parts =
      item[A.parts] === undefined && isOrderIndexSort(key.s)
        ? [data]
        : this.gather(
            first,
            isOrderIndexSort(key.s) ? 0 : orderIndexPartOf(key.s),
            item,
            "counted order's index",
          );
    if (parts === undefined || typeof parts === "string") return parts;
    const id = orderId(order, owner);
    // Written again, an index replaces the one before unstamped until its generation's clean-up.
    const other = this.orderIndexes.get(id);
    if (other) {
      const [older, newer] = other.gen < gen ? [other.key, gen] : [first, other.gen];
      const stale = this.rules.replaced(newer);
      if (stale) {
        this.blamed = older;
        return stale;
      }
      if (newer === other.gen) return undefined;
    }
    this.orderIndexes.set(id, { key: first, gen, index: parts.flatMap(decodeOrderIndex) });
    return undefined;
  }

  /** A visible postings marker: a company's holds nothing; a scope's its build and changes. */
  private marker(key: ItemKey, owner: string, data: Uint8Array, gen: number): string | undefined {
    if (!isScopeOwner(owner))
      return data.length === 1
        ? this.grams.marker(key, owner)
        : "a postings marker with data beyond the format byte";
    try {
      const marker = decodeScopeMarker(data);
      if (marker.base > gen || [...marker.changed.values()].some((at) => at > gen || at <= marker.base))
        return "a scope postings marker whose generations are out of order";
      this.scopeMarkers.set(owner, marker);
    } catch (error) {
      if (error instanceof FormatError) return "a malformed scope postings marker";
      throw error;
    }
    return this.grams.marker(key, owner);
  }

  /** A name posting, gram block, census part or postings marker of a company or a scope: kept when visible. */
  private gramItem(key: ItemKey, item: Item, owner: string): string | undefined {
    const isCensus = isGramCensusSort(key.s);
    const gen = isCensus ? gramCensusGenOf(key.s) : genOf(key.s);
    const unseen = this.unseen(gen, item);
    if (unseen !== undefined) return unseen ?? undefined;
    const data = bytesOf(item[A.data]);
    if (isGramMarkerSort(key.s)) return this.marker(key, owner, data, gen);
    if (isGramBlockSort(key.s)) {
      const { n, companions } = decodeGramBlock(data);
      const what = this.grams.blocks.block(key, owner, n, companions, (by) => this.rules.replaced(by));
      this.blamed = this.grams.takeBlamed();
      return what;
    }
    if (!isCensus) return this.postings(key, owner, data);
    const first = { p: key.p, s: gramCensusSort(gen, 0) };
    const gathered = this.gather(first, gramCensusPartOf(key.s), item, "names census");
    if (gathered === undefined || typeof gathered === "string") return gathered;
    if (!endsWithItsStream(gathered)) return PAST_END;
    const what = this.grams.census(first, owner, GramCensus.decode(gathered), gen, (by) =>
      this.rules.replaced(by),
    );
    this.blamed = this.grams.takeBlamed();
    return what;
  }

  /**
   * A visible posting item: a company's page of postings, or a scope's one posting. A page waits
   * for the next item (`pendingPage`): a newer version of it, written again at its low, replaces it
   * unstamped until its generation's clean-up.
   */
  private postings(key: ItemKey, owner: string, data: Uint8Array): string | undefined {
    const { field, text, order } = postingOfSort(key.s);
    if (!isCompanyPartition(key.p))
      return this.grams.posting(key, owner, { order, gen: genOf(key.s), pairs: data });
    const page: PendingPage = {
      key,
      owner,
      field,
      text,
      low: order,
      postings: decodePostingPage(data, order),
    };
    const pending = this.pendingPage;
    this.pendingPage = page;
    if (!pending) return undefined;
    if (samePageRun(pending, page) && pending.low === page.low) {
      this.blamed = pending.key;
      return this.rules.replaced(genOf(key.s));
    }
    return this.keepPage(pending);
  }

  /** A page no newer version replaced: its postings kept, its place among its gram's pages checked. */
  private keepPage(page: PendingPage): string | undefined {
    const before = this.lastPage;
    this.lastPage = page;
    this.blamed = page.key;
    if (before && samePageRun(before, page)) {
      if (before.low > page.low) return "posting pages read out of key order";
      if ((before.postings.at(-1) as PagedPosting).order >= page.low) {
        this.blamed = before.key;
        return "a posting page holding postings past the next page's low";
      }
    }
    for (const posting of page.postings) {
      const problem = this.grams.posting(page.key, page.owner, posting);
      if (problem) return problem;
    }
    this.blamed = undefined;
    return undefined;
  }

  /** An item of a company partition: an order's, a name postings', or an entry or record. */
  private companyPartitionItem(key: ItemKey, item: Item): string | undefined {
    if (isOrderIndexSort(key.s) || isOrderIndexPartSort(key.s) || isOrderBlockSort(key.s))
      return this.orderItem(key, item, companyOfPartition(key.p));
    if (isGramItemSort(key.s)) return this.gramItem(key, item, companyOfPartition(key.p));
    return this.companyItem(key, item);
  }

  private companyItem(key: ItemKey, item: Item): string | undefined {
    const family = key.s[0] ?? 0;
    if (key.s.length !== 30 || family < FAMILY.employmentKey || family > FAMILY.personLastNames)
      return "a company item with a malformed sort key";
    const gen = genOf(key.s);
    const unseen = this.unseen(gen, item);
    if (unseen !== undefined) return unseen ?? undefined;
    const order = orderOfSort(key.s);
    const company = companyOfPartition(key.p);
    const logical = entryKey(family, order, company);
    const seen = family === FAMILY.record ? this.records.get(logical) : this.entries.get(logical);
    if (seen) return `a second visible version of one key (the other is of generation ${seen.gen})`;
    const data = bytesOf(item[A.data]);
    if (family === FAMILY.record) return this.record(item, data, company, order, gen, logical);
    if (family === FAMILY.employmentKey || family === FAMILY.personKey) {
      if (data.length !== 1) return "a key entry with data beyond the format byte";
      this.entries.set(logical, { gen });
    } else this.entries.set(logical, { gen, pairs: JSON.stringify(decodeNamePairs(data)) });
    return undefined;
  }

  private record(
    item: Item,
    data: Uint8Array,
    company: string,
    order: OrderKey,
    gen: number,
    logical: EntryKey,
  ): string | undefined {
    const record = decompress<SourceEmployee>(data);
    if (!endsWithItsStream([data])) return PAST_END;
    const entries = item[A.entriesGen];
    if (typeof entries !== "number" || entries > gen)
      return `\`e\` is not the generation of its entries, at most its own ${gen}`;
    const expected = locationOf(record, entries);
    if (expected.companyId !== company || expected.order !== order)
      return `holds record ${record.id} of company ${record.companyId}, whose key is another`;
    const phone = phoneOf(record);
    if (!sameBytes(item[A.phone], phone === null ? undefined : phoneBytes(phone)))
      return "phone attribute `t` is not the record's normalized phone";
    const names = namesOf(record);
    if (textOrNull(item[A.firstName]) !== names.firstName || textOrNull(item[A.lastName]) !== names.lastName)
      return "name attributes `f`/`l` are not the record's normalized names";
    const q = item[A.person];
    this.records.set(logical, {
      gen,
      id: record.id,
      expected,
      names: expected.named ? JSON.stringify([names]) : null,
      q: q === undefined ? null : orderKeyOfBytes(bytesOf(q)),
    });
    return undefined;
  }

  private bundlePart(key: ItemKey, item: Item): string | undefined {
    if (key.s.length !== 6) return "a bundle part with a malformed sort key";
    const gen = bundleGenOf(key.s);
    const unseen = this.unseen(gen, item);
    if (unseen !== undefined) return unseen ?? undefined;
    const first = { p: key.p, s: bundleSort(gen, 0) };
    const gathered = this.gather(first, bundlePartOf(key.s), item, "bundle");
    if (gathered === undefined || typeof gathered === "string") return gathered;
    const bundle = decompressParts<Bundle>(gathered);
    if (!endsWithItsStream(gathered)) return PAST_END;
    return this.bundle(idOfPartition(key.p), gen, bundle, item);
  }

  /**
   * A visible part of a value in parts (a bundle, a census) whose first part is `first`: its
   * parts once all are read, undefined until then, or what is wrong.
   */
  private gather(first: ItemKey, part: number, item: Item, what: string): Uint8Array[] | string | undefined {
    const n = item[A.parts];
    if (typeof n !== "number" || part >= n) return `part ${part} of a ${what} of ${String(n)} parts`;
    const text = keyText(first);
    const pending = this.gathering.get(text) ?? {
      first,
      n,
      k: item[A.hasPerson],
      e: item[A.entriesGen],
      what,
      parts: [],
    };
    if (pending.n !== n || pending.k !== item[A.hasPerson] || pending.e !== item[A.entriesGen])
      return `part count \`n\`, \`k\` or \`e\` differs from the ${what}'s other parts`;
    pending.parts[part] = bytesOf(item[A.data]);
    this.gathering.set(text, pending);
    if (pending.parts.filter(Boolean).length < n) return undefined;
    this.gathering.delete(text);
    return pending.parts;
  }

  private bundle(personId: string, gen: number, bundle: Bundle, item: Item): string | undefined {
    const other = this.bundles.get(personId);
    if (other) return `a second visible bundle of the person (the other is of generation ${other.gen})`;
    if ((bundle.person === null ? 0 : 1) !== item[A.hasPerson])
      return "`k` does not say whether the bundle holds the person";
    const entries = item[A.entriesGen];
    if (typeof entries !== "number" || entries > gen)
      return `\`e\` is not the generation of its entries, at most its own ${gen}`;
    const first = bundle.employees[0];
    if (bundle.person === null)
      return first
        ? `dangling reference: record ${first.id} links to person ${personId}, who does not exist`
        : "a bundle with no person and no records";
    if (bundle.person.id !== personId) return `the bundle holds person ${bundle.person.id}`;
    const records = new Map<string, Location>();
    let last = "";
    for (const record of bundle.employees) {
      if (record.personId !== personId) return `holds record ${record.id} of person ${record.personId}`;
      if (record.id <= last) return `records not sorted by id, or twice: ${record.id}`;
      last = record.id;
      records.set(record.id, locationOf(record, 0));
    }
    const pairs = new Map(
      [...personNameLists(bundle.employees)].map(([company, lists]) => [
        company,
        new Map([...lists].map(([family, list]) => [family, JSON.stringify(list)])),
      ]),
    );
    this.bundles.set(personId, { gen, entries, personOrder: personOrder(bundle.person), pairs, records });
    return undefined;
  }

  /** An entry of the id index: kept when visible, for verify-links.ts. */
  private idEntry(key: ItemKey, item: Item): string | undefined {
    if (key.s.length !== 20) return "an id index entry with a malformed sort key";
    const gen = genOf(key.s);
    const unseen = this.unseen(gen, item);
    if (unseen !== undefined) return unseen ?? undefined;
    if (bytesOf(item[A.data]).length !== 1) return "an id index entry with data beyond the format byte";
    const id = idOfIdEntrySort(key.s);
    if (idBucketOf(id) !== key.p[2]) return "an id index entry in another id's partition";
    const ids = this.ids[idKindOfPartition(key.p)];
    const seen = ids.get(id);
    if (seen !== undefined) return `a second visible version of one key (the other is of generation ${seen})`;
    ids.set(id, gen);
    return undefined;
  }

  private location(key: ItemKey, item: Item): string | undefined {
    if (key.s.length !== 1 || key.s[0] !== 0) return "a location item with a malformed sort key";
    const g = item[A.gen];
    const pg = item[A.previousGen];
    const data = item[A.data];
    if (typeof g !== "number") return "a location without its generation `g`";
    if ((pg === undefined) !== (item[A.previousData] === undefined)) return "`pg` and `pd` not both present";
    const wrong = data === undefined ? this.rules.deletedLocation(g) : this.rules.version(g, undefined);
    if (wrong) return wrong;
    if (typeof pg === "number" && pg >= g)
      return `previous value of generation ${pg}, not before its own ${g}`;
    const visible = locationAt(item, this.rules.at);
    if (visible) this.locations.set(idOfPartition(key.p), visible);
    return undefined;
  }
}
