/**
 * A throwaway route, as a new route is added: its table entry (added to a copy of ROUTES by
 * route-table.test.ts, as a real one is added to lib/routes.ts), its use case and its handler file
 * (this file is the entry: the local server imports it, CDK would bundle it). Nothing else.
 */
import * as z from "zod/mini";
import { type Principal, requireCompany } from "../../lib/auth/principal.js";
import { InvalidInputError } from "../../lib/http/errors.js";
import { httpRouteOf } from "../../lib/http/pipeline.js";
import { ROUTES, type RouteDefinition } from "../../lib/routes.js";

const teamSchema = z.strictObject({ companyId: z.string(), teamId: z.string(), name: z.string() });

/** 1. The table entry. */
export const TEAM_ROUTE = {
  id: "companies-team",
  method: "GET",
  path: "/v1/companies/{companyId}/teams/{teamId}",
  entry: "test/infra/throwaway-route.ts",
  operation: "companies.hello",
  api: "greeting",
  draft: false,
  reads: [],
  pathParameters: {
    schema: z.object({ companyId: z.string(), teamId: z.string().check(z.regex(/^\d{1,6}$/)) }),
    refusal: () => new InvalidInputError("teamId must be 1 to 6 digits"),
  },
  response: teamSchema,
  summary: "A team",
  description: "One team of a company the key may read.",
  errors: { 400: ["invalid_input"], 401: ["invalid_api_key"], 403: ["forbidden"], 500: ["internal_error"] },
} as const satisfies RouteDefinition;

/** The route table with the throwaway route: what lib/routes.ts would hold. */
export const TABLE_WITH_TEAM = [...ROUTES, TEAM_ROUTE] as const;

/** 2. The use case. */
function teamOf(principal: Principal, companyId: string, teamId: string): z.infer<typeof teamSchema> {
  requireCompany(principal, companyId);
  return { companyId, teamId, name: `team ${teamId}` };
}

/** 3. The handler. */
export const handler = httpRouteOf(TABLE_WITH_TEAM, "companies-team", async ({ principal, pathParameters }) =>
  teamOf(principal, pathParameters.companyId, pathParameters.teamId),
);
