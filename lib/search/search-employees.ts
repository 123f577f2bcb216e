/**
 * Search employees: the employee records of one authorized company that match every filter,
 * terminated and duplicate records included, sorted by createdAt then id, one page of them whole.
 */
import { type Principal, requireCompany } from "../auth/principal.js";
import type { ApiEmployeesSearchResponse } from "../directory/api-schema.js";
import { toApiEmployee } from "../directory/derive.js";
import type { DirectoryReader } from "../store/port.js";
import { employmentFilter } from "./matching.js";
import { createdRange, type EmployeesSearchRequest } from "./request-schemas.js";

export async function searchEmployees(
  request: EmployeesSearchRequest,
  principal: Principal,
  directory: DirectoryReader,
  asOf: Date = new Date(),
): Promise<ApiEmployeesSearchResponse> {
  const { companyId, offset, limit } = request;
  requireCompany(principal, companyId);
  const page = await directory.employees({
    filter: employmentFilter([companyId], request),
    personId: request.personId,
    created: createdRange(request),
    offset,
    limit,
  });
  const options = {
    asOf,
    ...(request.externalIdSystems ? { externalIdSystems: request.externalIdSystems } : {}),
  };
  return {
    asOf: asOf.toISOString(),
    employees: page.items.map((record) => toApiEmployee(record, options)),
    pagination: { limit, offset, total: page.total },
  };
}
