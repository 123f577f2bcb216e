/**
 * Zod schemas of the API's response objects, field for field as the interface spec's tables
 * (every field required, nullable where the spec says "or null", no extra properties). They are
 * the single source for the OpenAPI document and for checking responses in tests, so their
 * metadata (`describe`, `component`) carries the component names and the notes a partner reads.
 * Zod Mini, like the request schemas: the route table (lib/routes.ts) binds them to the routes, and
 * every Lambda bundles that table.
 */
import * as z from "zod/mini";
import {
  COVERAGE_STATUSES,
  EXTERNAL_ID_SYSTEMS,
  MEMBERSHIP_STATUSES,
  PARTICIPATION_DECISIONS,
} from "./vocabulary.js";

/** Registers `schema` with a description for the OpenAPI document (classic Zod's `.meta`). */
function describe<T extends z.ZodMiniType>(schema: T, description: string): T {
  z.globalRegistry.add(schema as z.ZodMiniType, { description });
  return schema;
}

/** Registers `schema` as a named component of the OpenAPI document. */
function component<T extends z.ZodMiniType>(schema: T, id: string, description?: string): T {
  z.globalRegistry.add(schema as z.ZodMiniType, description === undefined ? { id } : { id, description });
  return schema;
}

/** RFC 3339 date-time with `Z` or a numeric offset (seconds required, fraction optional). */
const dateTime = () => z.iso.datetime({ offset: true });
/** Calendar date `YYYY-MM-DD`. */
const date = () => z.iso.date();
/** 8-4-4-4-12 hex. The service emits ids lower-cased (docs/data-format.md). */
const uuid = () => z.guid();
const nullableString = () => z.nullable(z.string());

export const ApiExternalIdSchema = component(
  z.strictObject({
    system: z.enum(EXTERNAL_ID_SYSTEMS),
    system_id: describe(z.string(), "Identifier in that system"),
  }),
  "ExternalId",
);

export const ApiDemographicsSchema = z.strictObject({
  firstName: nullableString(),
  lastName: nullableString(),
  dateOfBirth: z.nullable(date()),
  gender: nullableString(),
});

const ApiAddressSchema = z.strictObject({
  line1: nullableString(),
  line2: nullableString(),
  city: nullableString(),
  state: nullableString(),
  postalCode: nullableString(),
});

export const ApiContactSchema = z.strictObject({
  email: nullableString(),
  phone: describe(nullableString(), "As stored; matched by the phone filter after normalization"),
  address: ApiAddressSchema,
});

const ApiInvitationSchema = z.strictObject({
  status: z.string(),
  invitedAt: dateTime(),
  expiresAt: dateTime(),
});

export const ApiMembershipSchema = z.strictObject({
  status: describe(
    z.enum(MEMBERSHIP_STATUSES),
    "Derived at asOf from membership, invitation and linked user state; membership takes precedence",
  ),
  invitation: z.nullable(ApiInvitationSchema),
});

export const ApiParticipationSchema = z.strictObject({
  decision: z.nullable(z.enum(PARTICIPATION_DECISIONS)),
  decidedAt: z.nullable(dateTime()),
});

export const ApiCoverageSchema = z.strictObject({
  status: z.enum(COVERAGE_STATUSES),
  startsAt: date(),
  endsAt: z.nullable(date()),
  planTier: z.string(),
});

export const ApiEmployeeSchema = component(
  z.strictObject({
    id: describe(uuid(), "Employee-record identifier"),
    companyId: describe(z.string(), "Company identifier"),
    personId: describe(z.nullable(uuid()), "Linked person; null when identity is unresolved"),
    externalIds: z.array(ApiExternalIdSchema),
    demographics: ApiDemographicsSchema,
    contact: ApiContactSchema,
    membership: ApiMembershipSchema,
    participation: describe(
      z.nullable(ApiParticipationSchema),
      "Null when no applicable participation record exists; separate from membership",
    ),
    coverage: describe(
      z.nullable(ApiCoverageSchema),
      "The coverage record applicable at asOf; null when the employee has none",
    ),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  }),
  "Employee",
  "One employment record",
);

export const ApiPersonSchema = component(
  z.strictObject({
    id: describe(uuid(), "Person identifier"),
    employments: describe(
      z.array(ApiEmployeeSchema),
      "All employments in authorized companies, including terminated ones",
    ),
    createdAt: dateTime(),
    updatedAt: describe(
      dateTime(),
      "Timestamp of the person row only; not a watermark for the nested employment data",
    ),
  }),
  "Person",
);

export const ApiPaginationSchema = component(
  z.strictObject({
    limit: z.int().check(z.minimum(1), z.maximum(100)),
    offset: z.int().check(z.minimum(0)),
    total: describe(z.int().check(z.minimum(0)), "Items matching all filters, across all pages, at asOf"),
  }),
  "Pagination",
);

export const ApiPersonsSearchResponseSchema = component(
  z.strictObject({ asOf: dateTime(), persons: z.array(ApiPersonSchema), pagination: ApiPaginationSchema }),
  "PersonsSearchResponse",
);

export const ApiEmployeesSearchResponseSchema = component(
  z.strictObject({
    asOf: dateTime(),
    employees: z.array(ApiEmployeeSchema),
    pagination: ApiPaginationSchema,
  }),
  "EmployeesSearchResponse",
);

export type ApiExternalId = z.infer<typeof ApiExternalIdSchema>;
export type ApiMembership = z.infer<typeof ApiMembershipSchema>;
export type ApiCoverage = z.infer<typeof ApiCoverageSchema>;
export type ApiEmployee = z.infer<typeof ApiEmployeeSchema>;
export type ApiPerson = z.infer<typeof ApiPersonSchema>;
export type ApiPagination = z.infer<typeof ApiPaginationSchema>;
export type ApiPersonsSearchResponse = z.infer<typeof ApiPersonsSearchResponseSchema>;
export type ApiEmployeesSearchResponse = z.infer<typeof ApiEmployeesSearchResponseSchema>;
