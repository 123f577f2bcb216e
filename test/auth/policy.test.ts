import { allowPolicy, methodArnStage, wildcardResource } from "../../lib/auth/policy.js";
import { toAuthorizerContext } from "../../lib/auth/principal.js";
import { ROUTES } from "../../lib/routes.js";

const API = "arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5";
const methodArn = (stage: string, method: string, path: string, api = API) =>
  `${api}/${stage}/${method}${path}`;
const concrete = (path: string) => path.replace("{companyId}", "acme");

/** IAM resource matching: `*` matches any run of characters (slashes included), `?` any one. */
function iamMatches(pattern: string, resource: string): boolean {
  const source = [...pattern]
    .map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`).test(resource);
}

describe("methodArnStage", () => {
  it("names the stage the request was made on", () => {
    expect(methodArnStage(methodArn("prod", "GET", "/v1/companies/acme/hello"))).toBe("prod");
    expect(methodArnStage(methodArn("local", "POST", "/v1/persons/search"))).toBe("local");
    expect(methodArnStage("not-an-arn")).toBeUndefined();
  });
});

describe("wildcardResource", () => {
  it("turns a method ARN into one that covers the whole API stage", () => {
    const arn = methodArn("prod", "GET", "/v1/companies/acme/hello");
    expect(wildcardResource(arn)).toBe(`${API}/prod/*`);
  });

  it("covers every route of the stage, whichever route the key was first used on", () => {
    for (const first of ROUTES) {
      const resource = wildcardResource(methodArn("prod", first.method, concrete(first.path)));
      for (const route of ROUTES) {
        expect(iamMatches(resource, methodArn("prod", route.method, concrete(route.path)))).toBe(true);
      }
    }
  });

  it("covers no other stage and no other API", () => {
    const resource = wildcardResource(methodArn("prod", "POST", "/v1/persons/search"));
    expect(iamMatches(resource, methodArn("dev", "POST", "/v1/persons/search"))).toBe(false);
    expect(iamMatches(resource, methodArn("prod2", "POST", "/v1/persons/search"))).toBe(false);
    const otherApi = "arn:aws:execute-api:eu-west-1:123456789012:zzzzzzzzzz";
    expect(iamMatches(resource, methodArn("prod", "POST", "/v1/persons/search", otherApi))).toBe(false);
    expect(iamMatches(resource, methodArn("prod", "POST", "/v1/persons/search", `${API}x`))).toBe(false);
  });

  it.each([["nonsense"], [""], [API], [`${API}/`]])("refuses %j, which is not a method ARN", (arn) => {
    expect(() => wildcardResource(arn)).toThrow();
  });
});

describe("allowPolicy", () => {
  const context = toAuthorizerContext({
    keyId: "key_PolicyPolicyPol",
    partner: "Gamma",
    operations: ["companies.hello"],
    companies: ["acme"],
    throttle: { rateLimit: 10, burstLimit: 20 },
  });
  const policy = allowPolicy(methodArn("sandbox", "GET", "/v1/companies/acme/hello"), context, "usage-gamma");

  it("allows execute-api:Invoke on the stage wildcard, and nothing else", () => {
    expect(policy.principalId).toBe("key_PolicyPolicyPol");
    expect(policy.policyDocument).toEqual({
      Version: "2012-10-17",
      Statement: [{ Action: "execute-api:Invoke", Effect: "Allow", Resource: `${API}/sandbox/*` }],
    });
  });

  it("hands API Gateway the caller context and the usage key for throttling", () => {
    expect(policy.context).toEqual(context);
    expect(policy.usageIdentifierKey).toBe("usage-gamma");
    for (const value of Object.values(policy.context ?? {})) expect(typeof value).toBe("string");
  });
});
