/**
 * Zod schemas of the API's response objects, field for field as the interface spec's tables
 * (every field required, nullable where the spec says "or null", no extra properties). They are
 * the single source for the OpenAPI document and for checking responses in tests, so `.meta`
 * carries the component names and the notes a partner reads.
 */
import { z } from "zod";
import {
  COVERAGE_STATUSES,
  EXTERNAL_ID_SYSTEMS,
  MEMBERSHIP_STATUSES,
  PARTICIPATION_DECISIONS,
} from "./vocabulary.js";

/** RFC 3339 date-time with `Z` or a numeric offset (seconds required, fraction optional). */
const dateTime = () => z.iso.datetime({ offset: true });
/** Calendar date `YYYY-MM-DD`. */
const date = () => z.iso.date();
/** 8-4-4-4-12 hex. The service emits ids lower-cased (docs/data-format.md). */
const uuid = () => z.guid();
const nullableString = () => z.string().nullable();

export const ApiExternalIdSchema = z
  .strictObject({
    system: z.enum(EXTERNAL_ID_SYSTEMS),
    system_id: z.string().meta({ description: "Identifier in that system" }),
  })
  .meta({ id: "ExternalId" });

export const ApiDemographicsSchema = z.strictObject({
  firstName: nullableString(),
  lastName: nullableString(),
  dateOfBirth: date().nullable(),
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
  phone: nullableString().meta({ description: "As stored; matched by the phone filter after normalization" }),
  address: ApiAddressSchema,
});

const ApiInvitationSchema = z.strictObject({
  status: z.string(),
  invitedAt: dateTime(),
  expiresAt: dateTime(),
});

export const ApiMembershipSchema = z.strictObject({
  status: z.enum(MEMBERSHIP_STATUSES).meta({
    description:
      "Derived at asOf from membership, invitation and linked user state; membership takes precedence",
  }),
  invitation: ApiInvitationSchema.nullable(),
});

export const ApiParticipationSchema = z.strictObject({
  decision: z.enum(PARTICIPATION_DECISIONS).nullable(),
  decidedAt: dateTime().nullable(),
});

export const ApiCoverageSchema = z.strictObject({
  status: z.enum(COVERAGE_STATUSES),
  startsAt: date(),
  endsAt: date().nullable(),
  planTier: z.string(),
});

export const ApiEmployeeSchema = z
  .strictObject({
    id: uuid().meta({ description: "Employee-record identifier" }),
    companyId: z.string().meta({ description: "Company identifier" }),
    personId: uuid().nullable().meta({ description: "Linked person; null when identity is unresolved" }),
    externalIds: z.array(ApiExternalIdSchema),
    demographics: ApiDemographicsSchema,
    contact: ApiContactSchema,
    membership: ApiMembershipSchema,
    participation: ApiParticipationSchema.nullable().meta({
      description: "Null when no applicable participation record exists; separate from membership",
    }),
    coverage: ApiCoverageSchema.nullable().meta({
      description: "The coverage record applicable at asOf; null when the employee has none",
    }),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  })
  .meta({ id: "Employee", description: "One employment record" });

export const ApiPersonSchema = z
  .strictObject({
    id: uuid().meta({ description: "Person identifier" }),
    employments: z.array(ApiEmployeeSchema).meta({
      description: "All employments in authorized companies, including terminated ones",
    }),
    createdAt: dateTime(),
    updatedAt: dateTime().meta({
      description: "Timestamp of the person row only; not a watermark for the nested employment data",
    }),
  })
  .meta({ id: "Person" });

export const ApiPaginationSchema = z
  .strictObject({
    limit: z.int().min(1).max(100),
    offset: z.int().min(0),
    total: z.int().min(0).meta({ description: "Items matching all filters, across all pages, at asOf" }),
  })
  .meta({ id: "Pagination" });

export const ApiPersonsSearchResponseSchema = z
  .strictObject({ asOf: dateTime(), persons: z.array(ApiPersonSchema), pagination: ApiPaginationSchema })
  .meta({ id: "PersonsSearchResponse" });

export const ApiEmployeesSearchResponseSchema = z
  .strictObject({ asOf: dateTime(), employees: z.array(ApiEmployeeSchema), pagination: ApiPaginationSchema })
  .meta({ id: "EmployeesSearchResponse" });

export type ApiExternalId = z.infer<typeof ApiExternalIdSchema>;
export type ApiMembership = z.infer<typeof ApiMembershipSchema>;
export type ApiCoverage = z.infer<typeof ApiCoverageSchema>;
export type ApiEmployee = z.infer<typeof ApiEmployeeSchema>;
export type ApiPerson = z.infer<typeof ApiPersonSchema>;
export type ApiPagination = z.infer<typeof ApiPaginationSchema>;
export type ApiPersonsSearchResponse = z.infer<typeof ApiPersonsSearchResponseSchema>;
export type ApiEmployeesSearchResponse = z.infer<typeof ApiEmployeesSearchResponseSchema>;
