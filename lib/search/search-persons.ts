/**
 * Search persons: each person once, selected by filters that must all hold on one employment in
 * a company the key may read, returned with every employment in every company the key may read.
 * Candidates come from narrow entries (person entries or the phone index); only the page is read whole.
 */
import { type Principal, requireCompany } from "../auth/principal.js";
import type { ApiPersonsSearchResponse } from "../directory/api-schema.js";
import { toApiEmployee, toApiPerson } from "../directory/derive.js";
import { instantKey } from "../directory/instant-key.js";
import type { SourceEmployee } from "../directory/source.js";
import { type OrderKey, orderKey } from "../store/binary-keys.js";
import { idOfOrder, type PersonRecords } from "../store/directory-items.js";
import type { DirectoryRepository } from "../store/directory-repository.js";
import {
  compareByCreated,
  employmentFilter,
  employmentMatches,
  inOrderRange,
  namesMatch,
  narrowView,
  orderRange,
} from "./matching.js";
import { pageOf } from "./paging.js";
import { createdRange, type PersonsSearchRequest } from "./request-schemas.js";

export async function searchPersons(
  request: PersonsSearchRequest,
  principal: Principal,
  directory: DirectoryRepository,
  asOf: Date = new Date(),
): Promise<ApiPersonsSearchResponse> {
  const { companyId, personId, phone } = request;
  if (companyId !== undefined) requireCompany(principal, companyId);
  const scope = companyId === undefined ? [...principal.companies] : [companyId];
  const filter = employmentFilter(scope, request);
  const hasNames = filter.firstName !== undefined || filter.lastName !== undefined;
  const personRange = createdRange(request);
  const orders = orderRange(personRange);

  // Candidate persons by order key (createdAt, id), which sorts them as the response does. A person
  // is a candidate when one employment in scope passes every filter (the same-employment rule)
  // and their createdAt lies in the range.
  const candidates = new Set<OrderKey>();
  let prefetched: Map<string, PersonRecords> | undefined;
  if (personId !== undefined) {
    prefetched = await directory.persons([personId]);
    const found = prefetched.get(personId);
    const order = found && orderKey(instantKey(found.person.createdAt), found.person.id);
    if (order && inOrderRange(order, orders)) {
      if (found.employees.some((record) => employmentMatches(narrowView(record), filter)))
        candidates.add(order);
    }
  } else if (phone !== undefined) {
    for (const entry of await directory.phoneEntries(phone)) {
      const order = entry.personOrder;
      if (order !== null && inOrderRange(order, orders) && employmentMatches(entry, filter))
        candidates.add(order);
    }
  } else {
    // One query per company, all at once: latency follows the largest company, not their sum.
    const names = hasNames ? filter : undefined;
    const perCompany = await Promise.all(scope.map((id) => directory.personEntries(id, personRange, names)));
    for (const entries of perCompany) {
      for (const entry of entries) {
        if (!hasNames || entry.pairs.some((pair) => namesMatch(pair, filter))) candidates.add(entry.order);
      }
    }
  }

  const sorted = [...candidates].sort();
  const { page, pagination } = pageOf(sorted, request.offset, request.limit);
  const ids = page.map(idOfOrder);

  const options = {
    asOf,
    ...(request.externalIdSystems ? { externalIdSystems: request.externalIdSystems } : {}),
  };
  const authorizedEmployment = (record: SourceEmployee) => principal.companies.has(record.companyId);
  const bundles =
    ids.length === 0 ? new Map<string, PersonRecords>() : (prefetched ?? (await directory.persons(ids)));
  const persons = ids.map((id) => {
    const found = bundles.get(id);
    // The candidate was read moments ago; a person gone since is a live-data race, not a client error.
    if (!found) throw new Error("person disappeared between entry read and fetch");
    const employments = found.employees
      .filter(authorizedEmployment)
      .map((record) => ({ record, createdKey: instantKey(record.createdAt), id: record.id }))
      .sort(compareByCreated)
      .map(({ record }) => toApiEmployee(record, options));
    return toApiPerson(found.person, employments);
  });
  return { asOf: asOf.toISOString(), persons, pagination };
}
