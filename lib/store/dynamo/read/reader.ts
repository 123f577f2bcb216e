/**
 * The port's questions answered on the versioned layout: candidates are counted, sorted and
 * windowed on narrow entries, and only the page is read whole. Every read of one answer is made at
 * one generation, read from the manifest (cached for a second), so its total and page agree. An
 * answer is G's for ever once read at generation G, so answers are kept by generation
 * (`answer-cache.ts`): a question asked again before the next load is answered without reading.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { instantKey } from "../../../directory/instant-key.js";
import type { SourceEmployee } from "../../../directory/source.js";
import {
  type CreatedRange,
  employmentMatches,
  employmentView,
  hasNameFilter,
  inCreatedRange,
  namesMatch,
  sortByCreated,
} from "../../../search/matching.js";
import { pageOf } from "../../../search/paging.js";
import { type OrderKey, orderKeyOfBytes, orderKeyParts } from "../../binary-keys.js";
import { inOrderRange, orderRange } from "../../order-range.js";
import type {
  DirectoryReader,
  EmployeesQuery,
  Page,
  PersonsQuery,
  PersonWithEmployments,
} from "../../port.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import { abandonedOf, readManifest } from "../manifest/index.js";
import type { ReadAt, VersionedItem } from "../model/index.js";
import {
  bytesOf,
  companyOfPartition,
  companyPartition,
  decodeNamePairs,
  FAMILY,
  type Family,
  type Generation,
  inParallel,
  MANIFEST_TTL_MS,
  MAX_READ_AGE_MS,
  ORDER,
} from "../model/index.js";
import { ANSWER_CACHE_BYTES, answerCache, queryKey } from "./answer-cache.js";
import { type NameWindow, nameWindow } from "./name-window.js";
import { type OrderWindow, orderWindow } from "./order-window.js";
import { type DirectoryReads, directoryReads } from "./reads.js";

export interface ReaderOptions {
  /** How long a read manifest is used before it is read again. */
  readonly manifestTtlMs?: number;
  /**
   * An answer that took longer than this after its manifest was read is checked against the
   * manifest again: superseded versions are removed only `graceMs` after a flip (the loader's
   * option), so this must stay below graceMs - manifestTtlMs.
   */
  readonly maxReadAgeMs?: number;
  /**
   * Approximate bytes of answers kept in this process, by generation (`answer-cache.ts`): an answer
   * read at the committed generation is given again, without reading, until a load commits another.
   * 0 keeps none (every search reads). Default `ANSWER_CACHE_BYTES` (32 MB).
   */
  readonly answerCacheBytes?: number;
  readonly now?: () => number;
}

/**
 * Bundles read at once for a page of persons: the contract's default page (50), and the SDK's
 * default socket pool, so a default page is one wave of reads (with 25, a slow engine chained up
 * to four waves and broke the round-trip target).
 */
const BUNDLES_IN_FLIGHT = 50;

const window = <T>(sorted: readonly T[], query: { offset: number; limit: number }): T[] =>
  pageOf(sorted, query.offset, query.limit).page;

const text = (value: unknown) => (typeof value === "string" ? value : null);

/** What a byPhone entry says about its employment. */
function phoneView(hit: VersionedItem, phone: string) {
  const person = hit.item[A.person];
  return {
    companyId: companyOfPartition(bytesOf(hit.item[A.partition])),
    firstName: text(hit.item[A.firstName]),
    lastName: text(hit.item[A.lastName]),
    phone,
    personOrder: person === undefined ? null : orderKeyOfBytes(bytesOf(person)),
  };
}

/** An employees query by person: the person's bundle holds their records whole. */
async function employeesOfPerson(
  reads: DirectoryReads,
  query: EmployeesQuery,
  personId: string,
  at: ReadAt,
): Promise<Page<SourceEmployee>> {
  const found = await reads.bundle(personId, at);
  const records = (found?.bundle.employees ?? []).filter(
    (record) =>
      inCreatedRange(instantKey(record.createdAt), query.created) &&
      employmentMatches(employmentView(record), query.filter),
  );
  const sorted = sortByCreated(records);
  return { items: window(sorted, query), total: sorted.length };
}

/**
 * The window and total of a company's counted order; from its entries when the order has no index
 * (an empty order has none).
 */
async function companyWindow(
  reads: DirectoryReads,
  query: { readonly created: CreatedRange; readonly offset: number; readonly limit: number },
  companyId: string,
  which: "employees" | "persons",
  at: ReadAt,
): Promise<OrderWindow> {
  const ordered = await orderWindow(reads.orders, companyPartition(companyId), ORDER[which], query, at);
  if (ordered) return ordered;
  const family = which === "employees" ? FAMILY.employmentKey : FAMILY.personKey;
  const entries = await reads.family(companyId, family, query.created, at);
  return { keys: window(entries, query).map((entry) => entry.order), total: entries.length };
}

/** Unfiltered: the page is a run of consecutive records, read by one Query. */
async function unfilteredEmployees(
  reads: DirectoryReads,
  query: EmployeesQuery,
  companyId: string,
  at: ReadAt,
): Promise<Page<SourceEmployee>> {
  const { keys, total } = await companyWindow(reads, query, companyId, "employees", at);
  const [first, last] = [keys[0], keys.at(-1)];
  const items = first && last ? await reads.recordRun(companyId, first, last, at) : [];
  if (items.length !== keys.length) throw new Error(`run of ${keys.length} records read ${items.length}`);
  return { items, total };
}

/** The window and total of a company's records that match a phone or name filter. */
async function filteredEmployees(
  reads: DirectoryReads,
  query: EmployeesQuery,
  companyId: string,
  at: ReadAt,
): Promise<NameWindow> {
  const { filter } = query;
  const windowOf = (matches: VersionedItem[]) => ({ page: window(matches, query), total: matches.length });
  if (filter.phone !== undefined) {
    const phone = filter.phone;
    const orders = orderRange(query.created);
    return windowOf(
      (await reads.phoneRecords(phone, companyId, at))
        .filter((hit) => inOrderRange(hit.order, orders) && employmentMatches(phoneView(hit, phone), filter))
        .sort((a, b) => (a.order < b.order ? -1 : 1)),
    );
  }
  const posted = await nameWindow(reads, companyPartition(companyId), query, at);
  if (posted) return posted;
  return windowOf(
    (await reads.family(companyId, FAMILY.employmentNames, query.created, at)).filter((entry) =>
      decodeNamePairs(bytesOf(entry.item[A.data])).some((pair) => namesMatch(pair, filter)),
    ),
  );
}

async function employeesAt(
  reads: DirectoryReads,
  query: EmployeesQuery,
  at: ReadAt,
): Promise<Page<SourceEmployee>> {
  const { filter, personId } = query;
  const [companyId] = filter.companies;
  if (companyId === undefined || filter.companies.size !== 1)
    throw new Error("an employees query names one company");
  if (personId !== undefined) return employeesOfPerson(reads, query, personId, at);
  if (filter.phone === undefined && !hasNameFilter(filter))
    return unfilteredEmployees(reads, query, companyId, at);
  const { page, total } = await filteredEmployees(reads, query, companyId, at);
  return { items: await reads.recordsByKey(companyId, page, at), total };
}

/** Persons with an employment that has this phone and matches the rest of the filter. */
async function phoneCandidates(reads: DirectoryReads, query: PersonsQuery, phone: string, at: ReadAt) {
  const orders = orderRange(query.created);
  const candidates = new Set<OrderKey>();
  for (const hit of await reads.phoneRecords(phone, undefined, at)) {
    const view = phoneView(hit, phone);
    if (
      view.personOrder !== null &&
      inOrderRange(view.personOrder, orders) &&
      employmentMatches(view, query.filter)
    )
      candidates.add(view.personOrder);
  }
  return candidates;
}

/** The person entries family that holds just what the filter needs: the pairs only when both names are set. */
function personFamily(filter: PersonsQuery["filter"]): Family {
  if (!hasNameFilter(filter)) return FAMILY.personKey;
  if (filter.firstName === undefined) return FAMILY.personLastNames;
  return filter.lastName === undefined ? FAMILY.personFirstNames : FAMILY.personNames;
}

/** Persons from their entries in each company in scope: one query per company, all at once. */
async function entryCandidates(reads: DirectoryReads, query: PersonsQuery, at: ReadAt) {
  const { filter } = query;
  const names = hasNameFilter(filter);
  const family = personFamily(filter);
  // All at once: latency follows the largest company, not their sum.
  const perCompany = await Promise.all(
    [...filter.companies].map((companyId) => reads.family(companyId, family, query.created, at)),
  );
  const matches = (entry: VersionedItem) =>
    !names || decodeNamePairs(bytesOf(entry.item[A.data])).some((pair) => namesMatch(pair, filter));
  return new Set(perCompany.flatMap((entries) => entries.filter(matches).map((entry) => entry.order)));
}

async function candidatesAt(reads: DirectoryReads, query: PersonsQuery, at: ReadAt): Promise<OrderKey[]> {
  const { phone } = query.filter;
  const candidates =
    phone === undefined
      ? await entryCandidates(reads, query, at)
      : await phoneCandidates(reads, query, phone, at);
  return [...candidates].sort();
}

/**
 * The page's persons and the total. When nothing but the companies filters: a company's counted
 * order, or the order of the scope these companies are (derive-scopes.ts) when one is kept. By
 * name, over a kept scope: the scope's name postings (scope-postings.ts).
 */
async function personsWindow(reads: DirectoryReads, query: PersonsQuery, at: ReadAt): Promise<OrderWindow> {
  const { filter } = query;
  const [companyId] = filter.companies;
  const single = companyId !== undefined && filter.companies.size === 1;
  if (filter.phone === undefined && single && !hasNameFilter(filter))
    return companyWindow(reads, query, companyId, "persons", at);
  const home = filter.phone === undefined && !single && (await reads.scopeHomes.home(filter.companies, at));
  if (home && !hasNameFilter(filter)) {
    const scoped = await orderWindow(reads.orders, home, ORDER.persons, query, at);
    if (scoped) return scoped;
  }
  if (home && hasNameFilter(filter)) {
    const posted = await nameWindow(reads, home, query, at);
    if (posted) return { keys: posted.page.map((posting) => posting.order), total: posted.total };
  }
  const sorted = await candidatesAt(reads, query, at);
  return { keys: window(sorted, query), total: sorted.length };
}

async function personsAt(
  reads: DirectoryReads,
  query: PersonsQuery,
  at: ReadAt,
): Promise<Page<PersonWithEmployments>> {
  const withEmployments = (bundle: {
    person: PersonWithEmployments["person"];
    employees: readonly SourceEmployee[];
  }) => ({
    person: bundle.person,
    employments: sortByCreated(bundle.employees.filter((record) => query.readable.has(record.companyId))),
  });
  if (query.personId !== undefined) {
    const found = (await reads.bundle(query.personId, at))?.bundle;
    const person = found?.person;
    const matches =
      found &&
      person &&
      inCreatedRange(instantKey(person.createdAt), query.created) &&
      found.employees.some((record) => employmentMatches(employmentView(record), query.filter));
    const all = matches ? [withEmployments({ person, employees: found.employees })] : [];
    return { items: window(all, query), total: all.length };
  }
  const { keys, total } = await personsWindow(reads, query, at);
  const ids = keys.map((order) => orderKeyParts(order).id);
  const bundles = await inParallel(ids, BUNDLES_IN_FLIGHT, (id) => reads.bundle(id, at));
  const items = bundles.map((found, i) => {
    const person = found?.bundle.person;
    // An entry and its person's bundle are written in one generation: one without the other is a defect.
    if (!found || !person) throw new Error(`person ${ids[i]} has entries but no bundle`);
    // Checked, not trusted: an order out of step must fail the search, never show a person the key
    // may not read.
    if (!found.bundle.employees.some((record) => query.filter.companies.has(record.companyId)))
      throw new Error(`person ${ids[i]} is in an order of companies they have no record in`);
    return withEmployments({ person, employees: found.bundle.employees });
  });
  return { items, total };
}

export function dynamoDirectoryReader(
  client: DynamoDBDocumentClient,
  table: string,
  options: ReaderOptions = {},
): DirectoryReader {
  const reads = directoryReads(client, table);
  const now = options.now ?? Date.now;
  const ttl = options.manifestTtlMs ?? MANIFEST_TTL_MS;
  const maxAge = options.maxReadAgeMs ?? MAX_READ_AGE_MS;
  const cacheBytes = options.answerCacheBytes ?? ANSWER_CACHE_BYTES;
  const answers = cacheBytes > 0 ? answerCache(cacheBytes) : undefined;
  let cached: Promise<{ at: Generation; fetchedAt: number }> | undefined;
  let cachedAt = Number.NEGATIVE_INFINITY;

  const manifest = (fresh: boolean) => {
    if (fresh || !cached || now() - cachedAt >= ttl) {
      cachedAt = now();
      const fetchedAt = cachedAt;
      cached = readManifest(client, table).then((m) => ({
        at: { gen: m.committed, abandoned: abandonedOf(m) },
        fetchedAt,
      }));
      cached.catch(() => {
        cached = undefined;
      });
    }
    return cached;
  };

  /** Whether the committed generation is still `gen`, read afresh. */
  const stillAt = async (gen: number) => (await manifest(true)).at.gen === gen;

  /**
   * The answer at `gen`, if it holds there: read within maxAge of its manifest, or no flip since
   * (else the versions it read may have been removed meanwhile); undefined when the generation moved.
   * A read that fails is asked again the same way: one that outlived its generation finds the
   * versions it wanted removed by the clean-up after the next flip, which is no damage. A failure
   * at a generation still committed is thrown as it is (a 500, logged with the item it names).
   */
  const tryAt = async <T>(question: (at: ReadAt) => Promise<T>, at: Generation, fetchedAt: number) => {
    const { gen } = at;
    let answer: T;
    try {
      answer = await question({ ...at, consistent: false });
    } catch (error) {
      const moved = await stillAt(gen).then(
        (still) => !still,
        () => false,
      );
      if (moved) return undefined;
      throw error;
    }
    if (now() - fetchedAt <= maxAge) return answer;
    return (await stillAt(gen)) ? answer : undefined;
  };

  /**
   * Answers at one generation, tried again at a fresh one when it moved during the read. With the
   * answer cache, only answers that held at their generation are kept, under it, and identical
   * questions at one generation share one read.
   */
  const consistently = async <T extends object>(
    route: string,
    query: object,
    question: (at: ReadAt) => Promise<T>,
  ): Promise<T> => {
    const key = answers && queryKey(route, query);
    for (let attempt = 0; ; attempt += 1) {
      const { at, fetchedAt } = await manifest(attempt > 0);
      const ask = () => tryAt(question, at, fetchedAt);
      const answer = await (answers && key !== undefined ? answers.answer(at.gen, key, ask) : ask());
      if (answer !== undefined) return answer;
      if (attempt >= 2) throw new Error("the directory changed during three tries of one search");
    }
  };

  return {
    employees: (query) => consistently("employees", query, (at) => employeesAt(reads, query, at)),
    persons: (query) => consistently("persons", query, (at) => personsAt(reads, query, at)),
  };
}
