/**
 * The port's questions answered on the DynamoDB layout of docs/data-model.md: candidates are
 * counted, sorted and windowed on narrow entries, and only the page is read whole.
 */

import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { instantKey } from "../directory/instant-key.js";
import type { SourceEmployee } from "../directory/source.js";
import { employmentMatches, hasNameFilter, namesMatch, sortByCreated } from "../search/matching.js";
import { pageOf } from "../search/paging.js";
import { type OrderKey, orderKey } from "./binary-keys.js";
import { idOfOrder, narrowView, type PersonRecords } from "./directory-items.js";
import { type DirectoryRepository, directoryRepository } from "./directory-repository.js";
import { inOrderRange, orderRange } from "./order-range.js";
import { pageReadPlan } from "./page-reads.js";
import type { DirectoryReader, EmployeesQuery, Page, PersonsQuery, PersonWithEmployments } from "./port.js";

/** A matching employment; `at`: its position among the company entries read (for pricing runs). */
type Match = { order: OrderKey; record?: SourceEmployee; at?: number };
const byOrder = (a: Match, b: Match) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0);

const window = <T>(sorted: readonly T[], query: { offset: number; limit: number }): T[] =>
  pageOf(sorted, query.offset, query.limit).page;

async function employees(
  directory: DirectoryRepository,
  query: EmployeesQuery,
): Promise<Page<SourceEmployee>> {
  const { filter, personId } = query;
  const [companyId] = filter.companies;
  if (companyId === undefined || filter.companies.size !== 1) throw new Error("employees: one company");
  const orders = orderRange(query.created);

  // The most selective read: the person's bundle (records whole), the byPhone index, or the
  // company's employment entries (names included), in createdAt, id order.
  let matches: Match[];
  let sizes: number[] = [];
  if (personId !== undefined) {
    const found = (await directory.persons([personId])).get(personId);
    matches = (found?.employees ?? []).flatMap((record) => {
      const entry = narrowView(record);
      return inOrderRange(entry.order, orders) && employmentMatches(entry, filter)
        ? [{ order: entry.order, record }]
        : [];
    });
  } else if (filter.phone !== undefined) {
    matches = (await directory.phoneEntries(filter.phone, companyId))
      .filter((entry) => inOrderRange(entry.order, orders) && employmentMatches(entry, filter))
      .map(({ order }) => ({ order }));
  } else {
    const names = hasNameFilter(filter);
    const entries = await directory.employmentEntries(companyId, query.created, names ? filter : undefined);
    sizes = entries.map((entry) => entry.recordBytes);
    matches = entries.flatMap((entry, at) =>
      !names || namesMatch(entry, filter) ? [{ order: entry.order, at }] : [],
    );
  }
  matches.sort(byOrder);
  const page = window(matches, query);
  const known = page.flatMap(({ record }) => (record ? [record] : []));
  if (known.length === page.length) return { items: known, total: matches.length };
  // Entries read in full tell what a run from the first page record to the last would cost.
  const positions = page.flatMap(({ at }) => (at === undefined ? [] : [at]));
  const plan = positions.length === page.length ? pageReadPlan(sizes, positions) : { kind: "each" as const };
  const records = await directory.employeeRecords(
    companyId,
    page.map(({ order }) => order),
    plan.kind === "run" ? { runLength: plan.length } : {},
  );
  return { items: records, total: matches.length };
}

async function persons(
  directory: DirectoryRepository,
  query: PersonsQuery,
): Promise<Page<PersonWithEmployments>> {
  const { filter, personId } = query;
  const orders = orderRange(query.created);
  // Candidate persons by order key (createdAt, id), which sorts them as the answer does.
  const candidates = new Set<OrderKey>();
  let prefetched: Map<string, PersonRecords> | undefined;
  if (personId !== undefined) {
    prefetched = await directory.persons([personId]);
    const found = prefetched.get(personId);
    const order = found && orderKey(instantKey(found.person.createdAt), found.person.id);
    if (
      order &&
      inOrderRange(order, orders) &&
      found.employees.some((r) => employmentMatches(narrowView(r), filter))
    )
      candidates.add(order);
  } else if (filter.phone !== undefined) {
    for (const entry of await directory.phoneEntries(filter.phone)) {
      const order = entry.personOrder;
      if (order !== null && inOrderRange(order, orders) && employmentMatches(entry, filter))
        candidates.add(order);
    }
  } else {
    // One query per company, all at once: latency follows the largest company, not their sum.
    const names = hasNameFilter(filter) ? filter : undefined;
    const perCompany = await Promise.all(
      [...filter.companies].map((id) => directory.personEntries(id, query.created, names)),
    );
    for (const entries of perCompany) {
      for (const entry of entries) {
        if (!names || entry.pairs.some((pair) => namesMatch(pair, filter))) candidates.add(entry.order);
      }
    }
  }
  const sorted = [...candidates].sort();
  const ids = window(sorted, query).map(idOfOrder);
  const bundles =
    ids.length === 0 ? new Map<string, PersonRecords>() : (prefetched ?? (await directory.persons(ids)));
  const items = ids.map((id) => {
    const found = bundles.get(id);
    // The candidate was read moments ago; a person gone since is a live-data race, not a client error.
    if (!found) throw new Error("person disappeared between entry read and fetch");
    const readable = found.employees.filter((record) => query.readable.has(record.companyId));
    return { person: found.person, employments: sortByCreated(readable) };
  });
  return { items, total: sorted.length };
}

export function dynamoDirectoryReader(client: DynamoDBDocumentClient, tableName: string): DirectoryReader {
  const directory = directoryRepository(client, tableName);
  return { employees: (query) => employees(directory, query), persons: (query) => persons(directory, query) };
}
