import { DataFileError, parseDataFile } from "../../lib/directory/source.js";
import { dataFileText, EMPLOYEE_ID, PERSON_ID, validEmployee, validPerson } from "./fixtures.js";

/** A valid employee with any fields replaced, valid or not: these tests feed the parser bad data. */
const employee = (overrides: Record<string, unknown> = {}) => ({ ...validEmployee(), ...overrides });

const OTHER_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

/** The DataFileError thrown by parsing `text` (fails the test if none is thrown). */
function refusal(text: string): DataFileError {
  try {
    parseDataFile(text);
  } catch (error) {
    if (error instanceof DataFileError) return error;
    throw error;
  }
  throw new Error("expected the data file to be refused");
}

const ndjson = (...lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n");

describe("parseDataFile: accepted files", () => {
  it("parses a JSON data file", () => {
    const parsed = parseDataFile(dataFileText([validPerson()], [employee()]));
    expect(parsed.persons).toEqual([validPerson()]);
    expect(parsed.employees).toHaveLength(1);
    expect(parsed.employees[0]?.coverages[0]?.program).toBe("medical");
  });

  it("parses NDJSON, with CRLF line ends, blank lines, and a person after its employee", () => {
    const text = `${JSON.stringify({ employee: employee() })}\r\n\r\n${JSON.stringify({ person: validPerson() })}\r\n`;
    const parsed = parseDataFile(text);
    expect(parsed.persons.map((p) => p.id)).toEqual([PERSON_ID]);
    expect(parsed.employees.map((e) => e.id)).toEqual([EMPLOYEE_ID]);
  });

  it("reads a single NDJSON line as NDJSON", () => {
    expect(parseDataFile(JSON.stringify({ person: validPerson() }))).toEqual({
      persons: [validPerson()],
      employees: [],
    });
  });

  it("accepts a leading byte-order mark and pretty-printed JSON", () => {
    const text = `\uFEFF${JSON.stringify({ persons: [validPerson()], employees: [] }, null, 2)}`;
    expect(parseDataFile(text).persons).toHaveLength(1);
  });

  it("treats absent coverages as none", () => {
    const { coverages: _omitted, ...withoutCoverages } = employee();
    expect(parseDataFile(dataFileText([validPerson()], [withoutCoverages])).employees[0]?.coverages).toEqual(
      [],
    );
  });

  it("lower-cases uuids, so an upper-case personId links to its person", () => {
    const upper = PERSON_ID.toUpperCase();
    const parsed = parseDataFile(
      dataFileText(
        [validPerson({ id: upper })],
        [employee({ id: EMPLOYEE_ID.toUpperCase(), personId: PERSON_ID })],
      ),
    );
    expect(parsed.persons[0]?.id).toBe(PERSON_ID);
    expect(parsed.employees[0]?.id).toBe(EMPLOYEE_ID);
    expect(parsed.employees[0]?.personId).toBe(PERSON_ID);
  });

  it("keeps duplicate employee records (same person and company) with distinct ids", () => {
    const parsed = parseDataFile(dataFileText([validPerson()], [employee(), employee({ id: OTHER_ID })]));
    expect(parsed.employees.map((e) => e.id)).toEqual([EMPLOYEE_ID, OTHER_ID]);
  });

  it.each([
    ["an employee with no person", { personId: null }],
    ["an unusable stored phone", { contact: { ...employee().contact, phone: "555-0142 ext. 7" } }],
    ["no participation", { participation: null }],
    [
      "date-time coverage periods with offsets",
      {
        coverages: [
          {
            status: "terminated",
            startsAt: "2024-01-01T00:00:00-05:00",
            endsAt: "2024-12-31T23:59:59.5+14:00",
            planTier: "x",
          },
        ],
      },
    ],
    [
      "a pending invitation",
      {
        membership: {
          state: null,
          userState: null,
          invitation: {
            status: "pending",
            invitedAt: "2024-01-01T00:00:00Z",
            expiresAt: "2024-01-08T00:00:00+02:00",
          },
        },
      },
    ],
    ["empty externalIds and coverages", { externalIds: [], coverages: [] }],
    ["a 128-character company id", { companyId: "c".repeat(128) }],
    ["an 11-digit phone", { contact: { ...employee().contact, phone: "12125550142" } }],
    [
      "createdAt at the edges of years 0000 and 9999 in UTC, trailing zeros past the ninth digit",
      { createdAt: "0000-01-01T14:00:00+14:00", updatedAt: "9999-12-31T23:59:59.999999999000Z" },
    ],
    ["createdAt at the end of year 9999 in UTC", { createdAt: "9999-12-31T09:59:59.999999999000-14:00" }],
    [
      "a date-time other than createdAt finer than a nanosecond",
      { updatedAt: "2024-01-01T00:00:00.1234567891Z" },
    ],
  ])("accepts %s", (_name, overrides) => {
    expect(() => parseDataFile(dataFileText([validPerson()], [employee(overrides)]))).not.toThrow();
  });
});

describe("parseDataFile: refused records name the record, the field and the rule", () => {
  const label = `employees[0] (id ${EMPLOYEE_ID})`;
  const address = employee().contact.address;

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      "phone of the wrong type",
      { contact: { email: null, phone: 5, address } },
      "contact.phone",
      "expected string or null",
    ],
    [
      "a missing field",
      { demographics: { firstName: "A", lastName: "B", dateOfBirth: null } },
      "demographics.gender",
      "required",
    ],
    ["an unknown field", { nickname: "Z" }, "nickname", "unknown field"],
    [
      "an unknown nested field",
      { contact: { email: null, phone: null, address: { ...address, line3: null } } },
      "contact.address.line3",
      "unknown field",
    ],
    [
      "a bad company id",
      { companyId: "acme care" },
      "companyId",
      "expected company id: 1-128 letters, digits, '-', '_' or '.'",
    ],
    [
      "an empty company id",
      { companyId: "" },
      "companyId",
      "expected company id: 1-128 letters, digits, '-', '_' or '.'",
    ],
    [
      "a 129-character company id",
      { companyId: "c".repeat(129) },
      "companyId",
      "expected company id: 1-128 letters, digits, '-', '_' or '.'",
    ],
    [
      "a bad personId",
      { personId: "not-a-uuid" },
      "personId",
      "expected uuid (8-4-4-4-12 hex digits) or null",
    ],
    [
      "an unknown external system",
      { externalIds: [{ system: "adp", system_id: "1" }] },
      "externalIds[0].system",
      'expected one of "payroll_system", "hhaexchange"',
    ],
    [
      "an empty external id",
      { externalIds: [{ system: "hhaexchange", system_id: "" }] },
      "externalIds[0].system_id",
      "must not be empty",
    ],
    ["externalIds not an array", { externalIds: {} }, "externalIds", "expected array"],
    [
      "a date of birth with a time",
      {
        demographics: { firstName: null, lastName: null, dateOfBirth: "1980-01-01T00:00:00Z", gender: null },
      },
      "demographics.dateOfBirth",
      "expected date (YYYY-MM-DD) or null",
    ],
    [
      "an impossible date",
      { demographics: { firstName: null, lastName: null, dateOfBirth: "1981-02-29", gender: null } },
      "demographics.dateOfBirth",
      "expected date (YYYY-MM-DD) or null",
    ],
    [
      "a date-time without offset",
      { createdAt: "2024-01-01T00:00:00" },
      "createdAt",
      "expected date-time (RFC 3339 with Z or an offset, e.g. 2024-05-01T09:30:00Z)",
    ],
    [
      "a date-time without seconds",
      { updatedAt: "2024-01-01T00:00Z" },
      "updatedAt",
      "expected date-time (RFC 3339 with Z or an offset, e.g. 2024-05-01T09:30:00Z)",
    ],
    [
      "a date as createdAt",
      { createdAt: "2024-01-01" },
      "createdAt",
      "expected date-time (RFC 3339 with Z or an offset, e.g. 2024-05-01T09:30:00Z)",
    ],
    [
      "a createdAt finer than a nanosecond",
      { createdAt: "2024-01-01T00:00:00.1234567891Z" },
      "createdAt",
      "expected at most 9 fractional digits (instants are kept to the nanosecond)",
    ],
    [
      "a createdAt before year 0000 in UTC",
      { createdAt: "0000-01-01T00:00:00+14:00" },
      "createdAt",
      "expected an instant from year 0000 to 9999 in UTC",
    ],
    [
      "a createdAt after year 9999 in UTC",
      { createdAt: "9999-12-31T23:59:59-14:00" },
      "createdAt",
      "expected an instant from year 0000 to 9999 in UTC",
    ],
    [
      "a leap second",
      { createdAt: "2016-12-31T23:59:60Z" },
      "createdAt",
      "expected date-time (RFC 3339 with Z or an offset, e.g. 2024-05-01T09:30:00Z)",
    ],
    [
      "an unknown membership state",
      { membership: { state: "pending", userState: null, invitation: null } },
      "membership.state",
      'expected one of "active", "revoked" or null',
    ],
    [
      "an unknown user state",
      { membership: { state: null, userState: "locked", invitation: null } },
      "membership.userState",
      'expected one of "active", "disabled" or null',
    ],
    [
      "membership without invitation key",
      { membership: { state: null, userState: null } },
      "membership.invitation",
      "required",
    ],
    [
      "an invitation without expiresAt",
      {
        membership: {
          state: null,
          userState: null,
          invitation: { status: "pending", invitedAt: "2024-01-01T00:00:00Z" },
        },
      },
      "membership.invitation.expiresAt",
      "required",
    ],
    [
      "an unknown participation decision",
      { participation: { decision: "maybe", decidedAt: null } },
      "participation.decision",
      'expected one of "opt_in", "opt_out" or null',
    ],
    [
      "an unknown coverage status",
      { coverages: [{ status: "active", startsAt: "2024-01-01", endsAt: null, planTier: "x" }] },
      "coverages[0].status",
      'expected one of "enrolled", "enrolled_not_paying", "awaiting_coverage", "waived", "terminated"',
    ],
    [
      "a bad coverage start",
      { coverages: [{ status: "enrolled", startsAt: "2024-01", endsAt: null, planTier: "x" }] },
      "coverages[0].startsAt",
      "expected date (YYYY-MM-DD) or date-time (RFC 3339 with Z or an offset, e.g. 2024-05-01T09:30:00Z)",
    ],
    [
      "a coverage end without offset",
      {
        coverages: [
          { status: "enrolled", startsAt: "2024-01-01", endsAt: "2024-12-31T00:00:00", planTier: "x" },
        ],
      },
      "coverages[0].endsAt",
      "expected date (YYYY-MM-DD) or date-time (RFC 3339 with Z or an offset, e.g. 2024-05-01T09:30:00Z) or null",
    ],
    [
      "a coverage without endsAt",
      { coverages: [{ status: "enrolled", startsAt: "2024-01-01", planTier: "x" }] },
      "coverages[0].endsAt",
      "required",
    ],
    [
      "a non-string program",
      {
        coverages: [{ status: "enrolled", startsAt: "2024-01-01", endsAt: null, planTier: "x", program: 1 }],
      },
      "coverages[0].program",
      "expected string",
    ],
    ["coverages null", { coverages: null }, "coverages", "expected array"],
    ["a contact that is not an object", { contact: "n/a" }, "contact", "expected object"],
  ])("%s", (_name, overrides, field, rule) => {
    const error = refusal(dataFileText([validPerson()], [employee(overrides)]));
    expect(error.message).toBe(`${label}: ${field}: ${rule}`);
    expect(error).toMatchObject({ record: label, field, rule });
  });

  it("names a person record", () => {
    expect(
      refusal(dataFileText([validPerson(), validPerson({ id: OTHER_ID, updatedAt: "yesterday" })], []))
        .message,
    ).toBe(
      `persons[1] (id ${OTHER_ID}): updatedAt: expected date-time (RFC 3339 with Z or an offset, e.g. 2024-05-01T09:30:00Z)`,
    );
  });

  it("names an NDJSON record by kind, line number and id", () => {
    const text = ndjson({ person: validPerson() }, { employee: employee({ contact: { email: 1 } }) });
    expect(refusal(text).message).toBe(
      `employee at line 2 (id ${EMPLOYEE_ID}): contact.email: expected string or null`,
    );
  });

  it("counts blank lines in NDJSON line numbers", () => {
    const text = `${JSON.stringify({ person: validPerson() })}\n\n\n${JSON.stringify({ person: { ...validPerson(), id: 7 } })}`;
    expect(refusal(text).message).toBe("person at line 4: id: expected uuid (8-4-4-4-12 hex digits)");
  });

  it("shows the id only when it is a uuid", () => {
    expect(refusal(dataFileText([], [employee({ id: "Jane Doe 555-0142" })])).message).toBe(
      "employees[0]: id: expected uuid (8-4-4-4-12 hex digits)",
    );
  });

  it("reports the first bad record, after validating everything before it", () => {
    const error = refusal(
      dataFileText(
        [validPerson()],
        [employee(), employee({ id: OTHER_ID, companyId: "" }), employee({ createdAt: "x" })],
      ),
    );
    expect(error.record).toBe(`employees[1] (id ${OTHER_ID})`);
  });

  it("returns nothing when only the last record is bad", () => {
    const many = Array.from({ length: 50 }, (_, i) =>
      employee({ id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}` }),
    );
    many.push(employee({ participation: { decision: "opt_in" } }));
    expect(() => parseDataFile(dataFileText([validPerson()], many))).toThrow(
      "employees[50] (id 6fa459ea-ee8a-4ca4-894e-db77e160355e): participation.decidedAt: required",
    );
  });
});

describe("parseDataFile: cross-record rules", () => {
  it("leaves a personId naming no person of the file to the load, which checks it against the directory", () => {
    // A merge may link a record to a person stored by an earlier load (lib/load refuses a link
    // that names no person once the file is applied).
    const parsed = parseDataFile(dataFileText([validPerson()], [employee({ personId: OTHER_ID })]));
    expect(parsed.employees[0]?.personId).toBe(OTHER_ID);
  });

  it("refuses duplicate person ids, also when they differ only in case", () => {
    expect(refusal(dataFileText([validPerson(), validPerson()], [])).message).toBe(
      `persons[1] (id ${PERSON_ID}): id: duplicate person id (first used by persons[0])`,
    );
    expect(
      refusal(dataFileText([validPerson(), validPerson({ id: PERSON_ID.toUpperCase() })], [])).rule,
    ).toBe("duplicate person id (first used by persons[0])");
  });

  it("refuses two employee records with the same id", () => {
    const text = ndjson(
      { person: validPerson() },
      { employee: employee() },
      { employee: employee({ companyId: "other" }) },
    );
    expect(refusal(text).message).toBe(
      `employee at line 3 (id ${EMPLOYEE_ID}): id: duplicate employee id (first used by employee at line 2)`,
    );
  });

  it("allows a person id equal to an employee id (separate kinds)", () => {
    expect(() => parseDataFile(dataFileText([validPerson()], [employee({ id: PERSON_ID })]))).not.toThrow();
  });
});

describe("parseDataFile: Social Security numbers", () => {
  const contact = employee().contact;

  it.each<[string, Record<string, unknown>, string]>([
    [
      "dashed, in an address line",
      { contact: { ...contact, address: { ...contact.address, line2: "SSN 123-45-6789" } } },
      "contact.address.line2",
    ],
    ["9 digits as a phone", { contact: { ...contact, phone: "123456789" } }, "contact.phone"],
    [
      "9 digits as an external id",
      { externalIds: [{ system: "payroll_system", system_id: "123456789" }] },
      "externalIds[0].system_id",
    ],
    [
      "in a name",
      { demographics: { firstName: "123-45-6789", lastName: null, dateOfBirth: null, gender: null } },
      "demographics.firstName",
    ],
    [
      "in a plan tier",
      {
        coverages: [
          { status: "enrolled", startsAt: "2024-01-01", endsAt: null, planTier: "987654321", program: "x" },
        ],
      },
      "coverages[0].planTier",
    ],
    [
      "in an invitation status",
      {
        membership: {
          state: null,
          userState: null,
          invitation: {
            status: "sent to 123-45-6789",
            invitedAt: "2024-01-01T00:00:00Z",
            expiresAt: "2024-01-08T00:00:00Z",
          },
        },
      },
      "membership.invitation.status",
    ],
    ["full-width", { contact: { ...contact, email: "１２３－４５－６７８９" } }, "contact.email"],
  ])("refuses one %s, without echoing it", (_name, overrides, field) => {
    const error = refusal(dataFileText([validPerson()], [employee(overrides)]));
    expect(error.field).toBe(field);
    expect(error.rule).toBe("looks like a full Social Security number, which is refused");
    expect(error.message).not.toMatch(/6789|987654321|123456789|６７８９/);
  });

  it.each([
    ["a 10-digit phone", { contact: { ...contact, phone: "2125550142" } }],
    ["an 11-digit phone", { contact: { ...contact, phone: "+12125550142" } }],
    ["a ZIP+4", { contact: { ...contact, address: { ...contact.address, postalCode: "78701-1234" } } }],
    [
      "nanosecond timestamps",
      { createdAt: "2024-01-01T00:00:00.123456789Z", updatedAt: "2024-01-01T00:00:00.987654321+01:00" },
    ],
    ["a uuid with a 9-digit run", { id: "3f2504e0-4f89-41d3-9a0c-abc123456789" }],
  ])("accepts %s", (_name, overrides) => {
    expect(() => parseDataFile(dataFileText([validPerson()], [employee(overrides)]))).not.toThrow();
  });
});

describe("parseDataFile: file-level errors", () => {
  it.each([
    ["", "data file: is empty; expected JSON {persons, employees} or NDJSON"],
    ["  \n\n", "data file: is empty; expected JSON {persons, employees} or NDJSON"],
    ["[]", "data file: expected an object {persons, employees}"],
    ["42", "data file: expected an object {persons, employees}"],
    ['{"persons": []}', "data file: employees: required"],
    ['{"persons": {}, "employees": []}', "data file: persons: expected array"],
    ['{"persons": [], "employees": [], "keys": []}', "data file: keys: unknown field"],
    ['{\n  "persons": [],\n  "employees": [\n}', "data file: not valid JSON"],
    ['{"persons": [], "employees": [] "x": 1}', "data file: not valid JSON at line 1, column 33"],
    [`${JSON.stringify({ person: validPerson() })}\n{"employee": `, "line 2: not valid JSON"],
    [
      '{"person": {}, "employee": {}}\n{"person": {}}',
      'line 1: expected an object with one key, "person" or "employee"',
    ],
    ['{"persons": []}\n{"person": {}}', 'line 1: expected an object with one key, "person" or "employee"'],
    [
      '{"op": "upsert", "person": {}}\n{"op": "delete", "person": "x"}',
      'line 1: expected an object with one key, "person" or "employee"; it is a change line ("op"): load a changes file with --mode changes',
    ],
    ['{"person": {"id": "x"}}', "person at line 1: id: expected uuid (8-4-4-4-12 hex digits)"],
  ])("%j → %s", (text, message) => {
    expect(refusal(text).message).toBe(message);
  });

  it("does not quote the file in a JSON syntax error", () => {
    const error = refusal('{"persons": [{"id": 123-45-6789}], "employees": []}');
    expect(error.message).not.toContain("6789");
  });
});
