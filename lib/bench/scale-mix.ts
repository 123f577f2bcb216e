/**
 * The scale profile's queries, picked from the dataset by fixed rules like the queries
 * profile's mix: the employees of the largest company (first page, deep page, last name, created
 * range, phone) under the one-company key, and per key the persons with no filter (first page and
 * the last full page), plus, for keys of more than one company, a last-name fragment of 3 letters
 * and a first-name fragment of 2; and short fragments of 1 or 2 letters (short-fragments.ts) of
 * the largest company's employees and of persons over keys of more than one company.
 */
import { normalizeName } from "../directory/name.js";
import type { SourceEmployee } from "../directory/source.js";
import { sortByCreated } from "../search/matching.js";
import { DEFAULT_LIMIT } from "../search/request-schemas.js";
import type { Dataset } from "./dataset.js";
import {
  type BenchQuery,
  EMPLOYEES_ROUTE,
  fragment,
  middle,
  PERSONS_ROUTE,
  validPhone,
} from "./query-mix.js";
import {
  type CreatedSlice,
  type ShortFragments,
  shortEmployeesQueries,
  shortFragments,
  shortPersonsQueries,
} from "./short-fragments.js";

export interface ScaleQuery extends BenchQuery {
  /** The companies the key running it may read. */
  readonly key: readonly string[];
}

/** The last full page: as deep as a page of `DEFAULT_LIMIT` goes. */
export const lastPageOffset = (total: number) => Math.max(0, total - DEFAULT_LIMIT);

/** Persons with an employment in one of `companies`: the total of a persons search with no filter. */
export function personsInScope(records: readonly SourceEmployee[], companies: ReadonlySet<string>): number {
  const persons = new Set<string>();
  for (const record of records)
    if (record.personId !== null && companies.has(record.companyId)) persons.add(record.personId);
  return persons.size;
}

const letters = (name: string | null) => [...normalizeName(name ?? "")].length;
/** Both names, each long enough for a 3-letter fragment. */
const wellNamed = (record: SourceEmployee) =>
  letters(record.demographics.firstName) >= 3 && letters(record.demographics.lastName) >= 3;

/** createdFrom and createdBefore from `low` to `high` of the records (fractions, in created order). */
function createdSlice(records: readonly SourceEmployee[], low: number, high: number): CreatedSlice {
  const sorted = sortByCreated(records);
  const from = sorted[Math.floor(sorted.length * low)];
  const before = sorted[Math.floor(sorted.length * high)];
  if (!from || !before) throw new Error("scale mix: the largest company has no records");
  return { createdFrom: from.createdAt, createdBefore: before.createdAt };
}

/** createdFrom and createdBefore around the middle fifth of the records (40% to 60% in created order). */
export const middleSlice = (records: readonly SourceEmployee[]): CreatedSlice =>
  createdSlice(records, 0.4, 0.6);

/** The middle half of the records (25% to 75%): the short fragments' created range. */
const middleHalf = (records: readonly SourceEmployee[]): CreatedSlice => createdSlice(records, 0.25, 0.75);

/** `named`: the largest company's middle well-named record, whose last name the name query takes. */
function employeesQueries(
  key: readonly string[],
  records: readonly SourceEmployee[],
  named: SourceEmployee,
): ScaleQuery[] {
  const [companyId] = key;
  if (companyId === undefined) throw new Error("scale mix: the one-company key is empty");
  const route = EMPLOYEES_ROUTE;
  const query = (name: string, kind: BenchQuery["kind"], filters: Record<string, unknown>): ScaleQuery => ({
    name: `employees: largest company${name}`,
    kind,
    route,
    body: { companyId, ...filters },
    key,
  });
  return [
    query(", first page", "unfiltered", {}),
    query(", deep page", "page", { offset: lastPageOffset(records.length) }),
    query(" + last name", "name", { lastName: fragment(named.demographics.lastName, 1) }),
    query(", created range", "range", { ...middleSlice(records) }),
    query(" + phone", "exact", { phone: middle(records, validPhone).contact.phone }),
  ];
}

interface PersonsFragments {
  readonly lastName: string;
  readonly firstName: string;
  readonly short: ShortFragments;
  /** The short fragments' created range over persons. */
  readonly range: CreatedSlice;
}

function personsQueries(dataset: Dataset, key: readonly string[], names: PersonsFragments): ScaleQuery[] {
  const total = personsInScope(dataset.data.employees, new Set(key));
  const route = PERSONS_ROUTE;
  const queries: ScaleQuery[] = [
    { name: "persons: no filter", kind: "unfiltered", route, body: {}, key },
    { name: "persons: deep page", kind: "page", route, body: { offset: lastPageOffset(total) }, key },
  ];
  if (key.length === 1) return queries;
  return [
    ...queries,
    { name: "persons: last name, 3 letters", kind: "name", route, body: { lastName: names.lastName }, key },
    {
      name: "persons: first name, 2 letters",
      kind: "name",
      route,
      body: { firstName: names.firstName },
      key,
    },
    ...shortPersonsQueries(names.short, names.lastName, names.range).map((query) => ({ ...query, key })),
  ];
}

/** The queries of every key, smallest key first; `keys` as scaleKeys() gives them (the first: the largest company). */
export function scaleMix(dataset: Dataset, keys: readonly (readonly string[])[]): ScaleQuery[] {
  const [oneCompany] = keys;
  if (oneCompany === undefined) throw new Error("scale mix: no keys");
  const largest = dataset.data.employees.filter((record) => record.companyId === oneCompany[0]);
  const named = middle(largest, wellNamed);
  const names = {
    lastName: fragment(named.demographics.lastName, 0),
    firstName: fragment(named.demographics.firstName, 0, 2),
    short: shortFragments(dataset.data.employees),
    range: middleHalf(dataset.data.employees),
  };
  const [companyId = ""] = oneCompany;
  const lastName3 = fragment(named.demographics.lastName, 1);
  return [
    ...employeesQueries(oneCompany, largest, named),
    ...shortEmployeesQueries(names.short, companyId, lastName3, middleHalf(largest)).map((query) => ({
      ...query,
      key: oneCompany,
    })),
    ...keys.flatMap((key) => personsQueries(dataset, key, names)),
  ];
}
