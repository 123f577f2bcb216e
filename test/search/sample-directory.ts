/**
 * A small handmade directory whose answers are worked out by hand in the integration tests.
 *
 * - ALICE and BOB are created at the same instant, written with different offsets; BOB's id sorts
 *   first, so BOB comes first (a plain-text sort of the createdAt strings would put ALICE first).
 * - ALICE works at acme, beta and gamma; the key reads acme, acme-west and beta, never gamma.
 * - BOB has a duplicate record at acme (same person and company, another id), terminated.
 * - CARA works at gamma only; DAN has no employment at all: neither is ever found.
 * - EVE works at acme-west (a company id with acme as prefix) with a full-width name and a stored
 *   phone that does not normalize (letters), though its digits alone would be ALICE's phone.
 * - Unlinked records (no person) at acme, and fillers for paging.
 */
import { dataFileOf, employeeInput, personInput } from "../support/records.js";

export const COMPANY = { acme: "acme", acmeWest: "acme-west", beta: "beta", gamma: "gamma" } as const;
/** What the sample key may read. */
export const SCOPE: ReadonlySet<string> = new Set([COMPANY.acme, COMPANY.acmeWest, COMPANY.beta]);

export const PERSON = {
  alice: "a11ce000-0000-4000-8000-000000000001",
  bob: "0b0b0000-0000-4000-8000-000000000002",
  cara: "ca2a0000-0000-4000-8000-000000000003",
  dan: "da40000d-0000-4000-8000-000000000004",
  eve: "e5e00000-0000-4000-8000-000000000005",
} as const;

export const RECORD = {
  aliceAcme: "20000000-0000-4000-8000-00000000a11c",
  aliceBeta: "20000000-0000-4000-8000-0000000ba11c",
  aliceGamma: "20000000-0000-4000-8000-0000000ca11c",
  bobAcme: "10000000-0000-4000-8000-000000000b0b",
  bobAcmeDuplicate: "10000000-0000-4000-8000-00000000db0b",
  caraGamma: "30000000-0000-4000-8000-000000000ca2",
  eveAcmeWest: "40000000-0000-4000-8000-000000000e5e",
  unlinkedAlice: "50000000-0000-4000-8000-000000000001",
  unlinkedNoName: "30000000-0000-4000-8000-000000000002",
  unlinkedBadPhone: "50000000-0000-4000-8000-000000000003",
} as const;

/** ALICE's and BOB's creation instant, three ways. */
export const FEB_1 = {
  utc: "2024-02-01T00:00:00Z",
  plusOne: "2024-02-01T01:00:00+01:00",
  minusFive: "2024-01-31T19:00:00-05:00",
};

const FILLERS = 12;
const fillerId = (i: number) => `f0000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

const persons = [
  personInput(PERSON.alice, FEB_1.utc),
  personInput(PERSON.bob, FEB_1.plusOne),
  personInput(PERSON.cara, "2024-03-01T00:00:00Z"),
  personInput(PERSON.dan, "2023-12-31T23:59:59.999999999Z"),
  personInput(PERSON.eve, "2024-03-01T00:00:00.000000001Z"),
];

const employees = [
  employeeInput({
    id: RECORD.aliceAcme,
    companyId: COMPANY.acme,
    personId: PERSON.alice,
    createdAt: FEB_1.utc,
    firstName: "Alice",
    lastName: "Ng",
    phone: "(555) 200-0001",
    externalIds: [
      { system: "payroll_system", system_id: "PR-1" },
      { system: "hhaexchange", system_id: "HHX-1" },
    ],
  }),
  employeeInput({
    id: RECORD.aliceBeta,
    companyId: COMPANY.beta,
    personId: PERSON.alice,
    createdAt: "2024-01-20T00:00:00Z",
    firstName: "Alicia",
    lastName: "Ng-Smith",
    phone: "555.200.0002",
  }),
  employeeInput({
    id: RECORD.aliceGamma,
    companyId: COMPANY.gamma,
    personId: PERSON.alice,
    createdAt: "2024-01-10T00:00:00Z",
    firstName: "Zed",
    phone: "555-200-0009",
  }),
  employeeInput({
    id: RECORD.bobAcme,
    companyId: COMPANY.acme,
    personId: PERSON.bob,
    createdAt: FEB_1.plusOne,
    firstName: "Bob",
    lastName: "Ng",
    phone: "555 200 0002",
  }),
  employeeInput({
    id: RECORD.bobAcmeDuplicate,
    companyId: COMPANY.acme,
    personId: PERSON.bob,
    createdAt: "2024-02-02T00:00:00Z",
    firstName: "Bob",
    lastName: "Ng",
    phone: "555 200 0002",
    terminated: true,
  }),
  employeeInput({
    id: RECORD.caraGamma,
    companyId: COMPANY.gamma,
    personId: PERSON.cara,
    createdAt: "2024-03-01T00:00:00Z",
    firstName: "Alice",
    phone: "555-200-0001",
  }),
  employeeInput({
    id: RECORD.eveAcmeWest,
    companyId: COMPANY.acmeWest,
    personId: PERSON.eve,
    createdAt: "2024-03-02T00:00:00Z",
    firstName: "Ｅｖｅ",
    lastName: "Ng",
    phone: "555-200-0001 ext",
  }),
  employeeInput({
    id: RECORD.unlinkedAlice,
    companyId: COMPANY.acme,
    personId: null,
    createdAt: "2024-01-15T00:00:00Z",
    firstName: "Alice",
    lastName: "Unknown",
    phone: "+1 555 200 0001",
  }),
  employeeInput({
    id: RECORD.unlinkedNoName,
    companyId: COMPANY.acme,
    personId: null,
    createdAt: FEB_1.minusFive,
    firstName: null,
    lastName: null,
    phone: null,
  }),
  employeeInput({
    id: RECORD.unlinkedBadPhone,
    companyId: COMPANY.acme,
    personId: null,
    createdAt: "2024-04-01T00:00:00Z",
    firstName: "Alice",
    phone: "555-200-0001 ext",
  }),
  ...Array.from({ length: FILLERS }, (_, i) =>
    employeeInput({
      id: fillerId(i),
      companyId: COMPANY.acme,
      personId: null,
      // Pairs of equal instants, written differently.
      createdAt:
        i % 2 === 0
          ? `2024-05-${String(10 + i).padStart(2, "0")}T00:00:00Z`
          : `2024-05-${String(9 + i).padStart(2, "0")}T02:00:00+02:00`,
      firstName: "Filler",
      lastName: `No${i}`,
      phone: null,
    }),
  ),
];

export const SAMPLE = dataFileOf(persons, employees);

/** acme's records in the order employees search must give them (fillers last, in id order per pair). */
export const ACME_ORDER = [
  RECORD.unlinkedAlice,
  // 2024-02-01T00:00Z, three spellings: ids decide.
  RECORD.bobAcme,
  RECORD.aliceAcme,
  RECORD.unlinkedNoName,
  RECORD.bobAcmeDuplicate,
  RECORD.unlinkedBadPhone,
  ...Array.from({ length: FILLERS }, (_, i) => fillerId(i)),
];
