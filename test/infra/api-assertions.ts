/**
 * What a partner sees of a deployed stage: the two REST APIs, their methods and protection, the
 * answers API Gateway gives by itself, usage plans, access logs and the body-size guard. The
 * expected values are written out here, not read back from the infra code.
 */
import { generateApiKey } from "../../lib/keys/api-key.js";
import { routesForStage } from "../../lib/routes.js";
import { THROTTLE_TIERS } from "../../lib/stages.js";
import type { SynthesizedStage } from "./synth.js";
import {
  type CfnResource,
  dependsOn,
  logicalId,
  props,
  refersTo,
  renderAccessLog,
  resources,
} from "./template-helpers.js";

/** The required mapping of API Gateway's own answers to contract errors (plus the extra types covered). */
const EXPECTED_GATEWAY_RESPONSES: readonly [type: string, status: string, error: string][] = [
  ["UNAUTHORIZED", "401", "invalid_api_key"],
  ["INVALID_API_KEY", "401", "invalid_api_key"],
  ["ACCESS_DENIED", "403", "forbidden"],
  ["THROTTLED", "429", "rate_limited"],
  ["QUOTA_EXCEEDED", "429", "rate_limited"],
  ["MISSING_AUTHENTICATION_TOKEN", "404", "not_found"],
  ["RESOURCE_NOT_FOUND", "404", "not_found"],
  ["BAD_REQUEST_BODY", "400", "invalid_input"],
  ["REQUEST_TOO_LARGE", "400", "invalid_input"],
  ["WAF_FILTERED", "400", "invalid_input"],
  ["DEFAULT_4XX", "400", "invalid_input"],
  ["DEFAULT_5XX", "500", "internal_error"],
  ["INTEGRATION_FAILURE", "500", "internal_error"],
  ["INTEGRATION_TIMEOUT", "500", "internal_error"],
  ["AUTHORIZER_FAILURE", "500", "internal_error"],
  ["AUTHORIZER_CONFIGURATION_ERROR", "500", "internal_error"],
  ["API_CONFIGURATION_ERROR", "500", "internal_error"],
];

interface WafRule {
  Name: string;
  Priority: number;
  Action: {
    Block?: {
      CustomResponse?: {
        ResponseCode: number;
        CustomResponseBodyKey?: string;
        ResponseHeaders?: { Name: string; Value: string }[];
      };
    };
  };
  Statement: {
    RegexMatchStatement?: { RegexString: string; FieldToMatch: unknown };
    RateBasedStatement?: unknown;
  };
  VisibilityConfig: { SampledRequestsEnabled: boolean };
}

const isMock = (method: CfnResource) =>
  (props(method).Integration as { Type?: string } | undefined)?.Type === "MOCK";

/** Authorization headers that hold a key (any case of the scheme, extra spaces), and ones that cannot. */
const KEY_HEADERS = keyHeaders();

function keyHeaders(): { accepted: string[]; refused: string[] } {
  const accepted: string[] = [];
  const refused = ["", "Bearer", "Bearer nope", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig", "null"];
  for (const key of [generateApiKey("live"), generateApiKey("test")]) {
    accepted.push(`Bearer ${key}`, `bearer  ${key}`, `BEARER ${key} `);
    refused.push(key, `Basic ${key}`, `Bearer ${key.slice(0, -1)}`, `Bearer ${key}x`);
  }
  return { accepted, refused };
}

/** Whether a method sits on the resource that this reference (a Ref or a GetAtt) names. */
const isOnResource = (method: CfnResource, resourceId: unknown) =>
  JSON.stringify(props(method).ResourceId) === JSON.stringify(resourceId);

/** The one answer a MOCK method gives, after checking its headers are mapped and declared. */
function mockAnswer(method: CfnResource) {
  const integration = props(method).Integration as {
    IntegrationResponses: {
      StatusCode: string;
      ResponseTemplates: Record<string, string>;
      ResponseParameters: Record<string, string>;
    }[];
    RequestTemplates?: unknown;
  };
  expect(integration.RequestTemplates).toBeUndefined();
  expect(integration.IntegrationResponses).toHaveLength(1);
  const [response] = integration.IntegrationResponses;
  const headers = response?.ResponseParameters ?? {};
  expect(headers).toMatchObject({
    "method.response.header.x-request-id": "context.requestId",
    "method.response.header.cache-control": "'no-store'",
    "method.response.header.x-content-type-options": "'nosniff'",
  });
  // Every mapped header is declared on the method response, or API Gateway refuses the mapping.
  const declared = (props(method).MethodResponses as { ResponseParameters: Record<string, boolean> }[])[0];
  expect(Object.keys(declared?.ResponseParameters ?? {}).sort()).toEqual(Object.keys(headers).sort());
  return {
    status: response?.StatusCode,
    body: JSON.parse(response?.ResponseTemplates["application/json"] ?? "null"),
    allow: headers["method.response.header.allow"],
  };
}

/** The MOCK on a route method's resource answers 405, its `Allow` naming that method. */
function expectMethodNotAllowed(method: CfnResource, mocks: [string, CfnResource][]): void {
  const sibling = mocks.find(([, m]) => isOnResource(m, props(method).ResourceId));
  expect(sibling).toBeDefined();
  if (!sibling) return;
  // Each route path has one method (lib/routes.ts), so `Allow` names exactly that one.
  expect(mockAnswer(sibling[1])).toEqual({
    status: "405",
    body: { error: "method_not_allowed" },
    allow: `'${props(method).HttpMethod}'`,
  });
}

/** One MOCK on the API's root answers 404. */
function expectRootNotFound(apiId: string, mocks: [string, CfnResource][]): void {
  const root = mocks.filter(([, m]) => isOnResource(m, { "Fn::GetAtt": [apiId, "RootResourceId"] }));
  expect(root).toHaveLength(1);
  if (!root[0]) return;
  expect(mockAnswer(root[0][1])).toEqual({ status: "404", body: { error: "not_found" }, allow: undefined });
}

/** The headers of one of API Gateway's own answers (a GatewayResponse) with this status. */
function expectGatewayResponseHeaders(headers: Record<string, string>, status: string): void {
  expect(headers["gatewayresponse.header.x-request-id"]).toBe("context.requestId");
  expect(headers["gatewayresponse.header.cache-control"]).toBe("'no-store'");
  expect(headers["gatewayresponse.header.x-content-type-options"]).toBe("'nosniff'");
  // A 401 names the scheme (RFC 9110), as a static value: quoted.
  expect(headers["gatewayresponse.header.www-authenticate"]).toBe(status === "401" ? "'Bearer'" : undefined);
  if (status === "429") {
    expect(headers["gatewayresponse.header.Retry-After"]).toMatch(/^'[1-9][0-9]*'$/);
  } else {
    expect(headers["gatewayresponse.header.Retry-After"]).toBeUndefined();
  }
}

export function apiAssertions(stage: string, synthesized: () => SynthesizedStage): void {
  const s = () => synthesized();
  const template = () => s().statelessTemplate;
  const apiIds = () => resources(template(), "AWS::ApiGateway::RestApi").map(([id]) => id);

  describe(`${stage}: REST APIs`, () => {
    it("has the search and greeting APIs, regional, taking API keys from the authorizer", () => {
      const apis = resources(template(), "AWS::ApiGateway::RestApi");
      expect(apis.map(([, api]) => props(api).Name).sort()).toEqual([
        `partner-directory-${stage}-greeting`,
        `partner-directory-${stage}-search`,
      ]);
      for (const [, api] of apis) {
        expect(props(api).ApiKeySourceType).toBe("AUTHORIZER");
        expect(props(api).EndpointConfiguration).toEqual({ Types: ["REGIONAL"] });
      }
    });

    it("serves exactly the stage's routes, each on its API, with draft routes only where allowed", () => {
      const expected = routesForStage(stage).map((route) => `${route.api} ${route.method} ${route.path}`);
      const actual = [...s().stateless.apis].flatMap(([apiId, api]) =>
        api.routeMethods.map((method) => `${apiId} ${method.httpMethod} ${method.resource.path}`),
      );
      expect(actual.sort()).toEqual(expected.sort());
      const lambdaMethods = resources(template(), "AWS::ApiGateway::Method").filter(([, m]) => !isMock(m));
      expect(lambdaMethods).toHaveLength(expected.length);
      const pathParts = resources(template(), "AWS::ApiGateway::Resource").map(([, r]) => props(r).PathPart);
      const drafts = stage === "dev";
      expect(pathParts.includes("persons")).toBe(drafts);
      expect(pathParts.includes("employees")).toBe(drafts);
    });

    it("protects every Lambda method with the TOKEN authorizer and a required API key", () => {
      for (const [, method] of resources(template(), "AWS::ApiGateway::Method").filter(
        ([, m]) => !isMock(m),
      )) {
        expect(props(method).AuthorizationType).toBe("CUSTOM");
        expect(props(method).AuthorizerId).toBeDefined();
        expect(props(method).ApiKeyRequired).toBe(true);
        expect((props(method).Integration as { Type: string }).Type).toBe("AWS_PROXY");
      }
    });

    it("uses one TOKEN authorizer on the Authorization header per API with routes, with the stage's cache TTL", () => {
      const authorizers = resources(template(), "AWS::ApiGateway::Authorizer");
      const apisWithRoutes = new Set(routesForStage(stage).map((route) => route.api));
      expect(authorizers).toHaveLength(apisWithRoutes.size);
      const authorizerFn = logicalId(s().stateless.authorizerFunction);
      for (const [, authorizer] of authorizers) {
        expect(props(authorizer)).toMatchObject({
          Type: "TOKEN",
          IdentitySource: "method.request.header.Authorization",
          AuthorizerResultTtlInSeconds: s().config.authorizerCacheTtlSeconds,
        });
        expect(refersTo(props(authorizer).AuthorizerUri, authorizerFn)).toBe(true);
      }
    });

    it("lets API Gateway turn away, without invoking the authorizer, headers that cannot hold a key", () => {
      const authorizers = resources(template(), "AWS::ApiGateway::Authorizer");
      for (const [, authorizer] of authorizers) {
        const expression = props(authorizer).IdentityValidationExpression;
        expect(typeof expression).toBe("string");
        const pattern = new RegExp(String(expression));
        for (const header of KEY_HEADERS.accepted) expect(pattern.test(header)).toBe(true);
        for (const junk of KEY_HEADERS.refused) expect(pattern.test(junk)).toBe(false);
      }
    });

    it("answers 405 method_not_allowed (with Allow) on every route path and 404 not_found at the root, without auth", () => {
      const methods = resources(template(), "AWS::ApiGateway::Method");
      const mocks = methods.filter(([, m]) => isMock(m));
      for (const [, mock] of mocks) {
        expect(props(mock)).toMatchObject({
          HttpMethod: "ANY",
          AuthorizationType: "NONE",
          ApiKeyRequired: false,
        });
      }
      for (const [, method] of methods.filter(([, m]) => !isMock(m))) expectMethodNotAllowed(method, mocks);
      for (const apiId of apiIds()) expectRootNotFound(apiId, mocks);
    });
  });

  describe(`${stage}: gateway responses`, () => {
    it.each(EXPECTED_GATEWAY_RESPONSES)(
      "%s answers %s {error: %s} with x-request-id on both APIs",
      (type, status, error) => {
        const responses = resources(template(), "AWS::ApiGateway::GatewayResponse").filter(
          ([, r]) => props(r).ResponseType === type,
        );
        expect(responses.map(([, r]) => JSON.stringify(props(r).RestApiId)).sort()).toEqual(
          apiIds()
            .map((id) => JSON.stringify({ Ref: id }))
            .sort(),
        );
        for (const [, response] of responses) {
          const p = props(response);
          expect(p.StatusCode).toBe(status);
          expectGatewayResponseHeaders(p.ResponseParameters as Record<string, string>, status);
          const body = JSON.parse(
            (p.ResponseTemplates as Record<string, string>)["application/json"] ?? "null",
          ) as Record<string, unknown>;
          expect(body.error).toBe(error);
          const allowed = error === "invalid_input" ? ["error", "message"] : ["error"];
          expect(Object.keys(body).every((key) => allowed.includes(key))).toBe(true);
        }
      },
    );
  });

  describe(`${stage}: usage plans`, () => {
    it("has one plan per throttle tier on both APIs' stages, with rate, burst and quota", () => {
      const plans = resources(template(), "AWS::ApiGateway::UsagePlan");
      expect(plans).toHaveLength(Object.keys(THROTTLE_TIERS).length);
      const stages = resources(template(), "AWS::ApiGateway::Stage").map(([id]) => id);
      for (const [tier, throttle] of Object.entries(THROTTLE_TIERS)) {
        const found = plans.find(([, p]) => props(p).UsagePlanName === `partner-directory-${stage}-${tier}`);
        expect(found).toBeDefined();
        if (!found) continue;
        const [planId, plan] = found;
        expect(props(plan).Throttle).toEqual({
          RateLimit: throttle.rateLimit,
          BurstLimit: throttle.burstLimit,
        });
        const quota = "dailyQuota" in throttle ? { Limit: throttle.dailyQuota, Period: "DAY" } : undefined;
        expect(props(plan).Quota).toEqual(quota);
        const apiStages = props(plan).ApiStages as { ApiId: unknown; Stage: unknown }[];
        expect(apiStages.map((apiStage) => JSON.stringify(apiStage.Stage)).sort()).toEqual(
          stages.map((id) => JSON.stringify({ Ref: id })).sort(),
        );
        s().statelessTemplate.hasResourceProperties("AWS::SSM::Parameter", {
          Name: `/partner-directory/${stage}/usage-plan/${tier}`,
          Type: "String",
          Value: { Ref: planId },
        });
      }
    });
  });

  describe(`${stage}: logging`, () => {
    it("writes JSON access logs with request id, status, latency and key id, never the key, and traces with X-Ray", () => {
      for (const [, apiStage] of resources(template(), "AWS::ApiGateway::Stage")) {
        const format = (props(apiStage).AccessLogSetting as { Format: string }).Format;
        expect(renderAccessLog(format)).toEqual(
          expect.objectContaining({ requestId: "1", status: 200, responseLatency: 1, keyId: "1" }),
        );
        expect(format).toContain('"requestId":"$context.requestId"');
        expect(format).toContain('"keyId":"$context.authorizer.keyId"');
        // Joins to API Gateway's own id and to both functions' Lambda invocation ids.
        expect(format).toContain('"extendedRequestId":"$context.extendedRequestId"');
        expect(format).toContain('"authorizerRequestId":"$context.authorizer.requestId"');
        expect(format).toContain('"integrationRequestId":"$context.integration.requestId"');
        expect(format).not.toMatch(/authorization|\$context\.identity\.apiKey"|\$context\.error\.message/i);
        // No caller text, which API Gateway could neither redact nor cut: the route's template
        // stands for the path as sent, and the User-Agent is left out.
        expect(format).toContain('"resourcePath":"$context.resourcePath"');
        expect(format).not.toMatch(
          /\$context\.path\b|\$context\.identity\.userAgent|\$input\.|\$method\.request/,
        );
        expect(props(apiStage).StageName).toBe(stage);
        // API Gateway's X-Ray segment would record the path as sent (caller text, maybe a key).
        expect(props(apiStage).TracingEnabled).toBe(false);
        expect(props(apiStage).MethodSettings).toEqual([
          {
            DataTraceEnabled: false,
            HttpMethod: "*",
            LoggingLevel: "ERROR",
            MetricsEnabled: true,
            ResourcePath: "/*",
            ThrottlingRateLimit: s().config.stageThrottle.rateLimit,
            ThrottlingBurstLimit: s().config.stageThrottle.burstLimit,
          },
        ]);
      }
    });

    it("sets the API Gateway CloudWatch role before any stage, and owns the execution log groups", () => {
      const [account] = resources(template(), "AWS::ApiGateway::Account");
      expect(account).toBeDefined();
      for (const [, apiStage] of resources(template(), "AWS::ApiGateway::Stage")) {
        expect(dependsOn(apiStage)).toContain(account?.[0]);
      }
      const executionGroups = resources(template(), "AWS::Logs::LogGroup").filter(([, g]) =>
        JSON.stringify(props(g).LogGroupName ?? "").includes("API-Gateway-Execution-Logs_"),
      );
      expect(executionGroups).toHaveLength(2);
    });
  });

  describe(`${stage}: web ACL`, () => {
    const rulesOf = () => {
      const acls = resources(template(), "AWS::WAFv2::WebACL");
      expect(acls).toHaveLength(1);
      return {
        acl: props(acls[0]?.[1] ?? { Type: "" }),
        rules: props(acls[0]?.[1] ?? { Type: "" }).Rules as WafRule[],
      };
    };

    it("is on both API stages, with the rate rule first and the body-size rule last", () => {
      const { acl, rules } = rulesOf();
      expect(acl.DefaultAction).toEqual({ Allow: {} });
      expect(rules.map((rule) => [rule.Name, rule.Priority])).toEqual([
        ["rate-per-ip", 0],
        ["AWSManagedRulesAmazonIpReputationList", 1],
        ["AWSManagedRulesKnownBadInputsRuleSet", 2],
        ["body-over-1MiB", 3],
      ]);
      for (const rule of rules) expect(rule.VisibilityConfig.SampledRequestsEnabled).toBe(false);
      const associations = resources(template(), "AWS::WAFv2::WebACLAssociation");
      const stages = resources(template(), "AWS::ApiGateway::Stage").map(([id]) => id);
      expect(associations.flatMap(([, a]) => dependsOn(a)).sort()).toEqual([...stages].sort());
    });

    it("blocks Content-Length over 1 MiB plainly, so API Gateway answers WAF_FILTERED (400)", () => {
      const rule = rulesOf().rules.find((r) => r.Name === "body-over-1MiB");
      expect(rule?.Action).toEqual({ Block: {} });
      const match = rule?.Statement.RegexMatchStatement;
      expect(match?.FieldToMatch).toEqual({ SingleHeader: { Name: "content-length" } });
      const regex = new RegExp(match?.RegexString ?? "^$");
      expect(["1048577", "2000000", "10485760", "0001048577"].every((value) => regex.test(value))).toBe(true);
      expect(["0", "1048576", "999999", "1048575", "abc"].some((value) => regex.test(value))).toBe(false);
    });

    it("limits each IP address and answers 429 {error: rate_limited} as JSON, with Retry-After", () => {
      const { acl, rules } = rulesOf();
      const rule = rules.find((r) => r.Name === "rate-per-ip");
      const { ipRateLimit } = s().config;
      expect(rule?.Statement.RateBasedStatement).toEqual({
        Limit: ipRateLimit.requests,
        EvaluationWindowSec: ipRateLimit.windowSeconds,
        AggregateKeyType: "IP",
      });
      const response = rule?.Action.Block?.CustomResponse;
      expect(response?.ResponseCode).toBe(429);
      const headers = Object.fromEntries(
        (response?.ResponseHeaders ?? []).map((h) => [h.Name.toLowerCase(), h.Value]),
      );
      expect(headers).toEqual({
        "retry-after": String(ipRateLimit.windowSeconds),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      });
      const bodies = acl.CustomResponseBodies as Record<string, { ContentType: string; Content: string }>;
      const body = bodies[response?.CustomResponseBodyKey ?? ""];
      expect(body?.ContentType).toBe("APPLICATION_JSON");
      expect(JSON.parse(body?.Content ?? "null")).toEqual({ error: "rate_limited" });
      // One partner at the fastest tier's full rate, from one address, is never blocked by it.
      const fastest = Math.max(...Object.values(THROTTLE_TIERS).map((tier) => tier.rateLimit));
      expect(ipRateLimit.requests / ipRateLimit.windowSeconds).toBeGreaterThanOrEqual(fastest);
    });
  });

  describe(`${stage}: outputs and parameters`, () => {
    it("outputs both API base URLs: the custom domains when given, else the execute-api addresses", () => {
      const outputs = template().toJSON().Outputs as Record<string, { Value: unknown }>;
      const { options } = s();
      for (const [name, apiId, domain] of [
        ["SearchApiUrl", "search", options.searchDomain],
        ["GreetingApiUrl", "greeting", options.helloDomain],
      ] as const) {
        if (domain !== undefined) {
          expect(outputs[name]?.Value).toBe(`https://${domain}`);
          continue;
        }
        const value = JSON.stringify(outputs[name]?.Value);
        expect(value).toContain(`/${stage}`);
        expect(refersTo(outputs[name]?.Value, logicalId(s().stateless.api(apiId).restApi))).toBe(true);
      }
    });

    it("switches off the execute-api endpoints exactly when the APIs have custom domains", () => {
      const withDomains = s().options.searchDomain !== undefined;
      const domains = resources(template(), "AWS::ApiGateway::DomainName");
      expect(domains).toHaveLength(withDomains ? 2 : 0);
      for (const [, domain] of domains) {
        expect(props(domain).SecurityPolicy).toBe("SecurityPolicy_TLS13_1_3_2025_09");
        expect(props(domain).EndpointAccessMode).toBe("STRICT");
      }
      for (const [, api] of resources(template(), "AWS::ApiGateway::RestApi")) {
        expect(props(api).DisableExecuteApiEndpoint).toBe(withDomains ? true : undefined);
      }
    });
  });
}
