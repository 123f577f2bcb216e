/**
 * Search persons: each person once, selected by filters that must all hold on one employment in
 * a company the key may read, returned with every employment in every company the key may read.
 * Candidates come from narrow index entries; only the page's persons are read whole.
 */
import type { Principal } from "../auth/principal.js";
import type { ApiPersonsSearchResponse } from "../directory/api-schema.js";
import { toApiEmployee, toApiPerson } from "../directory/derive.js";
import { instantKey } from "../directory/instant-key.js";
import type { SourceEmployee } from "../directory/source.js";
import { ForbiddenError } from "../http/errors.js";
import type { NarrowEntry } from "../store/directory-items.js";
import type { DirectoryRepository, PersonRecords } from "../store/directory-repository.js";
import {
  compareByCreated,
  employmentFilter,
  employmentMatches,
  inCreatedRange,
  narrowView,
} from "./matching.js";
import { pageOf } from "./paging.js";
import { createdRange, type PersonsSearchRequest } from "./request-schemas.js";

interface Candidate {
  id: string;
  createdKey: string;
}

export async function searchPersons(
  request: PersonsSearchRequest,
  principal: Principal,
  directory: DirectoryRepository,
  asOf: Date = new Date(),
): Promise<ApiPersonsSearchResponse> {
  const { companyId, personId, phone } = request;
  if (companyId !== undefined && !principal.companies.has(companyId)) {
    throw new ForbiddenError(`key ${principal.keyId} may not read company ${companyId}`);
  }
  const scope = companyId === undefined ? [...principal.companies] : [companyId];
  const filter = employmentFilter(scope, request);
  const personRange = createdRange(request);

  // Candidate persons: person id → its createdAt key, from the cheapest entries that can hold a match.
  const candidates = new Map<string, string>();
  const consider = (entry: NarrowEntry) => {
    const { personId: id, personCreatedKey } = entry;
    if (id === null || personCreatedKey === null || candidates.has(id)) return;
    if (inCreatedRange(personCreatedKey, personRange) && employmentMatches(entry, filter)) {
      candidates.set(id, personCreatedKey);
    }
  };
  let prefetched: PersonRecords | undefined;
  if (personId !== undefined) {
    prefetched = await directory.partition(personId);
    const { person } = prefetched;
    if (person) for (const record of prefetched.employees) consider(narrowView(record, person.createdAt));
  } else if (phone !== undefined) {
    (await directory.phoneEntries(phone)).forEach(consider);
  } else {
    // One query per company, all at once: latency follows the largest company, not their sum.
    const perCompany = await Promise.all(scope.map((id) => directory.companyEntries(id)));
    for (const entries of perCompany) entries.forEach(consider);
  }

  const sorted = [...candidates]
    .map(([id, createdKey]): Candidate => ({ id, createdKey }))
    .sort(compareByCreated);
  const { page, pagination } = pageOf(sorted, request.offset, request.limit);

  const options = {
    asOf,
    ...(request.externalIdSystems ? { externalIdSystems: request.externalIdSystems } : {}),
  };
  const authorizedEmployment = (record: SourceEmployee) => principal.companies.has(record.companyId);
  const persons = await Promise.all(
    page.map(async ({ id }) => {
      const records = prefetched?.person?.id === id ? prefetched : await directory.partition(id);
      if (!records.person) throw new Error("person disappeared between index read and fetch");
      const employments = records.employees
        .filter(authorizedEmployment)
        .map((record) => ({ record, createdKey: instantKey(record.createdAt), id: record.id }))
        .sort(compareByCreated)
        .map(({ record }) => toApiEmployee(record, options));
      return toApiPerson(records.person, employments);
    }),
  );
  return { asOf: asOf.toISOString(), persons, pagination };
}
