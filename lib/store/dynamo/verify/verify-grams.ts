/**
 * Name postings against what they index (pure). An owner is a company (its records' names entries)
 * or a kept scope (its persons' names there, from their bundles). Where an owner's postings marker
 * is visible, each of its holders has exactly the postings its names call for, of the generation
 * the holder says and with its names, and no other posting is visible; the census counts, per field
 * and gram, the holders whose names hold it; marker and census come together. Postings are not
 * kept one by one (a million records hold about ten million): per holder version, their number, a
 * digest of them and the first one's gram, about 200 bytes.
 */
import type { NamePair } from "../../../search/matching.js";
import { ORDER_KEY_BYTES, type OrderKey } from "../../binary-keys.js";
import type { ItemKey } from "../model/index.js";
import {
  decodeNamePairs,
  type GramField,
  type PagedPosting,
  type PartitionKey,
  postingOfSort,
} from "../model/index.js";
import { GramCensus, gramsOfPairs } from "../structures/index.js";
import { GramBlockTally } from "./verify-gram-blocks.js";
import type { Problem } from "./verify-rules.js";

/**
 * A holder of postings, as verify expects it: its owner (a company, or a scope as `scopeOwner`
 * names it), order key, the generation its postings must have, and its pairs (JSON). `key` is the
 * item named when its postings are missing (a names entry, or a bundle).
 */
export interface NamesEntry {
  readonly company: string;
  readonly order: OrderKey;
  readonly gen: number;
  readonly pairs: string;
  readonly key: ItemKey;
}

/**
 * The postings seen of one names entry version: how many, a digest of them, and the key of the item
 * holding the first (a company's page, a scope's posting).
 */
interface Seen {
  count: number;
  digest: number;
  readonly first: ItemKey;
}

const NAME: Record<GramField, string> = { firstName: "first name", lastName: "last name" };

/** A names entry version as a string: company ids hold no NUL, order keys are 25 characters. */
const entryVersion = (company: string, order: OrderKey, gen: number) => `${company}\u0000${order}${gen}`;
function entryVersionParts(id: string) {
  const end = id.indexOf("\u0000");
  return {
    company: id.slice(0, end),
    order: id.slice(end + 1, end + 1 + ORDER_KEY_BYTES) as OrderKey,
    gen: Number(id.slice(end + 1 + ORDER_KEY_BYTES)),
  };
}

/** FNV-1a (32 bits) of what a posting says: field, gram, generation and names. */
function postingDigest(field: GramField, text: string, pairs: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${field}\u0000${text}\u0000${pairs}`) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const sum = (a: number, b: number) => (a + b) >>> 0;

interface OwnerKinds {
  partitionOf(owner: string): PartitionKey;
  isScope(owner: string): boolean;
}

/** The visible postings, markers and censuses of the table (or of one company), as read. */
export class GramTally {
  /** The partition of an owner, and whether it is a scope (else a company). */
  private readonly kinds: OwnerKinds;

  constructor(kinds: OwnerKinds) {
    this.kinds = kinds;
  }

  private readonly postings = new Map<string, Seen>();
  /** Companies with a visible posting: the first one's key. */
  private readonly posted = new Map<string, ItemKey>();
  private readonly markers = new Map<string, ItemKey>();
  private readonly censuses = new Map<string, { key: ItemKey; census: GramCensus; gen: number }>();
  /** Visible gram blocks, each counting the postings read in its range (verify-gram-blocks.ts). */
  readonly blocks = new GramBlockTally();
  /** The census a problem found on reading another one is about. */
  private blamed?: ItemKey;

  /**
   * A visible posting, held by the item at `key` (a company's page, or a scope's posting): what is
   * wrong with it on its own, if anything. A record holds one pair; a person in a scope one or more.
   */
  posting(key: ItemKey, company: string, { order, gen, pairs: data }: PagedPosting): string | undefined {
    const { field, text } = postingOfSort(key.s);
    const pairs = decodeNamePairs(data);
    const several = this.kinds.isScope(company);
    if (several ? pairs.length === 0 : pairs.length !== 1)
      return several ? "a posting that holds no name pair" : "a posting that holds no one name pair";
    const grams = gramsOfPairs(pairs);
    if (!grams.some((gram) => gram.field === field && gram.text === text))
      return `a posting under "${text}", which its ${NAME[field]}${several ? "s do" : " does"} not hold`;
    const id = entryVersion(company, order, gen);
    const seen = this.postings.get(id) ?? { count: 0, digest: 0, first: key };
    seen.count += 1;
    seen.digest = sum(seen.digest, postingDigest(field, text, JSON.stringify(pairs)));
    this.postings.set(id, seen);
    if (!this.posted.has(company)) this.posted.set(company, key);
    this.blocks.posting(key, company, { field, text }, order, pairs);
    return undefined;
  }

  /** The item a problem found by `census` or a block is about, when another than the one read: taken once. */
  takeBlamed(): ItemKey | undefined {
    const blamed = this.blamed ?? this.blocks.blamed;
    this.blamed = undefined;
    this.blocks.blamed = undefined;
    return blamed;
  }

  /** Each owner with a visible posting, marker or census, and one such item's key. */
  *owners(): Generator<[string, ItemKey]> {
    for (const map of [this.posted, this.markers]) yield* map;
    for (const [owner, { key }] of this.censuses) yield [owner, key];
  }

  marker(key: ItemKey, company: string): string | undefined {
    if (this.markers.has(company)) return "a second visible postings marker";
    this.markers.set(company, key);
    return undefined;
  }

  /**
   * A visible census (named by its first part, of generation `gen`). One written again replaces the
   * one before, unstamped, until its generation's clean-up: `replaced` says what is wrong with a
   * replaced one still there, and `takeBlamed` then names it.
   */
  census(
    key: ItemKey,
    company: string,
    census: GramCensus,
    gen: number,
    replaced: (by: number) => string | undefined,
  ): string | undefined {
    const other = this.censuses.get(company);
    if (other) {
      const [older, newer] = other.gen < gen ? [other, { key, gen }] : [{ key, gen }, other];
      const stale = replaced(newer.gen);
      if (stale) {
        this.blamed = older.key;
        return stale;
      }
      if (newer === other) return undefined;
    }
    this.censuses.set(company, { key, census, gen });
    return undefined;
  }

  /** A marker without a census or the reverse. */
  private pairing(): Problem | undefined {
    for (const [company, key] of this.markers)
      if (!this.censuses.has(company)) return { key, what: "a postings marker with no names census" };
    for (const [company, { key }] of this.censuses)
      if (!this.markers.has(company)) return { key, what: "a names census with no postings marker" };
    return undefined;
  }

  /** The holders of covered owners whose postings are not exactly their names' grams. */
  private entries(entries: readonly NamesEntry[], matched: Set<string>): Problem | undefined {
    for (const entry of entries) {
      const grams = gramsOfPairs(JSON.parse(entry.pairs) as NamePair[]);
      const id = entryVersion(entry.company, entry.order, entry.gen);
      const seen = this.postings.get(id);
      matched.add(id);
      const { key } = entry;
      if ((seen?.count ?? 0) < grams.length)
        return { key, what: `has ${seen?.count ?? 0} of the ${grams.length} postings its names call for` };
      const digest = grams.reduce((total, g) => sum(total, postingDigest(g.field, g.text, entry.pairs)), 0);
      if (seen && (seen.count !== grams.length || seen.digest !== digest))
        return { key: seen.first, what: "the postings of a names entry are not those its names call for" };
    }
    return undefined;
  }

  /** The census of each covered company against the counts of its entries. */
  private counts(byCompany: ReadonlyMap<string, readonly NamesEntry[]>): Problem | undefined {
    for (const [company, { key, census }] of this.censuses) {
      const holders = (byCompany.get(company) ?? []).map((entry) => JSON.parse(entry.pairs) as NamePair[]);
      const difference = census.difference(GramCensus.of(holders.map((pairs) => gramsOfPairs(pairs))));
      if (difference)
        return {
          key,
          what: `counts ${difference.counted} records whose ${NAME[difference.field]} holds "${difference.text}", where ${difference.held} do`,
        };
    }
    return undefined;
  }

  /**
   * The first posting, marker or census that does not agree with the visible names entries.
   * `loading`: a load is in progress, which may have posted a company it has not yet marked.
   */
  check(entries: Iterable<NamesEntry>, loading: boolean): Problem | undefined {
    const pairing = this.pairing();
    if (pairing) return pairing;
    const byCompany = new Map<string, NamesEntry[]>();
    for (const entry of entries) {
      if (!this.markers.has(entry.company)) continue;
      const list = byCompany.get(entry.company) ?? [];
      list.push(entry);
      byCompany.set(entry.company, list);
    }
    const matched = new Set<string>();
    for (const list of byCompany.values()) {
      const problem = this.entries(list, matched);
      if (problem) return problem;
    }
    return (
      this.strays(matched, loading) ??
      this.counts(byCompany) ??
      this.blocks.check(this.markers, this.censuses, loading)
    );
  }

  /** Postings of no names entry: in a covered company, or in one no load is posting. */
  private strays(matched: ReadonlySet<string>, loading: boolean): Problem | undefined {
    for (const [company, key] of this.posted)
      if (!this.markers.has(company) && !loading)
        return { key, what: "a posting in a company with no postings marker (left by a dead load)" };
    for (const [id, seen] of this.postings)
      if (!matched.has(id) && this.markers.has(entryVersionParts(id).company))
        return { key: seen.first, what: "a posting of no visible names entry of its generation" };
    return undefined;
  }
}
