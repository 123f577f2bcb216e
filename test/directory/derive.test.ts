import { ApiEmployeeSchema, ApiPersonSchema } from "../../lib/directory/api-schema.js";
import { selectExternalIds, toApiEmployee, toApiPerson } from "../../lib/directory/derive.js";
import type { SourceExternalId } from "../../lib/directory/source.js";
import { EMPLOYEE_ID, PERSON_ID, parsedValidEmployee } from "./fixtures.js";

const AS_OF = new Date("2025-06-15T12:00:00Z");

describe("selectExternalIds", () => {
  const ids: SourceExternalId[] = [
    { system: "payroll_system", system_id: "PR-1" },
    { system: "hhaexchange", system_id: "HHX-1" },
    { system: "payroll_system", system_id: "PR-2" },
    { system: "payroll_system", system_id: "PR-2" },
  ];

  it.each<[string, readonly string[] | undefined, string[]]>([
    ["omitted: every id, in order, duplicates kept", undefined, ["PR-1", "HHX-1", "PR-2", "PR-2"]],
    ["empty list: none", [], []],
    ["one system", ["hhaexchange"], ["HHX-1"]],
    ["the other system", ["payroll_system"], ["PR-1", "PR-2", "PR-2"]],
    ["both systems", ["hhaexchange", "payroll_system"], ["PR-1", "HHX-1", "PR-2", "PR-2"]],
    ["a system listed twice", ["hhaexchange", "hhaexchange"], ["HHX-1"]],
  ])("%s", (_name, systems, expected) => {
    expect(selectExternalIds(ids, systems).map((id) => id.system_id)).toEqual(expected);
  });

  it("returns copies", () => {
    const [first] = selectExternalIds(ids);
    expect(first).toEqual(ids[0]);
    expect(first).not.toBe(ids[0]);
  });
});

describe("toApiEmployee", () => {
  it("returns the complete API Employee", () => {
    const record = parsedValidEmployee({
      membership: {
        state: null,
        userState: null,
        invitation: {
          status: "pending",
          invitedAt: "2025-06-01T00:00:00Z",
          expiresAt: "2025-06-08T00:00:00Z",
        },
      },
      coverages: [
        { status: "terminated", startsAt: "2023-01-01", endsAt: "2023-12-31", planTier: "employee_only" },
        {
          status: "enrolled",
          startsAt: "2024-01-01T00:00:00-05:00",
          endsAt: null,
          planTier: "family",
          program: "medical",
        },
      ],
    });
    const api = toApiEmployee(record, { asOf: AS_OF });
    expect(api).toEqual({
      id: EMPLOYEE_ID,
      companyId: "acme-home-care",
      personId: PERSON_ID,
      externalIds: [
        { system: "payroll_system", system_id: "PR-000123" },
        { system: "hhaexchange", system_id: "HHX0004567" },
      ],
      demographics: { firstName: "Zoë", lastName: "Weiß", dateOfBirth: "1980-02-29", gender: "female" },
      contact: {
        email: "zoe@example.com",
        phone: "(212) 555-0142",
        address: { line1: "1 Main St", line2: null, city: "Austin", state: "TX", postalCode: "78701" },
      },
      membership: {
        status: "invited_expired",
        invitation: {
          status: "pending",
          invitedAt: "2025-06-01T00:00:00Z",
          expiresAt: "2025-06-08T00:00:00Z",
        },
      },
      participation: { decision: "opt_in", decidedAt: "2024-02-01T12:00:00Z" },
      coverage: { status: "enrolled", startsAt: "2024-01-01", endsAt: null, planTier: "family" },
      createdAt: "2024-01-01T00:00:00Z",
      updatedAt: "2024-01-02T00:00:00Z",
    });
    expect(ApiEmployeeSchema.parse(api)).toEqual(api);
    expect(Object.keys(api)).toEqual(Object.keys(ApiEmployeeSchema.shape));
  });

  it("has null participation and coverage when the record has none", () => {
    const api = toApiEmployee(parsedValidEmployee({ participation: null, coverages: [] }), { asOf: AS_OF });
    expect(api.participation).toBeNull();
    expect(api.coverage).toBeNull();
    expect(ApiEmployeeSchema.safeParse(api).success).toBe(true);
  });

  it("keeps a record with no person and an unusable phone as stored", () => {
    const record = parsedValidEmployee({ personId: null });
    record.contact.phone = "555-0142 ext. 7";
    const api = toApiEmployee(record, { asOf: AS_OF });
    expect(api.personId).toBeNull();
    expect(api.contact.phone).toBe("555-0142 ext. 7");
  });

  it("applies externalIdSystems to the ids only", () => {
    const api = toApiEmployee(parsedValidEmployee(), { asOf: AS_OF, externalIdSystems: ["hhaexchange"] });
    expect(api.externalIds).toEqual([{ system: "hhaexchange", system_id: "HHX0004567" }]);
    expect(toApiEmployee(parsedValidEmployee(), { asOf: AS_OF, externalIdSystems: [] }).externalIds).toEqual(
      [],
    );
  });

  it("derives membership and coverage against asOf", () => {
    const record = parsedValidEmployee({
      membership: {
        state: null,
        userState: null,
        invitation: {
          status: "pending",
          invitedAt: "2025-06-01T00:00:00Z",
          expiresAt: "2025-06-08T00:00:00Z",
        },
      },
      coverages: [{ status: "awaiting_coverage", startsAt: "2025-07-01", endsAt: null, planTier: "family" }],
    });
    const early = toApiEmployee(record, { asOf: new Date("2025-06-02T00:00:00Z") });
    expect(early.membership.status).toBe("invited_pending");
    expect(early.coverage?.status).toBe("awaiting_coverage");
  });

  it("shares no object with the source record", () => {
    const record = parsedValidEmployee();
    const api = toApiEmployee(record, { asOf: AS_OF });
    api.demographics.firstName = "changed";
    api.contact.address.city = "changed";
    expect(record.demographics.firstName).toBe("Zoë");
    expect(record.contact.address.city).toBe("Austin");
  });
});

describe("toApiPerson", () => {
  it("wraps the person row and its employments", () => {
    const employment = toApiEmployee(parsedValidEmployee(), { asOf: AS_OF });
    const person = toApiPerson(
      { id: PERSON_ID, createdAt: "2024-01-01T00:00:00Z", updatedAt: "2024-01-02T00:00:00+01:00" },
      [employment],
    );
    expect(person).toEqual({
      id: PERSON_ID,
      employments: [employment],
      createdAt: "2024-01-01T00:00:00Z",
      updatedAt: "2024-01-02T00:00:00+01:00",
    });
    expect(ApiPersonSchema.safeParse(person).success).toBe(true);
  });
});
