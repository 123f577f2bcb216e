/**
 * A new route needs one table entry, one handler file and one use case (./throwaway-route.ts): the
 * local gateway serves it, the OpenAPI document describes it (both path parameters, the answer),
 * and the CDK stacks deploy a function and a method for it, all from a copy of the route table.
 */
import { Template } from "aws-cdk-lib/assertions";
import { addStage } from "../../infra/stage-stacks.js";
import { allowPolicy } from "../../lib/auth/policy.js";
import { toAuthorizerContext } from "../../lib/auth/principal.js";
import { createGateway, type GatewayRequest } from "../../lib/local/gateway.js";
import { loadRouteHandlers } from "../../lib/local/service.js";
import { openApiDocument } from "../../lib/openapi/document.js";
import { ROUTES, routesForStage } from "../../lib/routes.js";
import { unbundledApp } from "./synth.js";
import { TABLE_WITH_TEAM, TEAM_ROUTE } from "./throwaway-route.js";

describe("a route added to a copy of the route table", () => {
  it("is served by the local gateway, path parameters validated by its schema", async () => {
    const routes = routesForStage("local", TABLE_WITH_TEAM);
    const gateway = createGateway({
      stage: "local",
      routes,
      handlers: await loadRouteHandlers(routes.filter((route) => route.id === TEAM_ROUTE.id)),
      authorizer: async (event) =>
        allowPolicy(
          event.methodArn,
          toAuthorizerContext({
            keyId: "key_TeamTeamTeamTeam1",
            partner: "P",
            operations: ["companies.hello"],
            companies: ["acme"],
            throttle: { rateLimit: 10, burstLimit: 20 },
          }),
          "usage-1",
        ),
      throttleFor: () => ({ rateLimit: 100, burstLimit: 100 }),
    });
    const get = (path: string, method = "GET"): GatewayRequest => ({
      method,
      path,
      query: "",
      headers: { authorization: ["Bearer pd_test_any"] },
      body: Buffer.alloc(0),
      sourceIp: "127.0.0.1",
    });
    const served = await gateway(get("/v1/companies/acme/teams/42"));
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body)).toEqual({ companyId: "acme", teamId: "42", name: "team 42" });
    const refused = await gateway(get("/v1/companies/acme/teams/x"));
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({
      error: "invalid_input",
      message: "teamId must be 1 to 6 digits",
    });
    expect((await gateway(get("/v1/companies/beta/teams/1"))).status).toBe(403);
    expect((await gateway(get("/v1/companies/acme/teams/1", "POST"))).status).toBe(405);
  });

  it("is in the OpenAPI document, with every path parameter and its answer's schema", () => {
    const document = openApiDocument(undefined, TABLE_WITH_TEAM);
    const operation = document.paths?.[TEAM_ROUTE.path]?.get;
    expect(operation?.operationId).toBe("companiesTeam");
    expect(operation?.parameters).toEqual([
      expect.objectContaining({ in: "path", name: "companyId", required: true }),
      expect.objectContaining({ in: "path", name: "teamId", required: true }),
    ]);
    expect(JSON.stringify(operation?.responses?.["200"])).toContain(
      '"required":["companyId","teamId","name"]',
    );
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(["200", "400", "401", "403", "500"]);
    // The table's own routes are all still there.
    expect(Object.keys(document.paths ?? {}).sort()).toEqual(
      [...new Set([...ROUTES, TEAM_ROUTE].map((route) => route.path))].sort(),
    );
  });

  it("gets a function and a method of its API from the CDK stacks", () => {
    // No bundling: the template, not the bundle, is what this checks.
    const app = unbundledApp();
    const { stateless } = addStage(app, "dev", { env: {}, routes: TABLE_WITH_TEAM });
    expect(stateless.routeFunctions.has(TEAM_ROUTE.id)).toBe(true);
    const template = Template.fromStack(stateless);
    template.hasResourceProperties("AWS::Lambda::Function", {
      Description: `GET ${TEAM_ROUTE.path} (companies.hello)`,
    });
    template.hasResourceProperties("AWS::ApiGateway::Resource", { PathPart: "{teamId}" });
    const methods = template.findResources("AWS::ApiGateway::Method", {
      Properties: { HttpMethod: "GET", OperationName: "companies.hello" },
    });
    // The greeting's method and the team's, on the same (greeting) API.
    expect(Object.keys(methods)).toHaveLength(2);
    expect(Object.keys(methods).some((logicalId) => /teams/i.test(logicalId))).toBe(true);
  });
});
