/**
 * Search employees: the employee records of one authorized company that match every filter,
 * terminated and duplicate records included, sorted by createdAt then id, one page of them whole.
 */
import { type Principal, requireCompany } from "../auth/principal.js";
import type { ApiEmployeesSearchResponse } from "../directory/api-schema.js";
import { toApiEmployee } from "../directory/derive.js";
import type { SourceEmployee } from "../directory/source.js";
import type { NarrowEntry } from "../store/directory-items.js";
import type { DirectoryRepository } from "../store/directory-repository.js";
import { employmentFilter, employmentMatches, narrowView } from "./matching.js";
import { pageOf } from "./paging.js";
import { createdRange, type EmployeesSearchRequest } from "./request-schemas.js";

export async function searchEmployees(
  request: EmployeesSearchRequest,
  principal: Principal,
  directory: DirectoryRepository,
  asOf: Date = new Date(),
): Promise<ApiEmployeesSearchResponse> {
  const { companyId, personId, phone } = request;
  requireCompany(principal, companyId);
  const range = createdRange(request);
  const filter = employmentFilter([companyId], request);

  // The most selective key condition available; the other filters are applied to what it reads.
  // Each path reads one company's key range, so candidates arrive in createdAt, id order. The
  // person path reads whole records already; the others read narrow entries only.
  let candidates: { entry: NarrowEntry; record?: SourceEmployee }[];
  if (personId !== undefined) {
    const { employees } = await directory.partition(personId, companyId, range);
    candidates = employees.map((record) => ({ entry: narrowView(record), record }));
  } else {
    const entries =
      phone !== undefined
        ? await directory.phoneEntries(phone, companyId, range)
        : await directory.companyEntries(companyId, range);
    candidates = entries.map((entry) => ({ entry }));
  }

  const { page, pagination } = pageOf(
    candidates.filter(({ entry }) => employmentMatches(entry, filter)),
    request.offset,
    request.limit,
  );
  const known = page.flatMap(({ record }) => (record ? [record] : []));
  const records =
    known.length === page.length ? known : await directory.employees(page.map(({ entry }) => entry));
  const options = {
    asOf,
    ...(request.externalIdSystems ? { externalIdSystems: request.externalIdSystems } : {}),
  };
  return {
    asOf: asOf.toISOString(),
    employees: records.map((record) => toApiEmployee(record, options)),
    pagination,
  };
}
