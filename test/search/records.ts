/**
 * Builders of valid source records for the search tests, and a data file parsed the way the
 * loader's caller parses it (`parseDataFile`), so ids are lower-cased and defaults applied.
 */
import {
  type DataFile,
  parseDataFile,
  type SourceEmployee,
  type SourceEmployeeInput,
  type SourcePersonInput,
} from "../../lib/directory/source.js";

/** A uuid whose last 12 hex digits are `n`: ids that sort in the order of `n`. */
export function uuidOf(prefix: string, n: number): string {
  return `${prefix.padEnd(8, "0").slice(0, 8)}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

export function personInput(id: string, createdAt: string): SourcePersonInput {
  return { id, createdAt, updatedAt: "2026-01-01T00:00:00Z" };
}

export interface EmployeeFields {
  readonly id: string;
  readonly companyId: string;
  readonly personId: string | null;
  readonly createdAt: string;
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly phone?: string | null;
  /** Extra text in the address, to make a record as large as a test needs. */
  readonly padding?: string;
  readonly terminated?: boolean;
}

export function employeeInput(fields: EmployeeFields): SourceEmployeeInput {
  return {
    id: fields.id,
    companyId: fields.companyId,
    personId: fields.personId,
    externalIds: [
      { system: "payroll_system", system_id: `PR-${fields.id.slice(-6)}` },
      { system: "hhaexchange", system_id: `HHX-${fields.id.slice(-6)}` },
    ],
    demographics: {
      firstName: fields.firstName === undefined ? "Ann" : fields.firstName,
      lastName: fields.lastName === undefined ? "Lee" : fields.lastName,
      dateOfBirth: "1980-02-29",
      gender: null,
    },
    contact: {
      email: null,
      phone: fields.phone === undefined ? null : fields.phone,
      address: {
        line1: fields.padding ?? "1 Main St",
        line2: null,
        city: "Austin",
        state: "TX",
        postalCode: "78701",
      },
    },
    membership: { state: fields.terminated ? "revoked" : "active", userState: null, invitation: null },
    participation: { decision: "opt_in", decidedAt: "2024-02-01T12:00:00Z" },
    coverages: fields.terminated
      ? [{ status: "terminated", startsAt: "2023-01-01", endsAt: "2023-12-31", planTier: "single" }]
      : [{ status: "enrolled", startsAt: "2024-01-01", endsAt: null, planTier: "family" }],
    createdAt: fields.createdAt,
    updatedAt: fields.createdAt,
  };
}

/** Parses the records as a data file, so the test data passes every loader rule. */
export function dataFileOf(
  persons: readonly SourcePersonInput[],
  employees: readonly SourceEmployeeInput[],
): DataFile {
  return parseDataFile(JSON.stringify({ persons, employees }));
}

/** One parsed employee record (its person need not exist). */
export function parsedEmployee(fields: EmployeeFields): SourceEmployee {
  const personId = fields.personId;
  const persons = personId === null ? [] : [personInput(personId, "2024-01-01T00:00:00Z")];
  const [record] = dataFileOf(persons, [employeeInput(fields)]).employees;
  if (!record) throw new Error("the data file lost its record");
  return record;
}
