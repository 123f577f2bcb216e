/**
 * The real searches (use cases over the repository, on both engines) give exactly what the
 * reference model gives: same people and records, same order, same employments, same total.
 */
import fc from "fast-check";
import type { Principal } from "../../lib/auth/principal.js";
import type { ApiEmployee, ApiPerson } from "../../lib/directory/api-schema.js";
import { type DataFile, parseDataFile } from "../../lib/directory/source.js";
import { ForbiddenError } from "../../lib/http/errors.js";
import {
  type EmployeesSearchRequest,
  employeesSearchRequestSchema,
  type PersonsSearchRequest,
  personsSearchRequestSchema,
} from "../../lib/search/request-schemas.js";
import { searchEmployees } from "../../lib/search/search-employees.js";
import { searchPersons } from "../../lib/search/search-persons.js";
import { loadDirectory } from "../../lib/store/directory-loader.js";
import { type DirectoryRepository, directoryRepository } from "../../lib/store/directory-repository.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { describeEachEngine } from "../support/engines.js";
import { COMPANY_COUNT, datasetArbitrary, type RawDataset, requestArbitrary } from "./arbitraries.js";
import { modelEmployees, modelPersons } from "./reference.js";

const ASOF = new Date("2025-01-15T12:00:00Z");
const ADDRESS = { line1: null, line2: null, city: null, state: null, postalCode: null };
let run = 0;
/** Requests whose expected answer had at least one match, per test: a property that only ever
 * compares empty answers would prove nothing, so each test asserts a share of non-empty ones. */
const answered = { compared: 0, nonEmpty: 0 };
function tally(total: number): void {
  answered.compared += 1;
  if (total > 0) answered.nonEmpty += 1;
}
beforeEach(() => {
  answered.compared = 0;
  answered.nonEmpty = 0;
});
function expectMostlyMeaningful(): void {
  expect(answered.nonEmpty / answered.compared).toBeGreaterThan(0.3);
}

/** Companies are named per run, so runs sharing a table never see each other's records. */
function materialize(raw: RawDataset): { data: DataFile; companies: string[] } {
  run += 1;
  const companies = Array.from({ length: COMPANY_COUNT + 1 }, (_, i) => `run${run}-c${i}`);
  const text = JSON.stringify({
    persons: raw.persons.map((p) => ({ id: p.id, createdAt: p.createdAt, updatedAt: p.createdAt })),
    employees: raw.employees.map((e) => ({
      id: e.id,
      companyId: companies[e.company],
      personId: e.person === null ? null : (raw.persons[e.person]?.id ?? null),
      externalIds: e.systems.map((system, i) => ({ system, system_id: `${system}-${i}` })),
      demographics: { firstName: e.firstName, lastName: e.lastName, dateOfBirth: null, gender: null },
      contact: { email: null, phone: e.phone, address: ADDRESS },
      membership: { state: null, userState: null, invitation: null },
      participation: null,
      coverages: [{ status: "enrolled", startsAt: "2024-01-01", endsAt: null, planTier: "gold" }],
      createdAt: e.createdAt,
      updatedAt: e.createdAt,
    })),
  });
  return { data: parseDataFile(text), companies };
}

function principalFor(companies: readonly string[], scopeMask: number): Principal {
  return {
    keyId: "key_PropertyTest0000",
    partner: "property",
    operations: new Set(["persons.search", "employees.search"]),
    companies: new Set(companies.filter((_, i) => (scopeMask >> i) & 1)),
  };
}

/** Replace company indexes in a generated request with the run's company ids. */
function withCompany<T extends { companyId?: number | undefined }>(body: T, companies: readonly string[]) {
  const { companyId, ...rest } = body;
  return companyId === undefined ? rest : { ...rest, companyId: companies[companyId] };
}

/** One route as the property compares it: how to parse a body, what the model says, what the service says. */
interface Route<Request, Item> {
  companyId: "required" | "optional";
  parse(body: unknown): Request;
  model(
    data: DataFile,
    companies: ReadonlySet<string>,
    request: Request,
  ): { items: Item[]; total: number } | "forbidden";
  search(
    request: Request,
    principal: Principal,
    directory: DirectoryRepository,
  ): Promise<{ items: Item[]; pagination: unknown }>;
}

const PERSONS: Route<PersonsSearchRequest, ApiPerson> = {
  companyId: "optional",
  parse: (body) => personsSearchRequestSchema.parse(body),
  model: (data, companies, request) => modelPersons(data, companies, request, ASOF),
  search: async (request, principal, directory) => {
    const { persons, pagination } = await searchPersons(request, principal, directory, ASOF);
    return { items: persons, pagination };
  },
};

const EMPLOYEES: Route<EmployeesSearchRequest, ApiEmployee> = {
  companyId: "required",
  parse: (body) => employeesSearchRequestSchema.parse(body),
  model: (data, companies, request) => modelEmployees(data, companies, request, ASOF),
  search: async (request, principal, directory) => {
    const { employees, pagination } = await searchEmployees(request, principal, directory, ASOF);
    return { items: employees, pagination };
  },
};

/** Every employment the service returned belongs to a company the key may read. */
function employmentsOf(item: ApiPerson | ApiEmployee): { companyId: string }[] {
  return "employments" in item ? item.employments : [item];
}

describeEachEngine("searches against the reference model", (getEngine) => {
  async function compareWithModel<
    Request extends { limit: number; offset: number },
    Item extends ApiPerson | ApiEmployee,
  >(route: Route<Request, Item>): Promise<void> {
    await fc.assert(
      fc.asyncProperty(
        datasetArbitrary.chain((raw) =>
          fc.tuple(
            fc.constant(raw),
            fc.array(requestArbitrary(raw.persons, route.companyId), { minLength: 1, maxLength: 4 }),
            fc.nat(31),
          ),
        ),
        async ([raw, bodies, scopeMask]) => {
          const { client, tables } = getEngine();
          const documents = documentClientFor(client);
          const { data, companies } = materialize(raw);
          await loadDirectory(documents, tables.directory, data);
          const principal = principalFor(companies, scopeMask);
          const directory = directoryRepository(documents, tables.directory);
          for (const body of bodies) {
            const request = route.parse(withCompany(body, companies));
            const expected = route.model(data, principal.companies, request);
            if (expected === "forbidden") {
              await expect(route.search(request, principal, directory)).rejects.toThrow(ForbiddenError);
              continue;
            }
            tally(expected.total);
            const actual = await route.search(request, principal, directory);
            expect(actual.pagination).toEqual({
              limit: request.limit,
              offset: request.offset,
              total: expected.total,
            });
            expect(actual.items).toEqual(expected.items);
            for (const employment of actual.items.flatMap(employmentsOf)) {
              expect(principal.companies.has(employment.companyId)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 80 },
    );
    expectMostlyMeaningful();
  }

  it(
    "persons search answers as the model does, for any scope and filters",
    () => compareWithModel(PERSONS),
    120_000,
  );
  it(
    "employees search answers as the model does, for any scope and filters",
    () => compareWithModel(EMPLOYEES),
    120_000,
  );
});
