/**
 * Search employees: the employee records of one authorized company that match every filter,
 * terminated and duplicate records included, sorted by createdAt then id, one page of them whole.
 */
import { type Principal, requireCompany } from "../auth/principal.js";
import type { ApiEmployeesSearchResponse } from "../directory/api-schema.js";
import { toApiEmployee } from "../directory/derive.js";
import type { SourceEmployee } from "../directory/source.js";
import type { DirectoryRepository } from "../store/directory-repository.js";
import {
  employmentFilter,
  employmentMatches,
  inOrderRange,
  namesMatch,
  narrowView,
  orderRange,
} from "./matching.js";
import { pageOf } from "./paging.js";
import { createdRange, type EmployeesSearchRequest } from "./request-schemas.js";

type Match = { order: string; record?: SourceEmployee };
const byOrder = (a: Match, b: Match) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0);

export async function searchEmployees(
  request: EmployeesSearchRequest,
  principal: Principal,
  directory: DirectoryRepository,
  asOf: Date = new Date(),
): Promise<ApiEmployeesSearchResponse> {
  const { companyId, personId, phone } = request;
  requireCompany(principal, companyId);
  const range = createdRange(request);
  const orders = orderRange(range);
  const filter = employmentFilter([companyId], request);
  const hasNames = filter.firstName !== undefined || filter.lastName !== undefined;

  // The most selective read available; the remaining filters are applied to what it returns.
  // person: the person's bundle holds the records whole; phone: the byPhone index; otherwise the
  // company's employment entries (names included), in createdAt, id order.
  let matches: Match[];
  let adjacent = false;
  if (personId !== undefined) {
    const found = (await directory.persons([personId])).get(personId);
    matches = (found?.employees ?? []).flatMap((record) => {
      const entry = narrowView(record);
      return inOrderRange(entry.order, orders) && employmentMatches(entry, filter)
        ? [{ order: entry.order, record }]
        : [];
    });
  } else if (phone !== undefined) {
    matches = (await directory.phoneEntries(phone, companyId))
      .filter((entry) => inOrderRange(entry.order, orders) && employmentMatches(entry, filter))
      .map(({ order }) => ({ order }));
  } else {
    const entries = await directory.employmentEntries(companyId, range);
    matches = hasNames ? entries.filter((entry) => namesMatch(entry, filter)) : entries;
    adjacent = !hasNames;
  }
  matches.sort(byOrder);

  const { page, pagination } = pageOf(matches, request.offset, request.limit);
  const known = page.flatMap(({ record }) => (record ? [record] : []));
  const records =
    known.length === page.length
      ? known
      : await directory.employeeRecords(
          companyId,
          page.map(({ order }) => order),
          { adjacent },
        );
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
