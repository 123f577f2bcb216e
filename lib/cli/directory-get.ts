/**
 * `directory get employee|person ID`: what a search returns for it, the API object built as the
 * search routes build it (lib/search) at this instant, for a key that reads every company. The
 * stored source record (`--stored`) is directory-inspection's, read from the table's items.
 */
import { OPERATIONS } from "../auth/operations.js";
import type { Principal } from "../auth/principal.js";
import type { ApiEmployee, ApiPerson } from "../directory/api-schema.js";
import type { SourceEmployee } from "../directory/source.js";
import {
  employeesSearchRequestSchema,
  MAX_LIMIT,
  personsSearchRequestSchema,
} from "../search/request-schemas.js";
import { searchEmployees } from "../search/search-employees.js";
import { searchPersons } from "../search/search-persons.js";
import type { DirectoryReader } from "../store/port.js";

/** A key reading `companies`, every operation: the one every company amounts to for one person. */
function operatorKey(companies: Iterable<string>): Principal {
  return {
    keyId: "operator",
    partner: "npm run directory",
    operations: new Set(OPERATIONS),
    companies: new Set(companies),
  };
}

/**
 * The employee record as the employees search of its company returns it, searched by its person
 * (when it has one) from its own `createdAt`, so its first page holds it; undefined when no page
 * does (a load replaced it since it was read).
 */
export async function searchedEmployee(
  reader: DirectoryReader,
  record: Pick<SourceEmployee, "id" | "companyId" | "personId" | "createdAt">,
  asOf: Date,
): Promise<ApiEmployee | undefined> {
  const key = operatorKey([record.companyId]);
  for (let offset = 0; ; offset += MAX_LIMIT) {
    const request = employeesSearchRequestSchema.parse({
      companyId: record.companyId,
      ...(record.personId === null ? {} : { personId: record.personId }),
      createdFrom: record.createdAt,
      limit: MAX_LIMIT,
      offset,
    });
    const { employees, pagination } = await searchEmployees(request, key, reader, asOf);
    const found = employees.find((employee) => employee.id === record.id);
    if (found) return found;
    if (offset + MAX_LIMIT >= pagination.total) return undefined;
  }
}

/**
 * The person as the persons search returns them to a key reading every company their records are
 * in (every employment); undefined when none does (a person with no records is found by no search).
 */
export async function searchedPerson(
  reader: DirectoryReader,
  personId: string,
  companies: Iterable<string>,
  asOf: Date,
): Promise<ApiPerson | undefined> {
  const key = operatorKey(companies);
  if (key.companies.size === 0) return undefined;
  const request = personsSearchRequestSchema.parse({ personId, limit: 1 });
  const { persons } = await searchPersons(request, key, reader, asOf);
  return persons.find((person) => person.id === personId);
}
