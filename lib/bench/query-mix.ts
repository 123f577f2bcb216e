/**
 * The fixed query mix. Every value (companies, name fragments, phone, person) is picked from the
 * dataset by a fixed rule, so the same dataset always gives the same requests, and each request
 * hits real records.
 */
import { normalizeName } from "../directory/name.js";
import { normalizePhone } from "../directory/phone.js";
import type { SourceEmployee } from "../directory/source.js";
import { DEFAULT_LIMIT } from "../search/request-schemas.js";
import type { DatasetSummary } from "./dataset.js";

export type QueryKind = "exact" | "name" | "unfiltered" | "page" | "range";
export type BenchRoute = "/v1/employees/search" | "/v1/persons/search";

export interface BenchQuery {
  readonly name: string;
  readonly kind: QueryKind;
  readonly route: BenchRoute;
  /** The request body as a partner would send it (the route's schema parses it). */
  readonly body: Readonly<Record<string, unknown>>;
}

export const EMPLOYEES_ROUTE = "/v1/employees/search";
export const PERSONS_ROUTE = "/v1/persons/search";

/**
 * What the mix is picked from: a generated dataset (every record), or a sample of a running
 * directory's records with the true record counts of its companies.
 */
export interface MixSource {
  readonly summary: Pick<DatasetSummary, "companyIds" | "persons">;
  readonly data: { readonly employees: readonly SourceEmployee[] };
  /** A company's employee records when `data.employees` holds only some of them. */
  readonly recordsOf?: (companyId: string) => number;
}

/** An offset about three quarters in, on a page boundary: a deep page that still has results. */
const deepOffset = (total: number) => Math.floor((total * 0.75) / DEFAULT_LIMIT) * DEFAULT_LIMIT;

/** The record in the middle of a list that satisfies `accept` (searching outwards from the middle). */
export function middle<T>(items: readonly T[], accept: (item: T) => boolean): T {
  const mid = Math.floor(items.length / 2);
  for (let step = 0; step < items.length; step++) {
    const item = items[mid + (step % 2 === 0 ? step / 2 : -(step + 1) / 2)];
    if (item !== undefined && accept(item)) return item;
  }
  throw new Error("query mix: the dataset has no record to pick a filter value from");
}

/** `length` letters (3 unless told) from inside a name (as typed by a partner: lower case, partial). */
export function fragment(name: string | null, start: number, length = 3): string {
  const normalized = [...normalizeName(name ?? "")];
  const from = Math.min(start, Math.max(0, normalized.length - length));
  return normalized.slice(from, from + length).join("");
}

export const validPhone = (record: SourceEmployee) =>
  record.contact.phone !== null && normalizePhone(record.contact.phone).ok;

/**
 * The person with the most employments (ties: smallest id): persons by id and by phone read a
 * person whose records span several companies.
 */
function busiestPerson(dataset: MixSource): [string, SourceEmployee[]] {
  const employments = new Map<string, SourceEmployee[]>();
  for (const record of dataset.data.employees) {
    if (record.personId === null) continue;
    const list = employments.get(record.personId) ?? [];
    list.push(record);
    employments.set(record.personId, list);
  }
  let busiest: [string, SourceEmployee[]] | undefined;
  for (const entry of employments) {
    const [id, records] = entry;
    if (
      !busiest ||
      records.length > busiest[1].length ||
      (records.length === busiest[1].length && id < busiest[0])
    )
      busiest = entry;
  }
  if (!busiest) throw new Error("query mix: the dataset has no person");
  return busiest;
}

export function queryMix(dataset: MixSource): BenchQuery[] {
  const { companyIds, persons } = dataset.summary;
  const first = companyIds[0];
  const second = companyIds[1] ?? first;
  if (first === undefined || second === undefined) throw new Error("query mix: no companies");
  const ofFirst = dataset.data.employees.filter((record) => record.companyId === first);
  const ofSecond = dataset.data.employees.filter((record) => record.companyId === second);
  const named = (record: SourceEmployee) =>
    record.demographics.firstName !== null && record.demographics.lastName !== null;

  const byLast = fragment(middle(ofFirst, named).demographics.lastName, 1);
  const byFirst = fragment(middle(ofSecond, named).demographics.firstName, 0);
  const allLast = fragment(middle(ofSecond, named).demographics.lastName, 0);
  const employeePhone = middle(ofFirst, validPhone).contact.phone;

  const busiest = busiestPerson(dataset);
  const personPhone = busiest[1].find(validPhone)?.contact.phone ?? employeePhone;

  const E = EMPLOYEES_ROUTE;
  const P = PERSONS_ROUTE;
  return [
    { name: "employees: company, first page", kind: "unfiltered", route: E, body: { companyId: first } },
    {
      name: "employees: company, deep page",
      kind: "page",
      route: E,
      body: { companyId: first, offset: deepOffset(dataset.recordsOf?.(first) ?? ofFirst.length) },
    },
    {
      name: "employees: company + last name",
      kind: "name",
      route: E,
      body: { companyId: first, lastName: byLast },
    },
    {
      name: "employees: company + phone",
      kind: "exact",
      route: E,
      body: { companyId: first, phone: employeePhone },
    },
    { name: "persons: no filter", kind: "unfiltered", route: P, body: {} },
    { name: "persons: deep page", kind: "page", route: P, body: { offset: deepOffset(persons) } },
    { name: "persons: last name", kind: "name", route: P, body: { lastName: allLast } },
    {
      name: "persons: company + first name",
      kind: "name",
      route: P,
      body: { companyId: second, firstName: byFirst },
    },
    { name: "persons: phone", kind: "exact", route: P, body: { phone: personPhone } },
    { name: "persons: personId", kind: "exact", route: P, body: { personId: busiest[0] } },
  ];
}
