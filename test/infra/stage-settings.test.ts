/**
 * Prod's settings are code: sandbox and prod synthesize only with every deployment setting
 * (STAGE_SETTINGS in infra/config.ts, or `-c`), a refusal is one line naming what is missing, and
 * `npm run synth` says which outputs are deployable. Templates only: no bundling.
 */
import { Template } from "aws-cdk-lib/assertions";
import { type DeploymentSettings, resolveSettings, SettingsError } from "../../infra/deployment-settings.js";
import { addStage } from "../../infra/stage-stacks.js";
import { runTool, STACK_FRAME } from "../cli/run-tool.js";
import { RELEASE_SETTINGS, TEST_REGION } from "./stage-settings.js";
import { unbundledApp } from "./synth.js";
import { props, resources } from "./template-helpers.js";

const ALL_SETTINGS = "account, region, alarmEmail, searchDomain, helloDomain, certificateArn";
const UNSET: DeploymentSettings = {
  account: undefined,
  region: undefined,
  alarmEmail: undefined,
  searchDomain: undefined,
  helloDomain: undefined,
  certificateArn: undefined,
  hostedZoneId: undefined,
};

describe.each(["sandbox", "prod"] as const)("%s without its settings", (stage) => {
  it("is refused before anything is built, in one line naming every missing setting", () => {
    const app = unbundledApp();
    let refusal: unknown;
    try {
      addStage(app, stage, { env: {} });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SettingsError);
    const message = (refusal as Error).message;
    expect(message).toBe(
      `stage ${stage} needs ${ALL_SETTINGS}: set them in STAGE_SETTINGS.${stage} (infra/config.ts) or pass -c account=… (docs/operations.md "First deploy")`,
    );
    expect(message).not.toContain("\n");
    expect(app.node.children).toHaveLength(0);
  });

  it("names only what is still missing", () => {
    const { alarmEmail: _, certificateArn: __, ...some } = RELEASE_SETTINGS[stage];
    expect(() => addStage(unbundledApp(), stage, { ...some, env: {} })).toThrow(
      new RegExp(`^stage ${stage} needs alarmEmail, certificateArn: `),
    );
  });
});

describe("resolveSettings", () => {
  it("takes -c values over the configured ones, field by field", () => {
    const configured = { ...UNSET, ...RELEASE_SETTINGS.prod, hostedZoneId: undefined } as DeploymentSettings;
    const resolved = resolveSettings("prod", true, configured, {
      alarmEmail: "pager@example.org",
      helloDomain: "hi.partners.example.com",
    });
    expect(resolved.alarmEmail).toBe("pager@example.org");
    expect(resolved.customDomains).toEqual({
      searchDomain: configured.searchDomain,
      helloDomain: "hi.partners.example.com",
      certificateArn: configured.certificateArn,
    });
    expect(resolved.account).toBe(configured.account);
  });

  it("lets an alarm topic stand in for the alarm email", () => {
    const { alarmEmail: _, ...rest } = RELEASE_SETTINGS.prod;
    const resolved = resolveSettings("prod", true, UNSET, {
      ...rest,
      alarmTopicArn: "arn:aws:sns:eu-west-1:111111111111:oncall",
    });
    expect(resolved.alarmEmail).toBeUndefined();
  });

  it("refuses a -c account other than the one written down", () => {
    expect(() =>
      resolveSettings("prod", true, { ...UNSET, account: "111111111111" }, { account: "333333333333" }),
    ).toThrow(/-c account=333333333333, but stage prod deploys only to account 111111111111/);
  });

  it("refuses malformed accounts and regions", () => {
    expect(() => resolveSettings("dev", false, UNSET, { account: "1234" })).toThrow(
      /not a 12-digit account id/,
    );
    expect(() => resolveSettings("dev", false, UNSET, { region: "Ireland" })).toThrow(/not an AWS region/);
  });

  it("refuses a certificate from another region than the stage's", () => {
    expect(() =>
      addStage(unbundledApp(), "prod", { ...RELEASE_SETTINGS.prod, region: "eu-central-1", env: {} }),
    ).toThrow(
      "certificateArn is in eu-west-1, but the stage's APIs are in eu-central-1: a regional API needs a certificate from its own region",
    );
  });

  it("refuses, in dev, a certificate from another region than the CLI's", () => {
    const saved = process.env.CDK_DEFAULT_REGION;
    process.env.CDK_DEFAULT_REGION = "us-east-1";
    try {
      const { searchDomain, helloDomain, certificateArn } = RELEASE_SETTINGS.prod;
      expect(() => addStage(unbundledApp(), "dev", { searchDomain, helloDomain, certificateArn })).toThrow(
        /certificateArn is in eu-west-1, but the stage's APIs are in us-east-1/,
      );
    } finally {
      if (saved === undefined) delete process.env.CDK_DEFAULT_REGION;
      else process.env.CDK_DEFAULT_REGION = saved;
    }
  });
});

describe("prod with its settings", () => {
  const saved = process.env.CDK_DEFAULT_ACCOUNT;
  delete process.env.CDK_DEFAULT_ACCOUNT;
  const { stateful, stateless } = addStage(unbundledApp(), "prod", RELEASE_SETTINGS.prod);
  if (saved !== undefined) process.env.CDK_DEFAULT_ACCOUNT = saved;
  const template = Template.fromStack(stateless);

  it("binds both stacks to its account and region", () => {
    for (const stack of [stateful, stateless]) {
      expect(stack.account).toBe(RELEASE_SETTINGS.prod.account);
      expect(stack.region).toBe(TEST_REGION);
    }
  });

  it("keeps the domains, the execute-api switch-off and the on-call subscription", () => {
    expect(resources(template, "AWS::ApiGateway::DomainName")).toHaveLength(2);
    expect(resources(template, "AWS::ApiGateway::BasePathMapping")).toHaveLength(2);
    for (const [, api] of resources(template, "AWS::ApiGateway::RestApi")) {
      expect(props(api).DisableExecuteApiEndpoint).toBe(true);
    }
    const subscriptions = resources(template, "AWS::SNS::Subscription").map(([, s]) => props(s));
    expect(subscriptions).toEqual([
      expect.objectContaining({ Protocol: "email", Endpoint: RELEASE_SETTINGS.prod.alarmEmail }),
    ]);
  });
});

describe("the command line", () => {
  it("cdk's app refuses prod without settings in one line, without a stack trace", async () => {
    const outcome = await runTool("infra/app.ts", [], {
      CDK_CONTEXT_JSON: JSON.stringify({ stage: "prod" }),
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr.trim()).toBe(
      `refused: stage prod needs ${ALL_SETTINGS}: set them in STAGE_SETTINGS.prod (infra/config.ts) or pass -c account=… (docs/operations.md "First deploy")`,
    );
    expect(outcome.stderr).not.toMatch(STACK_FRAME);
  });

  it("`npm run synth -- --help` answers without synthesizing", async () => {
    const outcome = await runTool("infra/synth-all.ts", ["--help"]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^usage: npm run synth\n/);
    expect(outcome.stdout).toContain("deployable");
    expect(outcome.stderr).toBe("");
  });
});
