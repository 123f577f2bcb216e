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
  // Each path reads one company's key range, so entries arrive in createdAt, id order.
  let entries: NarrowEntry[];
  let wholeRecords: Map<string, SourceEmployee> | undefined;
  if (personId !== undefined) {
    const { employees } = await directory.partition(personId, companyId, range);
    wholeRecords = new Map(employees.map((record) => [record.id, record]));
    entries = employees.map((record) => narrowView(record));
  } else if (phone !== undefined) {
    entries = await directory.phoneEntries(phone, companyId, range);
  } else {
    entries = await directory.companyEntries(companyId, range);
  }

  const { page, pagination } = pageOf(
    entries.filter((entry) => employmentMatches(entry, filter)),
    request.offset,
    request.limit,
  );
  const records = wholeRecords
    ? page.map((entry) => wholeRecords.get(entry.employeeId) as SourceEmployee)
    : await directory.employees(page);
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
