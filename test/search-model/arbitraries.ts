/**
 * Random directories small enough to reason about and rich enough to trip a search: names that
 * differ only by case or Unicode form, one phone in many punctuations, identical instants written
 * with different offsets, records without a person, duplicates, persons across companies.
 */
import fc from "fast-check";

export const COMPANY_COUNT = 4;

const INSTANTS = [
  "2023-12-31T23:59:59.999Z",
  "2024-01-01T00:00:00Z",
  "2024-01-01T02:00:00+02:00", // the same instant as the one above
  "2024-01-01T00:00:00.000001Z",
  "2024-02-29T12:30:00-05:00",
  "2025-06-01T08:00:00Z",
];
const FIRST_NAMES = ["Zoë", "ZOË", "zoe", "Ｚｏｅ", "Anne-Marie", "anne marie", "Łukasz", null];
const LAST_NAMES = ["O'Brien", "o'brien", "Smith", "Smith-Jones", "ＳＭＩＴＨ", "García", null];
const PHONES = [
  "(555) 123-4567",
  "555.123.4567",
  "+1 555 123 4567",
  "15551234567",
  "555-999-0000",
  "12345",
  null,
];

export interface RawDataset {
  persons: { id: string; createdAt: string }[];
  employees: {
    id: string;
    company: number;
    person: number | null;
    firstName: string | null;
    lastName: string | null;
    phone: string | null;
    createdAt: string;
    systems: ("payroll_system" | "hhaexchange")[];
  }[];
}

export const datasetArbitrary: fc.Arbitrary<RawDataset> = fc
  .uniqueArray(fc.record({ id: fc.uuid({ version: 4 }), createdAt: fc.constantFrom(...INSTANTS) }), {
    minLength: 1,
    maxLength: 10,
    selector: (person) => person.id,
  })
  .chain((persons) =>
    fc.record({
      persons: fc.constant(persons),
      employees: fc.uniqueArray(
        fc.record({
          id: fc.uuid({ version: 4 }),
          company: fc.integer({ min: 0, max: COMPANY_COUNT - 1 }),
          person:
            persons.length === 0
              ? fc.constant(null)
              : fc.option(fc.integer({ min: 0, max: persons.length - 1 }), { freq: 5 }),
          firstName: fc.constantFrom(...FIRST_NAMES),
          lastName: fc.constantFrom(...LAST_NAMES),
          phone: fc.constantFrom(...PHONES),
          createdAt: fc.constantFrom(...INSTANTS),
          systems: fc.subarray(["payroll_system", "hhaexchange"] as const),
        }),
        { minLength: 3, maxLength: 25, selector: (record) => record.id },
      ),
    }),
  );

/** Present about one time in six, so that combined filters still match something. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary, weight: 1 });

/** A search request body as a partner would send it (before validation). */
export function requestArbitrary(persons: readonly { id: string }[], withCompany: "required" | "optional") {
  const company = fc.integer({ min: 0, max: COMPANY_COUNT }); // COUNT = a company with no data at all
  return fc
    .record({
      companyId: withCompany === "required" ? company : sometimes(company),
      firstName: sometimes(fc.constantFrom("zo", "ZOË", "ｚ", "anne", "ł", "x")),
      lastName: sometimes(fc.constantFrom("o'b", "SMITH", "smith-", "ía", "q")),
      phone: sometimes(fc.constantFrom("5551234567", "(555) 999-0000", "1-555-123-4567")),
      personId: sometimes(
        persons.length > 0 ? fc.constantFrom(...persons.map((p) => p.id.toUpperCase())) : fc.uuid(),
      ),
      createdFrom: sometimes(fc.constantFrom(...INSTANTS)),
      createdBefore: sometimes(fc.constantFrom(...INSTANTS)),
      externalIdSystems: sometimes(fc.subarray(["payroll_system", "hhaexchange"])),
      limit: fc.integer({ min: 1, max: 5 }),
      offset: fc.oneof(
        { arbitrary: fc.constant(0), weight: 3 },
        { arbitrary: fc.integer({ min: 1, max: 4 }), weight: 1 },
      ),
    })
    .map(
      (body) =>
        Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as Partial<
          typeof body
        >,
    );
}
