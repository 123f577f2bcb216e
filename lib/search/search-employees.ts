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
import { pageReadPlan } from "./page-reads.js";
import { pageOf } from "./paging.js";
import { createdRange, type EmployeesSearchRequest } from "./request-schemas.js";

/** A matching employment; `at`: its position among the company entries read (for pricing runs). */
type Match = { order: string; record?: SourceEmployee; at?: number };
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
  let sizes: number[] = [];
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
    const entries = await directory.employmentEntries(companyId, range, hasNames ? filter : undefined);
    sizes = entries.map((entry) => entry.recordBytes);
    matches = entries.flatMap((entry, at) =>
      !hasNames || namesMatch(entry, filter) ? [{ order: entry.order, at }] : [],
    );
  }
  matches.sort(byOrder);

  const { page, pagination } = pageOf(matches, request.offset, request.limit);
  const known = page.flatMap(({ record }) => (record ? [record] : []));
  let records = known;
  if (known.length < page.length) {
    // Entries read in full tell what a run from the first page record to the last would cost.
    const positions = page.flatMap(({ at }) => (at === undefined ? [] : [at]));
    const plan =
      positions.length === page.length ? pageReadPlan(sizes, positions) : { kind: "each" as const };
    const orders = page.map(({ order }) => order);
    records = await directory.employeeRecords(
      companyId,
      orders,
      plan.kind === "run" ? { runLength: plan.length } : {},
    );
  }
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
