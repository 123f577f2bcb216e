/**
 * Search persons: each person once, selected by filters that must all hold on one employment in
 * a company the key may read, returned with every employment in every company the key may read
 * (filters select people; they never trim employments).
 */
import { type Principal, requireCompany } from "../auth/principal.js";
import type { ApiPersonsSearchResponse } from "../directory/api-schema.js";
import { toApiEmployee, toApiPerson } from "../directory/derive.js";
import type { DirectoryReader } from "../store/port.js";
import { employmentFilter } from "./matching.js";
import { createdRange, type PersonsSearchRequest } from "./request-schemas.js";

export async function searchPersons(
  request: PersonsSearchRequest,
  principal: Principal,
  directory: DirectoryReader,
  asOf: Date = new Date(),
): Promise<ApiPersonsSearchResponse> {
  const { companyId, offset, limit } = request;
  if (companyId !== undefined) requireCompany(principal, companyId);
  const scope = companyId === undefined ? principal.companies : [companyId];
  const page = await directory.persons({
    filter: employmentFilter(scope, request),
    readable: principal.companies,
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
    persons: page.items.map(({ person, employments }) =>
      toApiPerson(
        person,
        employments.map((record) => toApiEmployee(record, options)),
      ),
    ),
    pagination: { limit, offset, total: page.total },
  };
}
