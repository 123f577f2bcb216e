/**
 * Zod schemas of the API's response objects, field for field as the interface spec's tables
 * (every field required, nullable where the spec says "or null", no extra properties). They are
 * the single source for the OpenAPI document and for checking responses in tests, so their
 * metadata (`describe`, `component`) carries the component names and the notes a partner reads:
 * every field is described (the partner guide's field tables, lib/openapi/field-tables.ts, refuse
 * a field without).
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
export function describe<T extends z.ZodMiniType>(schema: T, description: string): T {
  z.globalRegistry.add(schema as z.ZodMiniType, { description });
  return schema;
}

/** Registers `schema` as a named component of the OpenAPI document. */
export function component<T extends z.ZodMiniType>(schema: T, id: string, description?: string): T {
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
    system: describe(z.enum(EXTERNAL_ID_SYSTEMS), "The external system"),
    system_id: describe(z.string(), "Identifier in that system"),
  }),
  "ExternalId",
);

export const ApiDemographicsSchema = z.strictObject({
  firstName: describe(nullableString(), "As stored; the `firstName` filter matches it"),
  lastName: describe(nullableString(), "As stored; the `lastName` filter matches it"),
  dateOfBirth: describe(z.nullable(date()), "Date of birth"),
  gender: describe(nullableString(), "As stored; no fixed set of values"),
});

const ApiAddressSchema = z.strictObject({
  line1: describe(nullableString(), "First address line"),
  line2: describe(nullableString(), "Second address line"),
  city: describe(nullableString(), "City"),
  state: describe(nullableString(), "State"),
  postalCode: describe(nullableString(), "Postal code"),
});

export const ApiContactSchema = z.strictObject({
  email: describe(nullableString(), "Email address"),
  phone: describe(nullableString(), "As stored; the `phone` filter matches it normalized"),
  address: describe(ApiAddressSchema, "Postal address, as stored"),
});

const ApiInvitationSchema = z.strictObject({
  status: describe(z.string(), "As stored (e.g. `pending`, `expired`)"),
  invitedAt: describe(dateTime(), "When the invitation was sent"),
  expiresAt: describe(dateTime(), "When the invitation lapses"),
});

export const ApiMembershipSchema = z.strictObject({
  status: describe(
    z.enum(MEMBERSHIP_STATUSES),
    "Derived at asOf from membership, invitation and linked user state",
  ),
  invitation: describe(z.nullable(ApiInvitationSchema), "As stored, whatever the status; null if none"),
});

export const ApiParticipationSchema = z.strictObject({
  decision: describe(
    z.nullable(z.enum(PARTICIPATION_DECISIONS)),
    "Benefits participation choice; null if not made",
  ),
  decidedAt: describe(z.nullable(dateTime()), "When the decision was made"),
});

export const ApiCoverageSchema = z.strictObject({
  status: describe(z.enum(COVERAGE_STATUSES), "Coverage status"),
  startsAt: describe(date(), "First day covered"),
  endsAt: describe(z.nullable(date()), "Last day covered; null when open-ended"),
  planTier: describe(z.string(), "Plan tier, as stored (e.g. `family`)"),
});

export const ApiEmployeeSchema = component(
  z.strictObject({
    id: describe(uuid(), "Employee-record identifier"),
    companyId: describe(z.string(), "Company identifier"),
    personId: describe(z.nullable(uuid()), "Linked person; null when identity is unresolved"),
    externalIds: describe(
      z.array(ApiExternalIdSchema),
      "In stored order, duplicates kept; `externalIdSystems` selects which",
    ),
    demographics: describe(ApiDemographicsSchema, "Name, date of birth and gender"),
    contact: describe(ApiContactSchema, "Email, phone and postal address"),
    membership: describe(ApiMembershipSchema, "Membership status and invitation"),
    participation: describe(
      z.nullable(ApiParticipationSchema),
      "Null when none applies; separate from membership",
    ),
    coverage: describe(
      z.nullable(ApiCoverageSchema),
      "The coverage record applicable at asOf; null when none",
    ),
    createdAt: describe(dateTime(), "Creation time, as stored; employees search sorts and bounds by it"),
    updatedAt: describe(dateTime(), "When the record was last changed, as stored"),
  }),
  "Employee",
  "One employment record",
);

export const ApiPersonSchema = component(
  z.strictObject({
    id: describe(uuid(), "Person identifier"),
    employments: describe(
      z.array(ApiEmployeeSchema),
      "All employments in companies the key may read, terminated ones included",
    ),
    createdAt: describe(dateTime(), "Creation time, as stored; persons search sorts and bounds by it"),
    updatedAt: describe(dateTime(), "Last change of the person alone; not of its employments"),
  }),
  "Person",
);

export const ApiPaginationSchema = component(
  z.strictObject({
    limit: describe(z.int().check(z.minimum(1), z.maximum(100)), "Page size asked for (default 50)"),
    offset: describe(z.int().check(z.minimum(0)), "Items before this page (default 0)"),
    total: describe(z.int().check(z.minimum(0)), "All matches, across all pages, at asOf"),
  }),
  "Pagination",
);

/** When the request was served: what `membership` and `coverage` are derived against. */
const asOf = () => describe(dateTime(), "When served; membership and coverage are derived at it");
/** The page's place in the whole result; a clone, so the component keeps its own metadata. */
const pagination = () => describe(ApiPaginationSchema.clone(), "Where this page lies in all matches");

export const ApiPersonsSearchResponseSchema = component(
  z.strictObject({
    asOf: asOf(),
    persons: describe(z.array(ApiPersonSchema), "The page, by `createdAt`, then `id`"),
    pagination: pagination(),
  }),
  "PersonsSearchResponse",
);

export const ApiEmployeesSearchResponseSchema = component(
  z.strictObject({
    asOf: asOf(),
    employees: describe(z.array(ApiEmployeeSchema), "The page, by `createdAt`, then `id`"),
    pagination: pagination(),
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
