import type { APIGatewayProxyEvent } from "aws-lambda";
import {
  type Principal,
  principalFromEvent,
  requireCompany,
  requireOperation,
  toAuthorizerContext,
} from "../../lib/auth/principal.js";
import { ForbiddenError } from "../../lib/http/errors.js";

const SOURCE = {
  keyId: "key_PrincipalPrinci",
  partner: "Beta Benefits",
  operations: ["persons.search", "companies.hello"] as const,
  companies: ["acme", "beta.co", "c_3"],
  tier: "trial",
  throttle: { rateLimit: 2, burstLimit: 5, dailyQuota: 10_000 },
};

/** What API Gateway puts in `requestContext.authorizer`: the authorizer's context plus its own fields. */
function eventWith(
  authorizer: Record<string, unknown> | undefined,
): Pick<APIGatewayProxyEvent, "requestContext"> {
  return { requestContext: { authorizer } as unknown as APIGatewayProxyEvent["requestContext"] };
}
const fromGateway = (context: Record<string, unknown>) =>
  eventWith({ ...context, principalId: SOURCE.keyId, integrationLatency: 31 });

describe("toAuthorizerContext", () => {
  it("carries exactly the caller's id, partner, operations, companies, tier and throttle, all as strings", () => {
    const context = toAuthorizerContext(SOURCE);
    expect(context).toEqual({
      keyId: SOURCE.keyId,
      partner: "Beta Benefits",
      operations: '["persons.search","companies.hello"]',
      companies: '["acme","beta.co","c_3"]',
      tier: "trial",
      throttle: '{"rateLimit":2,"burstLimit":5,"dailyQuota":10000}',
    });
    for (const value of Object.values(context)) expect(typeof value).toBe("string");
    expect(toAuthorizerContext({ ...SOURCE, tier: undefined }).tier).toBe("");
  });

  it("leaves out everything else of a key record (hash, usage key and its id, status)", () => {
    const record = {
      ...SOURCE,
      operations: [...SOURCE.operations],
      keyHash: "f".repeat(64),
      usageKey: "usage-secret",
      usageKeyId: "apikey-secret",
      status: "active",
    };
    const text = JSON.stringify(toAuthorizerContext(record));
    expect(Object.keys(toAuthorizerContext(record)).sort()).toEqual([
      "companies",
      "keyId",
      "operations",
      "partner",
      "throttle",
      "tier",
    ]);
    expect(text).not.toContain("usage-secret");
    expect(text).not.toContain("apikey-secret");
    expect(text).not.toContain("f".repeat(64));
  });
});

describe("principalFromEvent", () => {
  it("reads back what toAuthorizerContext wrote, next to API Gateway's own fields", () => {
    const principal = principalFromEvent(fromGateway(toAuthorizerContext(SOURCE)));
    expect(principal.keyId).toBe(SOURCE.keyId);
    expect(principal.partner).toBe("Beta Benefits");
    expect([...principal.operations].sort()).toEqual(["companies.hello", "persons.search"]);
    expect([...principal.companies].sort()).toEqual(["acme", "beta.co", "c_3"]);
    expect(principal.throttle).toEqual({ tier: "trial", limits: SOURCE.throttle });
  });

  it("reads a key without a tier (a throttle of its own) as tier undefined", () => {
    const principal = principalFromEvent(
      fromGateway(
        toAuthorizerContext({ ...SOURCE, tier: undefined, throttle: { rateLimit: 3, burstLimit: 4 } }),
      ),
    );
    expect(principal.throttle).toEqual({ tier: undefined, limits: { rateLimit: 3, burstLimit: 4 } });
  });

  it("takes a context cached from before it carried the throttle, leaving the throttle out", () => {
    const { tier: _, throttle: __, ...older } = toAuthorizerContext(SOURCE);
    const principal = principalFromEvent(fromGateway(older));
    expect(principal.keyId).toBe(SOURCE.keyId);
    expect(principal.throttle).toBeUndefined();
  });

  it("keeps empty lists empty", () => {
    const principal = principalFromEvent(
      fromGateway(toAuthorizerContext({ ...SOURCE, operations: [], companies: [] })),
    );
    expect(principal.operations.size).toBe(0);
    expect(principal.companies.size).toBe(0);
  });

  it("drops operation names it does not know", () => {
    const context = { ...toAuthorizerContext(SOURCE), operations: '["persons.search","admin.*",""]' };
    expect([...principalFromEvent(fromGateway(context)).operations]).toEqual(["persons.search"]);
  });

  const valid = toAuthorizerContext(SOURCE);
  it.each([
    ["no authorizer", undefined],
    ["an empty authorizer", {}],
    ["no keyId", { ...valid, keyId: undefined }],
    ["an empty keyId", { ...valid, keyId: "" }],
    ["a numeric keyId", { ...valid, keyId: 5 }],
    ["no partner", { ...valid, partner: undefined }],
    ["operations not JSON", { ...valid, operations: "persons.search" }],
    ["operations a JSON string", { ...valid, operations: '"persons.search"' }],
    ["operations an array of numbers", { ...valid, operations: "[1]" }],
    ["companies a JSON object", { ...valid, companies: '{"acme":true}' }],
    ["companies null", { ...valid, companies: "null" }],
    ["throttle not JSON", { ...valid, throttle: "fast" }],
    ["a throttle without a burst", { ...valid, throttle: '{"rateLimit":1}' }],
    ["a throttle of rate 0", { ...valid, throttle: '{"rateLimit":0,"burstLimit":1}' }],
    ["a numeric tier", { ...valid, tier: 3 }],
  ])("throws a plain error (a 500, not a 403) for %s", (_, authorizer) => {
    const read = () => principalFromEvent(eventWith(authorizer));
    expect(read).toThrow();
    try {
      read();
    } catch (error) {
      expect(error).not.toBeInstanceOf(ForbiddenError);
    }
  });
  it("says which part of the context is wrong, for the logs", () => {
    expect(() => principalFromEvent(eventWith(undefined))).toThrow("request has no valid authorizer context");
    const noContext = { requestContext: undefined } as unknown as Pick<
      APIGatewayProxyEvent,
      "requestContext"
    >;
    expect(() => principalFromEvent(noContext)).toThrow("request has no valid authorizer context");
    expect(() => principalFromEvent(eventWith({ ...valid, companies: "null" }))).toThrow(
      "authorizer context list is not a JSON array of strings",
    );
    expect(() => principalFromEvent(eventWith({ ...valid, throttle: "{}" }))).toThrow(
      "authorizer context throttle is not a key's throttle",
    );
  });
});

describe("requireOperation and requireCompany", () => {
  const principal: Principal = principalFromEvent(fromGateway(toAuthorizerContext(SOURCE)));

  it("pass for what the key may do", () => {
    expect(() => requireOperation(principal, "persons.search")).not.toThrow();
    expect(() => requireOperation(principal, "companies.hello")).not.toThrow();
    expect(() => requireCompany(principal, "beta.co")).not.toThrow();
  });

  it("refuse anything else with forbidden (403), the reason kept for the logs", () => {
    expect(() => requireOperation(principal, "employees.search")).toThrow(
      new ForbiddenError(`key ${SOURCE.keyId} may not call employees.search`),
    );
    for (const company of ["ACME", "acme ", "other", "", "beta"]) {
      let caught: unknown;
      try {
        requireCompany(principal, company);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ForbiddenError);
      expect(caught).toMatchObject({
        code: "forbidden",
        status: 403,
        reason: `key ${SOURCE.keyId} may not read company ${company}`,
      });
    }
  });
});
