/**
 * What each route takes and answers, as Zod schemas: the request and response schemas are the
 * very ones the handlers validate with and the tests check against.
 */
import type * as core from "zod/v4/core";
import { ApiEmployeesSearchResponseSchema, ApiPersonsSearchResponseSchema } from "../directory/api-schema.js";
import { greetingSchema } from "../greeting/greet-company.js";
import type { ErrorCode } from "../http/errors.js";
import type { RouteId } from "../routes.js";
import { employeesSearchRequestSchema, personsSearchRequestSchema } from "../search/request-schemas.js";

export interface RouteContract {
  readonly summary: string;
  readonly description: string;
  readonly request?: core.$ZodType;
  /** Persons search may be sent with no body at all. */
  readonly requestRequired?: boolean;
  readonly response: core.$ZodType;
  /** Error statuses the route answers, with the `error` values of each. */
  readonly errors: Readonly<Record<number, readonly [ErrorCode, ...ErrorCode[]]>>;
}

const COMMON_ERRORS = {
  401: ["invalid_api_key"],
  403: ["forbidden"],
  429: ["rate_limited"],
  500: ["internal_error"],
} as const;

const SEARCH_RULES = `Filters combine with AND. Results sort by \`createdAt\`, oldest first, ties broken by \`id\` (plain string order); offset paging over that order does not skip. \`pagination.total\` counts every match across all pages. \`externalIdSystems\` only selects which external IDs are returned (omitted: all) and never filters. Names match as case-insensitive substrings after Unicode NFKC; phones may use spaces, \`-\`, \`.\`, \`(\`, \`)\`, \`+\` and a leading country code 1, and must come to exactly 10 digits. Unknown fields are refused (400). A body over 1 MiB is refused (400). A page whose JSON would exceed 6 MB is answered 500, never truncated: use a smaller \`limit\`.`;

const DRAFT =
  "**Draft** (coming soon): served only in `dev` (and locally); not deployed in `sandbox` or `prod`, where it answers 404. Its contract may change before release.";

export const ROUTE_CONTRACTS: Readonly<Record<RouteId, RouteContract>> = {
  "persons-search": {
    summary: "Search persons",
    description: `${DRAFT}\n\nEach person once, with all their employments in every company the key may read, terminated ones included. \`companyId\`, \`firstName\`, \`lastName\` and \`phone\` must all match **the same** employment in a company the key may read. Filters select people and never trim \`employments\`. \`createdFrom\` (inclusive) and \`createdBefore\` (exclusive) bound the **person's** \`createdAt\`. Paging counts people, not employments. Employee records with no person are never returned here. The body may be omitted (all defaults). A \`companyId\` the key may not read is refused (403).\n\n${SEARCH_RULES}`,
    request: personsSearchRequestSchema,
    requestRequired: false,
    response: ApiPersonsSearchResponseSchema,
    errors: { 400: ["invalid_input"], ...COMMON_ERRORS, 404: ["not_found"] },
  },
  "employees-search": {
    summary: "Search employees",
    description: `${DRAFT}\n\nEmployee records of one company the key may read (\`companyId\` is required; 403 otherwise), including records with no linked person, terminated records and duplicate records. \`participation\` and \`coverage\` are null when no applicable record exists.\n\n${SEARCH_RULES}`,
    request: employeesSearchRequestSchema,
    requestRequired: true,
    response: ApiEmployeesSearchResponseSchema,
    errors: { 400: ["invalid_input"], ...COMMON_ERRORS, 404: ["not_found"] },
  },
  "companies-hello": {
    summary: "Hello world",
    description:
      "Returns a fixed greeting for a company the key may read: a check of connectivity, key and company access. Not a draft.",
    response: greetingSchema,
    errors: { 400: ["invalid_company_id"], ...COMMON_ERRORS },
  },
};
