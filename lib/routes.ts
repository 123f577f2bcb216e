/**
 * The one route table: each route's whole contract in one entry. Its method and path, the Lambda
 * entry, the operation a key needs, the API (host) it belongs to, whether it is a draft, the tables
 * its function may read, and the Zod schemas of its body, path parameters and answer. The handlers
 * (through lib/http/pipeline.ts), the local gateway, the CDK stacks, the OpenAPI document and the
 * typed client's types are all built from it; nothing else declares a route.
 *
 * Every Lambda bundles this file: it may import schemas and errors, never CDK or OpenAPI code.
 */
import type * as core from "zod/v4/core";
import type { Operation } from "./auth/operations.js";
import { ApiEmployeesSearchResponseSchema, ApiPersonsSearchResponseSchema } from "./directory/api-schema.js";
import { greetingPathSchema, greetingSchema } from "./greeting/greet-company.js";
import { type ApiError, type ErrorCode, InvalidCompanyIdError } from "./http/errors.js";
import { keyDescriptionSchema } from "./keys/describe-key.js";
import { employeesSearchRequestSchema, personsSearchRequestSchema } from "./search/request-schemas.js";
import type { TableId } from "./store/tables.js";

/** The two REST APIs: {base_url} serves the searches, {hello_base_url} the greeting. */
export type ApiId = "search" | "greeting";

/** A route's JSON body: a strict schema; the route takes no body without one. */
interface BodyContract {
  readonly schema: core.$ZodType;
  /** False when the body may be omitted (it is then validated as `{}`). Documentation only. */
  readonly required: boolean;
}

/** A route's `{name}` path parameters (API Gateway's `pathParameters`, `{}` when it sends none). */
export interface PathParametersContract {
  /** One property per `{name}` of the path; its output is what the handler gets. */
  readonly schema: core.$ZodObject;
  /** The contract's answer to parameters the schema refuses. */
  readonly refusal: () => ApiError;
}

/** Error statuses a route answers, with the `error` values of each. */
type RouteErrors = Readonly<Partial<Record<number, readonly [ErrorCode, ...ErrorCode[]]>>>;

export interface RouteDefinition {
  /** Stable name; also the Lambda function's logical name and the log field `route`. */
  readonly id: string;
  readonly method: "GET" | "POST";
  /** API Gateway resource path; `{name}` is a path parameter. */
  readonly path: string;
  /** Lambda entry, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  /**
   * The operation a key must hold; `null`: any valid key may call the route (it answers about the
   * key itself, so it needs no grant). Never a grant made up for a route.
   */
  readonly operation: Operation | null;
  readonly api: ApiId;
  /** Draft routes are served only in stages that allow them (never sandbox or prod). */
  readonly draft: boolean;
  /** Tables the function reads; it gets read-only access to exactly these. */
  readonly reads: readonly TableId[];
  readonly body?: BodyContract;
  readonly pathParameters?: PathParametersContract;
  /** The 200 answer's body. */
  readonly response: core.$ZodType;
  /** For the OpenAPI document; a draft's description gets the draft notice in front. */
  readonly summary: string;
  readonly description: string;
  readonly errors: RouteErrors;
}

/** What every route answers besides its own errors: the authorizer, throttling. */
const EVERY_ROUTE_ERRORS = {
  401: ["invalid_api_key"],
  429: ["rate_limited"],
  500: ["internal_error"],
} as const;
/** And a route with an operation: a key without it, or (where the route names one) a company it may not read. */
const SCOPED_ROUTE_ERRORS = { ...EVERY_ROUTE_ERRORS, 403: ["forbidden"] } as const;

const SEARCH_RULES = `Filters combine with AND. Results sort by \`createdAt\`, oldest first, ties broken by \`id\` (plain string order); offset paging over that order does not skip. \`pagination.total\` counts every match across all pages. \`externalIdSystems\` only selects which external IDs are returned (omitted: all) and never filters; each system may be listed once. Names match as case-insensitive substrings after Unicode NFKC, and may have at most 1,024 characters after it; phones may use spaces, \`-\`, \`.\`, \`(\`, \`)\`, \`+\` and a leading country code 1, and must come to exactly 10 digits. Unknown fields are refused (400). A body over 1 MiB, or not valid UTF-8, is refused (400). A page whose JSON would exceed 6 MB is answered 500, never truncated: use a smaller \`limit\`.`;

export const ROUTES = [
  {
    id: "persons-search",
    method: "POST",
    path: "/v1/persons/search",
    entry: "functions/persons-search.ts",
    operation: "persons.search",
    api: "search",
    draft: true,
    reads: ["directory"],
    body: { schema: personsSearchRequestSchema, required: false },
    response: ApiPersonsSearchResponseSchema,
    summary: "Search persons",
    description: `Each person once, with all their employments in every company the key may read, terminated ones included. \`companyId\`, \`firstName\`, \`lastName\` and \`phone\` must all match **the same** employment in a company the key may read. Filters select people and never trim \`employments\`. \`createdFrom\` (inclusive) and \`createdBefore\` (exclusive) bound the **person's** \`createdAt\`. Paging counts people, not employments. Employee records with no person are never returned here. The body may be omitted (all defaults). A \`companyId\` the key may not read is refused (403).\n\n${SEARCH_RULES}`,
    errors: { 400: ["invalid_input"], ...SCOPED_ROUTE_ERRORS, 404: ["not_found"] },
  },
  {
    id: "employees-search",
    method: "POST",
    path: "/v1/employees/search",
    entry: "functions/employees-search.ts",
    operation: "employees.search",
    api: "search",
    draft: true,
    reads: ["directory"],
    body: { schema: employeesSearchRequestSchema, required: true },
    response: ApiEmployeesSearchResponseSchema,
    summary: "Search employees",
    description: `Employee records of one company the key may read (\`companyId\` is required; 403 otherwise), including records with no linked person, terminated records and duplicate records. \`participation\` and \`coverage\` are null when no applicable record exists.\n\n${SEARCH_RULES}`,
    errors: { 400: ["invalid_input"], ...SCOPED_ROUTE_ERRORS, 404: ["not_found"] },
  },
  {
    id: "companies-hello",
    method: "GET",
    path: "/v1/companies/{companyId}/hello",
    entry: "functions/companies-hello.ts",
    operation: "companies.hello",
    api: "greeting",
    draft: false,
    reads: [],
    // A malformed id names no company at all: refused with its own code, before the company check.
    pathParameters: { schema: greetingPathSchema, refusal: () => new InvalidCompanyIdError() },
    response: greetingSchema,
    summary: "Hello world",
    description:
      "Returns a fixed greeting for a company the key may read: a check of connectivity, key and company access. Not a draft.",
    errors: { 400: ["invalid_company_id"], ...SCOPED_ROUTE_ERRORS },
  },
  {
    id: "key-describe",
    method: "GET",
    path: "/v1/key",
    entry: "functions/key-describe.ts",
    operation: null,
    api: "greeting",
    draft: false,
    reads: [],
    response: keyDescriptionSchema,
    summary: "What this key may do",
    description:
      "The calling key as the service sees it: its id (never the key), partner, operations, the companies it may read, and its throttle. A company outside them answers 403 on other routes whether or not it exists; this is where a key learns its companies. Not a draft.",
    errors: EVERY_ROUTE_ERRORS,
  },
] as const satisfies readonly RouteDefinition[];

/** A route table: ROUTES, or in tests a copy with more routes. */
export type RouteTable = readonly RouteDefinition[];

export type RouteId = (typeof ROUTES)[number]["id"];
/** The table entry of one route, with its schemas' own types. */
export type RouteOf<Id extends RouteId> = Extract<(typeof ROUTES)[number], { readonly id: Id }>;

/** What a caller may send as a route's body (defaults optional): the typed client's request types. */
export type RouteBodyInput<Id extends RouteId> =
  RouteOf<Id> extends { body: { schema: infer S } } ? core.input<S> : never;
/** A route's 200 answer: the typed client's response types. */
export type RouteAnswerOutput<Id extends RouteId> = core.output<RouteOf<Id>["response"]>;
/** A route's path template, as the table has it. */
export type RoutePath<Id extends RouteId> = RouteOf<Id>["path"];

export function routeById<Id extends RouteId>(id: Id): RouteOf<Id> {
  const route = ROUTES.find((candidate): candidate is RouteOf<Id> => candidate.id === id);
  if (!route) throw new Error(`unknown route ${id}`);
  return route;
}

/** Stages where the draft search routes are not deployed or served at all. */
const RELEASE_STAGES = new Set(["sandbox", "prod"]);

export function draftRoutesEnabled(stage: string): boolean {
  return !RELEASE_STAGES.has(stage);
}

/** The routes of `table` a stage serves: draft routes only where the stage allows them. */
export function routesForStage(stage: string, table: RouteTable = ROUTES): RouteDefinition[] {
  return table.filter((route) => !route.draft || draftRoutesEnabled(stage));
}

/** The TOKEN authorizer in front of every route of both APIs; it reads only the keys table. */
export const AUTHORIZER = {
  id: "authorizer",
  entry: "functions/authorizer.ts",
  reads: ["keys"] as readonly TableId[],
} as const;
