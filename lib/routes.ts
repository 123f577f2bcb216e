/**
 * The one route table. The local server and the CDK stacks are both built from it, so a route
 * exists in one place: its method and path, the Lambda entry, the operation a key needs, the API
 * (host) it belongs to, whether it is a draft, and the tables its function may read.
 */
import type { TableId } from "./store/tables.js";

export const OPERATIONS = ["persons.search", "employees.search", "companies.hello"] as const;
export type Operation = (typeof OPERATIONS)[number];

/** The two REST APIs: {base_url} serves the searches, {hello_base_url} the greeting. */
export type ApiId = "search" | "greeting";

export interface RouteDefinition {
  /** Stable name; also the Lambda function's logical name and the log field `route`. */
  readonly id: "persons-search" | "employees-search" | "companies-hello";
  readonly method: "GET" | "POST";
  /** API Gateway resource path; `{name}` is a path parameter. */
  readonly path: string;
  /** Lambda entry, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly operation: Operation;
  readonly api: ApiId;
  /** Draft routes are served only in stages that allow them (never sandbox or prod). */
  readonly draft: boolean;
  /** Tables the function reads; it gets read-only access to exactly these. */
  readonly reads: readonly TableId[];
}

export const ROUTES: readonly RouteDefinition[] = [
  {
    id: "persons-search",
    method: "POST",
    path: "/v1/persons/search",
    entry: "functions/persons-search.ts",
    operation: "persons.search",
    api: "search",
    draft: true,
    reads: ["directory"],
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
  },
];

/** Stages where the draft search routes are not deployed or served at all. */
const RELEASE_STAGES = new Set(["sandbox", "prod"]);

export function draftRoutesEnabled(stage: string): boolean {
  return !RELEASE_STAGES.has(stage);
}

/** The routes a stage serves: draft routes only where the stage allows them. */
export function routesForStage(stage: string): RouteDefinition[] {
  return ROUTES.filter((route) => !route.draft || draftRoutesEnabled(stage));
}

export type RouteId = RouteDefinition["id"];

/** The TOKEN authorizer in front of every route of both APIs; it reads only the keys table. */
export const AUTHORIZER = {
  id: "authorizer",
  entry: "functions/authorizer.ts",
  reads: ["keys"] as readonly TableId[],
} as const;
