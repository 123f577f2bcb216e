/**
 * Only the loader role and the ingest's role may write the inbox (infra/constructs/inbox-writers.ts).
 * The shared templates (synth.ts).
 */
import type { Template } from "aws-cdk-lib/assertions";
import { synthesizeStage } from "./synth.js";
import { logicalId, props, resources } from "./template-helpers.js";

function stage(name: string) {
  const synthesized = synthesizeStage(name);
  return {
    stacks: () => synthesized.stateful,
    stateful: synthesized.statefulTemplate,
    stateless: synthesized.statelessTemplate,
  };
}

interface Statement {
  Sid?: string;
  Effect: string;
  Principal?: unknown;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

const prod = stage("prod");

function denyStatement(template: Template): Statement | undefined {
  const [, policy] = resources(template, "AWS::S3::BucketPolicy")[0] ?? [];
  const statements = (props(policy ?? { Type: "" }).PolicyDocument as { Statement: Statement[] }).Statement;
  return statements.find((s) => s.Sid === "OnlyTheLoaderAndTheIngestWrite");
}

describe("the inbox's writers", () => {
  it("denies object writes and deletes to every principal but the loader and ingest roles", () => {
    const deny = denyStatement(prod.stateful);
    expect(deny).toMatchObject({ Effect: "Deny", Principal: { AWS: "*" } });
    expect([deny?.Action].flat().sort()).toEqual(["s3:DeleteObject", "s3:PutObject"]);
    const writers = JSON.stringify(deny?.Condition?.ArnNotEquals?.["aws:PrincipalArn"]);
    expect(writers).toContain(logicalId(prod.stacks().loaderRole));
    expect(writers).toContain(":role/partner-directory-prod-ingest");
    expect(deny?.Condition?.ArnNotLike).toBeUndefined();
  });

  it("names the ingest's role as the policy does", () => {
    const roles = resources(prod.stateless, "AWS::IAM::Role").map(([, r]) => props(r).RoleName);
    expect(roles).toContain("partner-directory-prod-ingest");
  });

  it("defines a loader role, assumable in the account, that writes only under the load prefixes", () => {
    const [, role] =
      resources(prod.stateful, "AWS::IAM::Role").find(
        ([, r]) => props(r).RoleName === "partner-directory-prod-loader",
      ) ?? [];
    expect(JSON.stringify(props(role ?? { Type: "" }).AssumeRolePolicyDocument)).toContain(":root");
    const statements = resources(prod.stateful, "AWS::IAM::Policy").flatMap(
      ([, p]) => (props(p).PolicyDocument as { Statement: Statement[] }).Statement,
    );
    const puts = statements.filter((s) => [s.Action].flat().includes("s3:PutObject"));
    const resourcesText = JSON.stringify(puts.map((s) => s.Resource));
    for (const prefix of ["merge/*", "snapshot/*", "changes/*"]) expect(resourcesText).toContain(prefix);
    expect(resourcesText).not.toContain("reports/");
    expect(statements.some((s) => [s.Action].flat().includes("s3:DeleteObject"))).toBe(false);
    expect(Object.keys(prod.stateful.toJSON().Outputs)).toContain("LoaderRoleArn");
  });

  it("lets the loader read its upload's execution, on the ingest's state machine only", () => {
    const [[policyId] = [""]] = resources(prod.stateful, "AWS::IAM::Policy").filter(([, p]) =>
      JSON.stringify(props(p).Roles).includes(logicalId(prod.stacks().loaderRole)),
    );
    const statements = (
      props(prod.stateful.toJSON().Resources[policyId]).PolicyDocument as {
        Statement: Statement[];
      }
    ).Statement;
    const of = (action: string) =>
      statements.filter((s) => [s.Action].flat().includes(action)).map((s) => JSON.stringify(s.Resource));
    expect(statements.flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith("states:"))).toEqual([
      "states:ListExecutions",
      "states:DescribeExecution",
    ]);
    expect(of("states:ListExecutions")).toEqual([
      expect.stringMatching(/":stateMachine:partner-directory-prod-ingest"\]\]\}$/),
    ]);
    expect(of("states:DescribeExecution")).toEqual([
      expect.stringMatching(/":execution:partner-directory-prod-ingest:\*"\]\]\}$/),
    ]);
    const parameters = of("ssm:GetParameter").join();
    expect(parameters).toContain("parameter/partner-directory/prod/inbox-bucket-name");
    expect(parameters).toContain("parameter/partner-directory/prod/ingest-state-machine-arn");
    // The state machine the policy names, and the parameter the CLI reads its ARN from.
    prod.stateless.hasResourceProperties("AWS::StepFunctions::StateMachine", {
      StateMachineName: "partner-directory-prod-ingest",
    });
    const [[machineId] = [""]] = resources(prod.stateless, "AWS::StepFunctions::StateMachine");
    prod.stateless.hasResourceProperties("AWS::SSM::Parameter", {
      Name: "/partner-directory/prod/ingest-state-machine-arn",
      Value: { Ref: machineId },
    });
  });

  it("lets CDK's auto-delete provider empty dev's inbox, which goes with its stack", () => {
    const deny = denyStatement(stage("dev").stateful);
    expect(JSON.stringify(deny?.Condition?.ArnNotLike)).toContain(
      ":role/PartnerDirectory-dev-Stateful-CustomS3*",
    );
  });
});
