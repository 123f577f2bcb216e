/**
 * Random multi-company directories for the isolation property, and the one thing the property
 * needs to know about them: which records a key scope may see and how many matches a request has
 * when only the key's companies are counted. Names are ASCII and phones plain digits, so the
 * reference needs no Unicode or phone rules; the leaks it hunts are about companies, not text.
 */
import fc from "fast-check";
import type { DataFile } from "../../lib/directory/source.js";
import { dataFileOf, employeeInput, personInput, testUuid } from "../support/records.js";

/** Suffixes that are prefixes of one another, so a sort-key range that is one character too wide leaks. */
const SUFFIXES = ["a", "a-b", "ab", "a.b", "b"];
const FIRST = ["Ann", "Annie", "Bob", "Cy"];
const LAST = ["Lee", "Leeds", "Smith", "Smithe"];
const PHONES = ["5551230001", "5551230002", "5551230003"];

interface Employment {
  id: string;
  company: string;
  personId: string | null;
  firstName: string;
  lastName: string;
  phone: string;
}

export interface Directory {
  companies: string[];
  persons: string[];
  employments: Employment[];
  data: DataFile;
}

interface EmploymentSpec {
  company: number;
  first: number;
  last: number;
  phone: number;
}

const employmentSpec: fc.Arbitrary<EmploymentSpec> = fc.record({
  company: fc.nat(SUFFIXES.length - 1),
  first: fc.nat(FIRST.length - 1),
  last: fc.nat(LAST.length - 1),
  phone: fc.nat(PHONES.length - 1),
});

export interface DirectorySpec {
  companyCount: number;
  /** Each person's employments. */
  persons: EmploymentSpec[][];
  unlinked: EmploymentSpec[];
}

export const directorySpec: fc.Arbitrary<DirectorySpec> = fc.record({
  companyCount: fc.integer({ min: 2, max: SUFFIXES.length }),
  persons: fc.array(fc.array(employmentSpec, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
  unlinked: fc.array(employmentSpec, { maxLength: 3 }),
});

/** Builds run `run`'s directory: its company ids and uuids are its own, so runs share one table. */
export function buildDirectory(run: number, spec: DirectorySpec, prefix = `r${run}`): Directory {
  const companies = SUFFIXES.slice(0, spec.companyCount).map((suffix) => `${prefix}-${suffix}`);
  const employments: Employment[] = [];
  const persons: string[] = [];
  const add = (e: EmploymentSpec, personId: string | null) => {
    employments.push({
      id: testUuid(run, 2, employments.length),
      company: companies[e.company % companies.length] ?? `${prefix}-a`,
      personId,
      firstName: FIRST[e.first] ?? "Ann",
      lastName: LAST[e.last] ?? "Lee",
      phone: PHONES[e.phone] ?? "5551230001",
    });
  };
  spec.persons.forEach((jobs, index) => {
    const personId = testUuid(run, 1, index);
    persons.push(personId);
    for (const job of jobs) add(job, personId);
  });
  for (const job of spec.unlinked) add(job, null);
  const createdAt = (i: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString();
  const data = dataFileOf(
    persons.map((id, i) => personInput(id, createdAt(i))),
    employments.map((e, i) =>
      employeeInput({
        id: e.id,
        companyId: e.company,
        personId: e.personId,
        createdAt: createdAt(i),
        firstName: e.firstName,
        lastName: e.lastName,
        phone: e.phone,
      }),
    ),
  );
  return { companies, persons, employments, data };
}

export interface Filters {
  companyId?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
}

/** Filter texts: substrings in other cases, so matching is non-trivial, and a formatted phone. */
export const filterValues = {
  firstName: fc.constantFrom("ann", "ANNIE", "o", "Cy"),
  lastName: fc.constantFrom("lee", "LEEDS", "smith", "e"),
  phone: fc.constantFrom("(555) 123-0001", "+1 555 123 0002", "555.123.0003"),
};

const digits = (phone: string) => phone.replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "");

function matches(e: Employment, f: Filters): boolean {
  return (
    (f.firstName === undefined || e.firstName.toLowerCase().includes(f.firstName.toLowerCase())) &&
    (f.lastName === undefined || e.lastName.toLowerCase().includes(f.lastName.toLowerCase())) &&
    (f.phone === undefined || e.phone === digits(f.phone))
  );
}

/** Persons with one employment, in a company the key may read (and the filter's), matching every filter. */
export function expectedPersons(d: Directory, allowed: ReadonlySet<string>, f: Filters): Set<string> {
  const found = new Set<string>();
  for (const e of d.employments) {
    if (e.personId === null || !allowed.has(e.company)) continue;
    if (f.companyId !== undefined && e.company !== f.companyId) continue;
    if (matches(e, f)) found.add(e.personId);
  }
  return found;
}

export function expectedEmployees(d: Directory, companyId: string, f: Filters): Set<string> {
  return new Set(d.employments.filter((e) => e.company === companyId && matches(e, f)).map((e) => e.id));
}
