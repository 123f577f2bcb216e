/**
 * Random directories small enough to reason about and rich enough to trip a search: persons over
 * 2-5 companies with 0-4 employments each, duplicate records (same person and company, other id),
 * records with no person, names that differ only by case or Unicode form, one phone in many
 * punctuations, stored phones that do not normalize, one instant written with several offsets,
 * company ids that are prefixes of one another. Plus random key scopes and search requests.
 */
import fc from "fast-check";
import type { DataFile, SourceEmployeeInput } from "../../lib/directory/source.js";
import { tenthOfANanosecondAfter } from "../support/date-times.js";
import { dataFileOf, employeeInput, personInput } from "../support/records.js";

/** Several spellings of the same instants, and neighbours one nanosecond away. */
export const INSTANTS = [
  "2024-01-01T00:00:00Z",
  "2024-01-01T02:00:00+02:00",
  "2023-12-31T19:00:00-05:00",
  "2024-01-01T00:00:00.000Z",
  "2024-01-01T00:00:00.000000001Z",
  "2023-12-31T23:59:59.999999999Z",
  "2024-06-15T12:30:00Z",
  "2024-06-15T08:30:00-04:00",
  "2025-01-01T00:00:00.5+00:00",
] as const;
/**
 * Bounds besides the stored instants: a tenth of a nanosecond around them (10 digits), and
 * offsets that put a bound before year 0000 or after year 9999 in UTC (docs/decisions.md).
 */
const BOUNDS = [
  "2024-03-01T00:00:00Z",
  "2024-01-01T00:00:00.0000000001Z",
  "2023-12-31T23:59:59.9999999999Z",
  "2024-01-01T00:00:00.0000000010Z",
  "2024-01-01T00:00:00.000000000999999+00:00",
  "0000-01-01T00:00:00+14:00",
  "9999-12-31T23:59:59-14:00",
];
export const FIRST_NAMES = [
  "Zoë",
  "ZOË",
  "ｚｏｅ",
  "Zoe\u0308",
  "zoe",
  "Zoey",
  "Anne-Marie",
  "ﬁona",
  "Fiona",
  null,
];
export const LAST_NAMES = ["García", "GARCIA", "ＧＡＲＣÍＡ", "O'Brien", "o'brien", "Smith Jones", null];
export const PHONES = [
  "(555) 123-4567",
  "555.123.4567",
  "+1 555 123 4567",
  "1-555-123-4567",
  "5551234567",
  "555 987 6543",
  "(555)987-6543",
  "12345",
  "555-123-4567 x9",
  "５５５１２３４５６７",
  null,
];
const SYSTEMS = ["payroll_system", "hhaexchange"] as const;
type System = (typeof SYSTEMS)[number];

/** Company suffixes: prefixes of one another and case variants, to test sort-key ranges. */
const COMPANY_SUFFIXES = ["a", "a-b", "A", "a_1", "a.b"];
const MAX_COMPANIES = COMPANY_SUFFIXES.length;

export interface EmploymentSpec {
  company: number;
  /** Leads the id, so id order is unrelated to creation order. */
  tag: number;
  upperId: boolean;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  createdAt: string;
  systems: System[];
  terminated: boolean;
  /** Also write a duplicate: same person and company, another id. */
  duplicate: boolean;
}

/** The record an employment spec stands for, under the id, company and person it was given. */
export function employmentInput(
  employment: EmploymentSpec,
  where: { id: string; companyId: string; personId: string | null },
): SourceEmployeeInput {
  return employeeInput({
    ...where,
    createdAt: employment.createdAt,
    firstName: employment.firstName,
    lastName: employment.lastName,
    phone: employment.phone,
    externalIds: employment.systems.map((system, i) => ({ system, system_id: `${system}-${i}` })),
    terminated: employment.terminated,
  });
}

interface PersonSpec {
  tag: number;
  upperId: boolean;
  createdAt: string;
  employments: EmploymentSpec[];
}

export interface DirectorySpec {
  companyCount: number;
  persons: PersonSpec[];
  unlinked: EmploymentSpec[];
}

export const employmentArbitrary: fc.Arbitrary<EmploymentSpec> = fc.record({
  company: fc.nat(MAX_COMPANIES - 1),
  tag: fc.nat(255),
  upperId: fc.boolean(),
  firstName: fc.constantFrom(...FIRST_NAMES),
  lastName: fc.constantFrom(...LAST_NAMES),
  phone: fc.constantFrom(...PHONES),
  createdAt: fc.constantFrom(...INSTANTS),
  systems: fc.array(fc.constantFrom(...SYSTEMS), { maxLength: 3 }),
  terminated: fc.boolean(),
  duplicate: fc.oneof(
    { arbitrary: fc.constant(false), weight: 5 },
    { arbitrary: fc.constant(true), weight: 1 },
  ),
});

const personArbitrary = (minEmployments: number): fc.Arbitrary<PersonSpec> =>
  fc.record({
    tag: fc.nat(255),
    upperId: fc.boolean(),
    createdAt: fc.constantFrom(...INSTANTS),
    employments: fc.array(employmentArbitrary, { minLength: minEmployments, maxLength: 4 }),
  });

/** The first person has an employment, so every directory holds a record a search can find. */
export const directoryArbitrary: fc.Arbitrary<DirectorySpec> = fc.record({
  companyCount: fc.integer({ min: 2, max: MAX_COMPANIES }),
  persons: fc
    .tuple(personArbitrary(1), fc.array(personArbitrary(0), { maxLength: 7 }))
    .map(([first, others]) => [first, ...others]),
  unlinked: fc.array(employmentArbitrary, { maxLength: 4 }),
});

export interface Directory {
  data: DataFile;
  companies: string[];
  /** A company id in no record (and in scope when the key lists it). */
  ghost: string;
  /** A company id no key scope lists. */
  unlisted: string;
  personIds: string[];
  unlinkedIds: string[];
}

let runs = 0;
const hex = (value: number, width: number) => value.toString(16).padStart(width, "0");

/**
 * The data file of a spec, through `parseDataFile`. Ids and company ids are new for every call,
 * so datasets loaded one after another into one table never see each other.
 */
export function materialize(spec: DirectorySpec): Directory {
  runs += 1;
  const run = runs;
  const prefix = `r${run.toString(36)}x${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
  const companies = COMPANY_SUFFIXES.slice(0, spec.companyCount).map((suffix) => `${prefix}.${suffix}`);
  let index = 0;
  const id = (tag: number, upper: boolean) => {
    index += 1;
    const text = `${hex(tag, 2)}${hex(run, 6)}-e${hex(index, 3)}-4abc-8def-${hex(index, 12)}`;
    return upper ? text.toUpperCase() : text;
  };
  const persons: unknown[] = [];
  const employees: unknown[] = [];
  const personIds: string[] = [];
  const unlinkedIds: string[] = [];
  const addEmployment = (employment: EmploymentSpec, personId: string | null) => {
    const times = employment.duplicate ? 2 : 1;
    for (let copy = 0; copy < times; copy += 1) {
      const recordId = id((employment.tag + copy * 101) % 256, employment.upperId);
      if (personId === null) unlinkedIds.push(recordId.toLowerCase());
      employees.push(
        employmentInput(employment, {
          id: recordId,
          companyId: companies[employment.company % companies.length] ?? prefix,
          personId,
        }),
      );
    }
  };
  for (const person of spec.persons) {
    const personId = id(person.tag, person.upperId);
    personIds.push(personId.toLowerCase());
    persons.push(personInput(personId, person.createdAt));
    for (const employment of person.employments) addEmployment(employment, personId);
  }
  for (const employment of spec.unlinked) addEmployment(employment, null);
  return {
    data: dataFileOf(persons, employees),
    companies,
    ghost: `${prefix}.ghost`,
    unlisted: `${prefix}.unlisted`,
    personIds,
    unlinkedIds,
  };
}

// ---------------------------------------------------------------------------------------------
// Key scopes and requests

/** Which companies a key lists: each of the dataset's, and the ghost (last), independently (70%). */
const listed = fc.oneof(
  { arbitrary: fc.constant(true), weight: 7 },
  { arbitrary: fc.constant(false), weight: 3 },
);
export const scopeArbitrary = fc.array(listed, {
  minLength: MAX_COMPANIES + 1,
  maxLength: MAX_COMPANIES + 1,
});

export function scopeOf(mask: readonly boolean[], directory: Directory): Set<string> {
  const listed = [...directory.companies, directory.ghost].filter((_, i) =>
    i === directory.companies.length ? mask[MAX_COMPANIES] : mask[i],
  );
  return new Set(listed);
}

type PersonPick =
  | { kind: "person"; index: number; upper: boolean }
  | { kind: "unknown" }
  | { kind: "unlinked" };

export interface RequestSpec {
  /** An index into the companies (modulo their number); MAX_COMPANIES means the ghost company. */
  company?: number | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  phone?: string | undefined;
  person?: PersonPick | undefined;
  createdFrom?: string | undefined;
  createdBefore?: string | undefined;
  systems?: System[] | undefined;
  limit: number;
  offset: number;
}

/** Present one time in four, so that combined filters still match something. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary, weight: 1 });

const personPick: fc.Arbitrary<PersonPick> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant("person" as const), index: fc.nat(7), upper: fc.boolean() }),
    weight: 4,
  },
  { arbitrary: fc.constant({ kind: "unknown" as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: "unlinked" as const }), weight: 1 },
);

const companyPick = fc.oneof(
  { arbitrary: fc.nat(MAX_COMPANIES - 1), weight: 6 },
  { arbitrary: fc.constant(MAX_COMPANIES), weight: 1 },
);

/**
 * A name fragment: of 1 or 2 characters (read from their own gram's postings), or, twice as often,
 * of 3 or more (one trigram's postings or the rarest of several).
 */
const fragments = (short: readonly string[], long: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...short), weight: 1 },
    { arbitrary: fc.constantFrom(...long), weight: 2 },
  );

export function requestArbitrary(company: "required" | "optional"): fc.Arbitrary<RequestSpec> {
  return fc.record({
    company: company === "required" ? companyPick : sometimes(companyPick),
    firstName: sometimes(
      fragments(
        ["zo", "ｚｏ", "oë", "e", "ﬁ", "fi", "x"],
        ["ZOË", "Zoe\u0308", "anne-", "ＺＯＥ", "ﬁon", "-ma", "oey", "xyz"],
      ),
    ),
    lastName: sometimes(
      fragments(["ｇａ", "ía", "q"], ["garc", "GARCÍA", "o'b", "smith j", "ＲＣÍ", "brien", "arcia"]),
    ),
    phone: sometimes(
      fc.constantFrom("5551234567", "(555) 123-4567", "1 555 123 4567", "555.987.6543", "5550001111"),
    ),
    person: sometimes(personPick),
    createdFrom: sometimes(fc.constantFrom(...INSTANTS, ...BOUNDS)),
    createdBefore: sometimes(fc.constantFrom(...INSTANTS, ...BOUNDS)),
    systems: sometimes(fc.subarray([...SYSTEMS])),
    limit: fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 4 }), weight: 4 },
      { arbitrary: fc.constantFrom(50, 100), weight: 1 },
    ),
    offset: fc.oneof(
      { arbitrary: fc.constant(0), weight: 3 },
      { arbitrary: fc.integer({ min: 1, max: 6 }), weight: 2 },
    ),
  });
}

/** The JSON body a partner would send for a request spec over a directory. */
export function bodyOf(spec: RequestSpec, directory: Directory): Record<string, unknown> {
  const body: Record<string, unknown> = { limit: spec.limit, offset: spec.offset };
  if (spec.company !== undefined) {
    const { companies } = directory;
    body.companyId =
      spec.company >= MAX_COMPANIES
        ? directory.ghost
        : (companies[spec.company % companies.length] ?? directory.ghost);
  }
  if (spec.firstName !== undefined) body.firstName = spec.firstName;
  if (spec.lastName !== undefined) body.lastName = spec.lastName;
  if (spec.phone !== undefined) body.phone = spec.phone;
  if (spec.person !== undefined) body.personId = personIdOf(spec.person, directory);
  if (spec.createdFrom !== undefined) body.createdFrom = spec.createdFrom;
  if (spec.createdBefore !== undefined) body.createdBefore = spec.createdBefore;
  if (spec.systems !== undefined) body.externalIdSystems = spec.systems;
  return body;
}

function personIdOf(pick: PersonPick, directory: Directory): string {
  const unknown = "0e0e0e0e-0000-4000-8000-000000000000";
  if (pick.kind === "unknown") return unknown;
  if (pick.kind === "unlinked") return directory.unlinkedIds[0] ?? unknown;
  const id = directory.personIds[pick.index % Math.max(1, directory.personIds.length)] ?? unknown;
  return pick.upper ? id.toUpperCase() : id;
}

/**
 * What each run asks besides its random requests, so that both kinds of answer are compared
 * whatever the seed. `forbidden`: a random request for a company no key lists. `matching`: built
 * from the first person's first employment (every directory has one): its company, its
 * createdAt as an inclusive `createdFrom` (the person's on persons search), sometimes a
 * `createdBefore` a tenth of a nanosecond after it (10 digits or more, exclusive), sometimes its
 * first name. It must find that record for a key that reads its company.
 */
export function deliberateRequests(
  directory: Directory,
  random: RequestSpec,
  search: "persons" | "employees",
): { forbidden: Record<string, unknown>; matching: Record<string, unknown>; company: string } {
  const person = directory.data.persons[0];
  const record = directory.data.employees.find((employee) => employee.personId === person?.id);
  if (!person || !record) throw new Error("directoryArbitrary gives the first person an employment");
  const firstName = random.firstName === undefined ? null : record.demographics.firstName;
  const createdAt = search === "persons" ? person.createdAt : record.createdAt;
  return {
    forbidden: { ...bodyOf(random, directory), companyId: directory.unlisted },
    matching: {
      companyId: record.companyId,
      createdFrom: createdAt,
      ...(random.createdBefore === undefined ? {} : { createdBefore: tenthOfANanosecondAfter(createdAt) }),
      ...(firstName === null ? {} : { firstName }),
      limit: random.limit,
      offset: 0,
    },
    company: record.companyId,
  };
}
