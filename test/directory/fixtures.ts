/**
 * The valid person and employee the directory tests vary, made by the one record builder
 * (test/support/records.ts) with every field these tests check stated here; each test overrides
 * what it checks.
 */
import {
  type SourceEmployee,
  type SourceEmployeeInput,
  SourceEmployeeSchema,
  type SourcePersonInput,
} from "../../lib/directory/source.js";
import { employeeInput, personInput } from "../support/records.js";

export const PERSON_ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
export const EMPLOYEE_ID = "6fa459ea-ee8a-4ca4-894e-db77e160355e";

export function validPerson(overrides: Partial<SourcePersonInput> = {}): SourcePersonInput {
  return { ...personInput(PERSON_ID, "2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z"), ...overrides };
}

export function validEmployee(overrides: Partial<SourceEmployeeInput> = {}): SourceEmployeeInput {
  return employeeInput(
    {
      id: EMPLOYEE_ID,
      companyId: "acme-home-care",
      personId: PERSON_ID,
      createdAt: "2024-01-01T00:00:00Z",
      externalIds: [
        { system: "payroll_system", system_id: "PR-000123" },
        { system: "hhaexchange", system_id: "HHX0004567" },
      ],
    },
    {
      demographics: { firstName: "Zoë", lastName: "Weiß", dateOfBirth: "1980-02-29", gender: "female" },
      contact: {
        email: "zoe@example.com",
        phone: "(212) 555-0142",
        address: { line1: "1 Main St", line2: null, city: "Austin", state: "TX", postalCode: "78701" },
      },
      membership: { state: null, userState: null, invitation: null },
      coverages: [
        { status: "enrolled", startsAt: "2024-01-01", endsAt: null, planTier: "family", program: "medical" },
      ],
      updatedAt: "2024-01-02T00:00:00Z",
      ...overrides,
    },
  );
}

/** The valid employee as `parseDataFile` returns it. */
export function parsedValidEmployee(overrides: Partial<SourceEmployeeInput> = {}): SourceEmployee {
  return SourceEmployeeSchema.parse(validEmployee(overrides));
}

/** A data file's JSON text. */
export function dataFileText(persons: unknown[], employees: unknown[]): string {
  return JSON.stringify({ persons, employees });
}
