/**
 * Stable partner URLs: with searchDomain, helloDomain and certificateArn each API gets a regional
 * custom domain (TLS 1.3, strict endpoint access) mapped to its stage, and its execute-api address is switched off;
 * without them (dev only) the execute-api addresses stay. Templates only: no bundling.
 */
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { type CustomDomains, resolveCustomDomains } from "../../infra/deployment-settings.js";
import { addStage, cdkJsonContext, type StageOptions } from "../../infra/stage-stacks.js";
import { RELEASE_SETTINGS } from "./stage-settings.js";
import { runOutdir, unbundledApp } from "./synth.js";
import { logicalId, props, refersTo, resources } from "./template-helpers.js";

const { searchDomain, helloDomain, certificateArn } = RELEASE_SETTINGS.prod;
if (!searchDomain || !helloDomain || !certificateArn) throw new Error("prod's test settings lack domains");
const DOMAINS: CustomDomains = { searchDomain, helloDomain, certificateArn };

function synthStage(stage: string, options: Omit<StageOptions, "env"> = {}) {
  const app = unbundledApp();
  const stacks = addStage(app, stage, { ...options, env: {} });
  return { ...stacks, template: Template.fromStack(stacks.stateless) };
}

type Outputs = Record<string, { Value: unknown }>;

describe("prod with custom domains", () => {
  const { stateless, template } = synthStage("prod", RELEASE_SETTINGS.prod);
  const outputs = () => template.toJSON().Outputs as Outputs;

  it("gives each API a regional domain with TLS 1.3, strict endpoint access and the one certificate", () => {
    const domains = resources(template, "AWS::ApiGateway::DomainName").map(([, domain]) => props(domain));
    expect(domains.map((domain) => domain.DomainName).sort()).toEqual([
      DOMAINS.helloDomain,
      DOMAINS.searchDomain,
    ]);
    for (const domain of domains) {
      expect(domain.EndpointConfiguration).toEqual({ Types: ["REGIONAL"] });
      expect(domain.SecurityPolicy).toMatch(/^SecurityPolicy_TLS13_1_3_/);
      expect(domain.EndpointAccessMode).toBe("STRICT");
      expect(domain.RegionalCertificateArn).toBe(DOMAINS.certificateArn);
      expect(domain.CertificateArn).toBeUndefined();
    }
  });

  it("maps each domain's root to its own API's stage: search serves {base_url}, greeting {hello_base_url}", () => {
    const mappings = resources(template, "AWS::ApiGateway::BasePathMapping").map(([, mapping]) =>
      props(mapping),
    );
    expect(mappings).toHaveLength(2);
    for (const [apiId, domainName] of [
      ["search", DOMAINS.searchDomain],
      ["greeting", DOMAINS.helloDomain],
    ] as const) {
      const api = stateless.api(apiId);
      const domain = api.domain;
      if (!domain) throw new Error(`${apiId} has no domain`);
      const mapping = mappings.find((candidate) => refersTo(candidate.DomainName, logicalId(domain)));
      expect(mapping?.BasePath).toBeUndefined();
      expect(refersTo(mapping?.RestApiId, logicalId(api.restApi))).toBe(true);
      expect(refersTo(mapping?.Stage, logicalId(api.restApi.deploymentStage))).toBe(true);
      expect(
        (template.toJSON().Resources as Record<string, { Properties: { DomainName: string } }>)[
          logicalId(domain)
        ]?.Properties.DomainName,
      ).toBe(domainName);
    }
  });

  it("switches off both execute-api endpoints", () => {
    const apis = resources(template, "AWS::ApiGateway::RestApi");
    expect(apis).toHaveLength(2);
    for (const [, api] of apis) expect(props(api).DisableExecuteApiEndpoint).toBe(true);
  });

  it("outputs the custom-domain URLs and where DNS must point", () => {
    expect(outputs().SearchApiUrl?.Value).toBe(`https://${DOMAINS.searchDomain}`);
    expect(outputs().GreetingApiUrl?.Value).toBe(`https://${DOMAINS.helloDomain}`);
    for (const apiId of ["search", "greeting"] as const) {
      const name = `${apiId === "search" ? "Search" : "Greeting"}ApiDomainTarget`;
      const domain = stateless.api(apiId).domain;
      if (!domain) throw new Error(`${apiId} has no domain`);
      expect(outputs()[name]?.Value).toEqual({ "Fn::GetAtt": [logicalId(domain), "RegionalDomainName"] });
    }
  });
});

describe("dev with custom domains", () => {
  const { template } = synthStage("dev", DOMAINS);

  it("switches off execute-api too: whenever a domain exists", () => {
    expect(resources(template, "AWS::ApiGateway::DomainName")).toHaveLength(2);
    for (const [, api] of resources(template, "AWS::ApiGateway::RestApi")) {
      expect(props(api).DisableExecuteApiEndpoint).toBe(true);
    }
  });
});

describe("dev without custom domains", () => {
  const { stateless, template } = synthStage("dev");

  it("has no domain and keeps the execute-api endpoints and URLs", () => {
    expect(resources(template, "AWS::ApiGateway::DomainName")).toEqual([]);
    expect(resources(template, "AWS::ApiGateway::BasePathMapping")).toEqual([]);
    for (const [, api] of resources(template, "AWS::ApiGateway::RestApi")) {
      expect(props(api).DisableExecuteApiEndpoint).toBeUndefined();
    }
    const outputs = template.toJSON().Outputs as Outputs;
    for (const [name, apiId] of [
      ["SearchApiUrl", "search"],
      ["GreetingApiUrl", "greeting"],
    ] as const) {
      const value = JSON.stringify(outputs[name]?.Value);
      expect(value).toContain(".execute-api.");
      expect(value).toContain("/dev");
      expect(refersTo(outputs[name]?.Value, logicalId(stateless.api(apiId).restApi))).toBe(true);
    }
    expect(Object.keys(outputs).filter((name) => name.endsWith("DomainTarget"))).toEqual([]);
  });
});

describe("custom domain settings", () => {
  it("are all three or none, naming what is missing, before anything is built", () => {
    const app = new App({ outdir: runOutdir(), context: cdkJsonContext() });
    expect(() =>
      addStage(app, "dev", {
        searchDomain: DOMAINS.searchDomain,
        helloDomain: DOMAINS.helloDomain,
        env: {},
      }),
    ).toThrow(
      /custom domains need searchDomain, helloDomain and certificateArn together: certificateArn missing/,
    );
    expect(() => addStage(app, "dev", { certificateArn: DOMAINS.certificateArn, env: {} })).toThrow(
      /searchDomain and helloDomain missing/,
    );
    expect(app.node.children).toHaveLength(0);
  });

  it("refuses values that cannot be a domain or a certificate, and one domain for both APIs", () => {
    expect(() =>
      resolveCustomDomains({ ...DOMAINS, searchDomain: "Search.Example.com" }, "eu-west-1"),
    ).toThrow(/searchDomain "Search.Example.com" is not a lower-case domain name/);
    expect(() =>
      resolveCustomDomains({ ...DOMAINS, helloDomain: "https://hello.example.com" }, "eu-west-1"),
    ).toThrow(/helloDomain .* is not a lower-case domain name/);
    expect(() =>
      resolveCustomDomains({ ...DOMAINS, helloDomain: DOMAINS.searchDomain }, "eu-west-1"),
    ).toThrow(/each API needs its own/);
    expect(() =>
      resolveCustomDomains(
        { ...DOMAINS, certificateArn: "arn:aws:iam::111111111111:server-certificate/x" },
        undefined,
      ),
    ).toThrow(/is not an ACM certificate ARN/);
  });

  it("are taken whole, in the stage's region or where it is unknown", () => {
    expect(resolveCustomDomains({}, "eu-west-1")).toBeUndefined();
    expect(resolveCustomDomains(DOMAINS, "eu-west-1")).toEqual(DOMAINS);
    expect(resolveCustomDomains(DOMAINS, undefined)).toEqual(DOMAINS);
  });
});
