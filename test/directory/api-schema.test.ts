import * as z from "zod/mini";
import {
  ApiContactSchema,
  ApiCoverageSchema,
  ApiDemographicsSchema,
  ApiEmployeeSchema,
  ApiEmployeesSearchResponseSchema,
  ApiExternalIdSchema,
  ApiMembershipSchema,
  ApiPaginationSchema,
  ApiParticipationSchema,
  ApiPersonSchema,
  ApiPersonsSearchResponseSchema,
} from "../../lib/directory/api-schema.js";
import { toApiEmployee } from "../../lib/directory/derive.js";
import { parsedValidEmployee } from "./fixtures.js";

const employee = toApiEmployee(parsedValidEmployee(), { asOf: new Date("2025-06-15T00:00:00Z") });
const pagination = { limit: 50, offset: 0, total: 1 };

describe("API schemas follow the spec's field tables", () => {
  it.each<[string, z.ZodMiniObject, string[]]>([
    [
      "Employee",
      ApiEmployeeSchema,
      [
        "id",
        "companyId",
        "personId",
        "externalIds",
        "demographics",
        "contact",
        "membership",
        "participation",
        "coverage",
        "createdAt",
        "updatedAt",
      ],
    ],
    ["Person", ApiPersonSchema, ["id", "employments", "createdAt", "updatedAt"]],
    ["ExternalId", ApiExternalIdSchema, ["system", "system_id"]],
    ["demographics", ApiDemographicsSchema, ["firstName", "lastName", "dateOfBirth", "gender"]],
    ["contact", ApiContactSchema, ["email", "phone", "address"]],
    ["membership", ApiMembershipSchema, ["status", "invitation"]],
    ["participation", ApiParticipationSchema, ["decision", "decidedAt"]],
    ["coverage", ApiCoverageSchema, ["status", "startsAt", "endsAt", "planTier"]],
    ["Pagination", ApiPaginationSchema, ["limit", "offset", "total"]],
    ["persons search response", ApiPersonsSearchResponseSchema, ["asOf", "persons", "pagination"]],
    ["employees search response", ApiEmployeesSearchResponseSchema, ["asOf", "employees", "pagination"]],
  ])("%s has exactly the spec's fields, all required, no others", (_name, schema, fields) => {
    expect(Object.keys(schema.shape)).toEqual(fields);
    type ObjectSchema = { required?: string[]; additionalProperties?: unknown };
    const root = z.toJSONSchema(schema, { io: "output" }) as ObjectSchema & {
      $ref?: string;
      $defs?: Record<string, ObjectSchema>;
    };
    // A named component (Employee, Person, …) comes out as a $ref to its definition.
    const json = root.$ref === undefined ? root : root.$defs?.[root.$ref.replace("#/$defs/", "")];
    expect(json?.required).toEqual(fields);
    expect(json?.additionalProperties).toBe(false);
  });
});

describe("ApiEmployeeSchema", () => {
  it("accepts a derived employee", () => {
    expect(ApiEmployeeSchema.safeParse(employee).success).toBe(true);
  });

  it.each<[string, unknown]>([
    ["an extra property", { ...employee, coverages: [] }],
    ["a missing property", (({ coverage: _c, ...rest }) => rest)(employee)],
    ["an unknown membership status", { ...employee, membership: { status: "pending", invitation: null } }],
    [
      "a coverage date-time (must be YYYY-MM-DD)",
      {
        ...employee,
        coverage: { status: "enrolled", startsAt: "2024-01-01T00:00:00Z", endsAt: null, planTier: "x" },
      },
    ],
    [
      "a coverage with a program",
      {
        ...employee,
        coverage: {
          status: "enrolled",
          startsAt: "2024-01-01",
          endsAt: null,
          planTier: "x",
          program: "dental",
        },
      },
    ],
    ["an unknown external system", { ...employee, externalIds: [{ system: "adp", system_id: "1" }] }],
    ["an undefined participation (must be null)", { ...employee, participation: undefined }],
    ["a createdAt without offset", { ...employee, createdAt: "2024-01-01T00:00:00" }],
    ["a non-uuid personId", { ...employee, personId: "p1" }],
  ])("refuses %s", (_name, value) => {
    expect(ApiEmployeeSchema.safeParse(value).success).toBe(false);
  });
});

describe("search responses", () => {
  it("accept a well-formed page", () => {
    const person = {
      id: employee.personId,
      employments: [employee],
      createdAt: employee.createdAt,
      updatedAt: employee.updatedAt,
    };
    expect(
      ApiPersonsSearchResponseSchema.safeParse({
        asOf: "2025-06-15T00:00:00.000Z",
        persons: [person],
        pagination,
      }).success,
    ).toBe(true);
    expect(
      ApiEmployeesSearchResponseSchema.safeParse({
        asOf: "2025-06-15T00:00:00Z",
        employees: [employee],
        pagination,
      }).success,
    ).toBe(true);
  });

  it.each([
    { limit: 0, offset: 0, total: 0 },
    { limit: 101, offset: 0, total: 0 },
    { limit: 50, offset: -1, total: 0 },
    { limit: 50, offset: 0, total: 1.5 },
    { limit: 50, offset: 0 },
  ])("refuse pagination %j", (bad) => {
    expect(
      ApiEmployeesSearchResponseSchema.safeParse({
        asOf: "2025-06-15T00:00:00Z",
        employees: [],
        pagination: bad,
      }).success,
    ).toBe(false);
  });
});
