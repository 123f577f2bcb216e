/**
 * Who may write the inbox: the loader role, defined here, which operators assume to put files
 * under the load prefixes (`npm run load -- FILE --stage S`), and the ingest's own role, which
 * keeps its work under `work/` and writes reports under `reports/`. The bucket policy denies
 * s3:PutObject and s3:DeleteObject to every other principal, whatever its IAM policies allow, so
 * no one else in the account can drop a snapshot that replaces the directory. In a stage whose
 * inbox goes with the stack, CDK's auto-delete function may empty it too.
 */
import { ArnFormat, Aws, CfnOutput, Stack } from "aws-cdk-lib";
import { AccountRootPrincipal, AnyPrincipal, Effect, PolicyStatement, Role } from "aws-cdk-lib/aws-iam";
import type { Bucket } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { INBOX_PREFIXES, REPORTS_PREFIX } from "../../lib/ingest/inbox.js";
import { stageParameterNames } from "../../lib/stages.js";
import type { StageConfig } from "../config.js";
import { acknowledgeWildcardResources } from "./wildcard-acknowledgment.js";

/** The ingest function's role name (set by the stateless stack, which the bucket cannot import). */
export function ingestRoleName(stage: string): string {
  return `partner-directory-${stage}-ingest`;
}

/** The ingest's state machine name (the loader role, in the stateful stack, names its executions). */
export function ingestStateMachineName(stage: string): string {
  return `partner-directory-${stage}-ingest`;
}

function loaderRoleName(stage: string): string {
  return `partner-directory-${stage}-loader`;
}

const roleArn = (name: string) => `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/${name}`;

export function addInboxWriters(
  scope: Construct,
  bucket: Bucket,
  config: StageConfig,
  autoDeletes: boolean,
): Role {
  const loader = new Role(scope, "LoaderRole", {
    roleName: loaderRoleName(config.stage),
    // Any principal of this account whose own IAM policy lets it assume this role.
    assumedBy: new AccountRootPrincipal(),
    description: `Puts files in the ${config.stage} inbox and reads their reports (npm run load)`,
  });
  const objects = (prefixes: readonly string[]) =>
    prefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`));
  loader.addToPolicy(new PolicyStatement({ actions: ["s3:PutObject"], resources: objects(INBOX_PREFIXES) }));
  loader.addToPolicy(
    new PolicyStatement({ actions: ["s3:GetObject"], resources: objects([REPORTS_PREFIX]) }),
  );
  // A missing report reads as 404, not 403.
  loader.addToPolicy(new PolicyStatement({ actions: ["s3:ListBucket"], resources: [bucket.bucketArn] }));
  const stack = Stack.of(scope);
  const parameters = [stageParameterNames.inboxBucketName, stageParameterNames.ingestStateMachineArn];
  loader.addToPolicy(
    new PolicyStatement({
      actions: ["ssm:GetParameter"],
      resources: parameters.map((name) =>
        stack.formatArn({ service: "ssm", resource: "parameter", resourceName: name(config.stage).slice(1) }),
      ),
    }),
  );
  // The CLI finds its upload's execution and reads how it ended.
  const stateMachine = ingestStateMachineName(config.stage);
  const executions = stack.formatArn({
    service: "states",
    resource: "execution",
    resourceName: `${stateMachine}:*`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
  loader.addToPolicy(
    new PolicyStatement({
      actions: ["states:ListExecutions"],
      resources: [
        stack.formatArn({
          service: "states",
          resource: "stateMachine",
          resourceName: stateMachine,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
    }),
  );
  loader.addToPolicy(new PolicyStatement({ actions: ["states:DescribeExecution"], resources: [executions] }));
  acknowledgeWildcardResources(
    loader,
    objects([...INBOX_PREFIXES, REPORTS_PREFIX]),
    "The objects under the load prefixes (files to load) and reports/ (their reports): object keys are file names, unknown in advance.",
  );
  acknowledgeWildcardResources(
    loader,
    [executions],
    "The executions of the ingest's state machine (read-only, DescribeExecution): their names are drawn by EventBridge.",
  );
  const writers = [loader.roleArn, roleArn(ingestRoleName(config.stage))];
  const stackName = Stack.of(scope).stackName;
  bucket.addToResourcePolicy(
    new PolicyStatement({
      sid: "OnlyTheLoaderAndTheIngestWrite",
      effect: Effect.DENY,
      principals: [new AnyPrincipal()],
      actions: ["s3:PutObject", "s3:DeleteObject"],
      resources: [bucket.arnForObjects("*")],
      conditions: {
        ArnNotEquals: { "aws:PrincipalArn": writers },
        // CDK's auto-delete provider role: `<stack>-CustomS3AutoDeleteObjects…-<id>`, cut short by CloudFormation.
        ...(autoDeletes ? { ArnNotLike: { "aws:PrincipalArn": roleArn(`${stackName}-CustomS3*`) } } : {}),
      },
    }),
  );
  new CfnOutput(scope, "LoaderRoleArn", {
    description: "Assume it to load files into the inbox (docs/operations.md)",
    value: loader.roleArn,
  });
  return loader;
}
