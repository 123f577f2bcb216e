/**
 * The one builder of source records in the data format (docs/data-format.md) for every test, and
 * the one way tests turn them into a DataFile: through `parseDataFile`, exactly as the loader's
 * input is. A test states the fields it checks; the defaults are only there to make a valid record.
 */
import {
  type DataFile,
  parseDataFile,
  type SourceEmployee,
  type SourceEmployeeInput,
  type SourcePersonInput,
} from "../../lib/directory/source.js";

const NO_ADDRESS = { line1: null, line2: null, city: null, state: null, postalCode: null };

export interface EmployeeFields {
  id: string;
  companyId: string;
  personId: string | null;
  createdAt: string;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  externalIds?: { system: "payroll_system" | "hhaexchange"; system_id: string }[];
  /** A long address line, to make records large. */
  line1?: string | null;
  terminated?: boolean;
}

/** An employee record; `overrides` replace whole top-level fields the shortcuts above do not reach. */
export function employeeInput(
  fields: EmployeeFields,
  overrides: Partial<SourceEmployeeInput> = {},
): SourceEmployeeInput {
  return {
    id: fields.id,
    companyId: fields.companyId,
    personId: fields.personId,
    externalIds: fields.externalIds ?? [
      { system: "payroll_system", system_id: `PR-${fields.id.slice(0, 8)}` },
    ],
    demographics: {
      firstName: fields.firstName === undefined ? "Zoë" : fields.firstName,
      lastName: fields.lastName === undefined ? "García" : fields.lastName,
      dateOfBirth: "1990-05-01",
      gender: null,
    },
    contact: {
      email: null,
      phone: fields.phone === undefined ? "(555) 123-4567" : fields.phone,
      address: { ...NO_ADDRESS, line1: fields.line1 ?? null },
    },
    membership: fields.terminated
      ? { state: "revoked", userState: "disabled", invitation: null }
      : {
          state: null,
          userState: null,
          invitation: {
            status: "sent",
            invitedAt: "2024-12-01T00:00:00Z",
            expiresAt: "2025-01-10T00:00:00Z",
          },
        },
    participation: { decision: "opt_in", decidedAt: "2024-02-01T12:00:00Z" },
    coverages: fields.terminated
      ? [{ status: "terminated", startsAt: "2023-01-01", endsAt: "2024-01-01", planTier: "gold" }]
      : [
          { status: "enrolled", startsAt: "2024-01-01", endsAt: null, planTier: "gold", program: "medical" },
          { status: "waived", startsAt: "2024-06-01T00:00:00Z", endsAt: null, planTier: "basic" },
        ],
    createdAt: fields.createdAt,
    updatedAt: fields.createdAt,
    ...overrides,
  };
}

export function personInput(
  id: string,
  createdAt: string,
  updatedAt = "2024-12-31T23:59:59Z",
): SourcePersonInput {
  return { id, createdAt, updatedAt };
}

export function dataFileOf(persons: unknown[], employees: unknown[]): DataFile {
  return parseDataFile(JSON.stringify({ persons, employees }));
}

/** One employee record as `parseDataFile` returns it (its person need not exist). */
export function parsedEmployee(
  fields: EmployeeFields,
  overrides: Partial<SourceEmployeeInput> = {},
): SourceEmployee {
  const { personId } = fields;
  const persons = personId === null ? [] : [personInput(personId, "2024-01-01T00:00:00Z")];
  const [record] = dataFileOf(persons, [employeeInput(fields, overrides)]).employees;
  if (!record) throw new Error("the data file lost its record");
  return record;
}

/** A uuid from a run number and an index: unique per run, and deterministic. */
export function testUuid(run: number, kind: number, index: number): string {
  const hex = (value: number, width: number) => value.toString(16).padStart(width, "0");
  return `${hex(run, 8)}-${hex(kind, 4)}-4000-8000-${hex(index, 12)}`;
}

/** A uuid whose last 12 hex digits are `n`: ids that sort in the order of `n`. */
export function uuidOf(prefix: string, n: number): string {
  return `${prefix.padEnd(8, "0").slice(0, 8)}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}
