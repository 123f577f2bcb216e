/**
 * A CloudWatch Synthetics canary per stage: every 5 minutes it calls the greeting route at
 * {hello_base_url} (the custom domain where there is one, so DNS, TLS, WAF, the authorizer and
 * the function are all on its path) with the stage's canary key, and wants 200. The key is never
 * in the template: the canary reads the secret `partner-directory/<stage>/canary-key`
 * (`{"key":"pd_live_…","companyId":"…"}`, created by hand; docs/operations.md) when it runs.
 */
import { ArnFormat, Duration, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import { BlockPublicAccess, Bucket, BucketEncryption } from "aws-cdk-lib/aws-s3";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import { Canary, Code, Runtime, Schedule, Test } from "aws-cdk-lib/aws-synthetics";
import { Construct } from "constructs";
import type { StageConfig } from "../config.js";
import { acknowledgeWildcardResources } from "./wildcard-acknowledgment.js";

function canarySecretName(stage: string): string {
  return `partner-directory/${stage}/canary-key`;
}

/** Runs in the canary (Node.js, AWS SDK v3 built in). Logs only the status: never the key. */
const SCRIPT = `
const { SecretsManagerClient, GetSecretValueCommand } = require("@aws-sdk/client-secrets-manager");
exports.handler = async () => {
  const secret = await new SecretsManagerClient({}).send(
    new GetSecretValueCommand({ SecretId: process.env.CANARY_SECRET_ID }),
  );
  const { key, companyId } = JSON.parse(secret.SecretString);
  const url = process.env.HELLO_BASE_URL + "/v1/companies/" + encodeURIComponent(companyId) + "/hello";
  const response = await fetch(url, { headers: { authorization: "Bearer " + key } });
  console.log("greeting answered " + response.status);
  if (response.status !== 200) throw new Error("greeting answered " + response.status + ", not 200");
};
`;

export interface GreetingCanaryProps {
  readonly config: StageConfig;
  /** {hello_base_url}, without a trailing slash. */
  readonly helloBaseUrl: string;
}

export class GreetingCanary extends Construct {
  readonly canary: Canary;

  constructor(scope: Construct, id: string, props: GreetingCanaryProps) {
    super(scope, id);
    const { config } = props;
    const artifacts = new Bucket(this, "Artifacts", {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(30) }],
      // Run logs only; kept with the stack's other logs' policy would need emptying first.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(artifacts).acknowledge({
      id: "AwsSolutions-S1",
      reason:
        "The canary's run artifacts (logs, HAR files) expire after 30 days; access logs of them would add a bucket and tell nothing.",
    });
    const secret = Secret.fromSecretNameV2(this, "Key", canarySecretName(config.stage));
    this.canary = new Canary(this, "Canary", {
      canaryName: `pd-${config.stage}-greeting`,
      runtime: Runtime.SYNTHETICS_NODEJS_PUPPETEER_9_1,
      test: Test.custom({ code: Code.fromInline(SCRIPT), handler: "index.handler" }),
      schedule: Schedule.rate(Duration.minutes(5)),
      artifactsBucketLocation: { bucket: artifacts },
      environmentVariables: { HELLO_BASE_URL: props.helloBaseUrl, CANARY_SECRET_ID: secret.secretName },
      provisionedResourceCleanup: true,
    });
    secret.grantRead(this.canary.role);
    // The role CDK gives every canary: its run artifacts, its own log groups, and the actions
    // Synthetics needs that have no resource-level permissions.
    Validations.of(this.canary.role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason:
        "Synthetics' s3:ListAllMyBuckets, xray:PutTraceSegments and cloudwatch:PutMetricData (limited by a namespace condition): none has resource-level permissions.",
    });
    acknowledgeWildcardResources(
      this.canary.role,
      [
        `${artifacts.bucketArn}/*`,
        // As CDK writes it: concrete where the stack has an account and region.
        Stack.of(this).formatArn({
          service: "logs",
          resource: "log-group",
          resourceName: "/aws/lambda/cwsyn-*",
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      "The canary's own artifacts bucket's objects, and the log groups of the Lambda functions Synthetics creates for canaries (cwsyn-<name>-<id>, named by Synthetics).",
    );
  }
}
