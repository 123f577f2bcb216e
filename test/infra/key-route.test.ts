/**
 * `GET /v1/key` in a release stage: a function of its own that may read no table at all (the
 * answer comes from the authorizer's context), behind the same authorizer and usage plans as the
 * greeting. The shared prod templates (synth.ts).
 */
import type { IConstruct } from "constructs";
import { routeById } from "../../lib/routes.js";
import { synthesizeStage } from "./synth.js";
import { type CfnResource, logicalId, props, refersTo, resources } from "./template-helpers.js";

const ROUTE = routeById("key-describe");
const prod = synthesizeStage("prod");
const propsOf = (construct: IConstruct) =>
  props(prod.statelessTemplate.toJSON().Resources[logicalId(construct)] as CfnResource);

describe("prod: the key route", () => {
  it("is released: a function, and a GET method of the greeting API behind the authorizer and usage plans", () => {
    const fn = prod.stateless.routeFunction(ROUTE.id);
    expect(propsOf(fn).Description).toBe("GET /v1/key (any valid key)");
    const methods = prod.stateless.api("greeting").routeMethods.filter((m) => m.resource.path === ROUTE.path);
    expect(methods.map((method) => method.httpMethod)).toEqual(["GET"]);
    expect(propsOf(methods[0] ?? fn)).toMatchObject({
      AuthorizationType: "CUSTOM",
      ApiKeyRequired: true,
      OperationName: "key-describe",
    });
    expect(prod.stateless.api("search").routeMethods.some((m) => m.resource.path === ROUTE.path)).toBe(false);
  });

  it("may read no table: no DynamoDB statement in its role, no table name in its environment", () => {
    const fn = prod.stateless.routeFunction(ROUTE.id);
    expect(ROUTE.reads).toEqual([]);
    const roleId = logicalId(fn.role ?? fn);
    const statements = resources(prod.statelessTemplate, "AWS::IAM::Policy")
      .filter(([, policy]) => refersTo(props(policy).Roles, roleId))
      .flatMap(([, policy]) => (props(policy).PolicyDocument as { Statement: unknown[] }).Statement);
    expect(statements.length).toBeGreaterThan(0);
    expect(JSON.stringify(statements)).not.toContain("dynamodb:");
    const env = (propsOf(fn).Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(env)).not.toContain("KEYS_TABLE");
    expect(Object.keys(env)).not.toContain("DIRECTORY_TABLE");
  });
});
