/**
 * A stage's inbox (lib/ingest/inbox.ts): a file put under `merge/`, `snapshot/` or `changes/`
 * starts an ingest (infra/constructs/ingest.ts), which reads it by version and writes its report
 * under `reports/`. Private, encrypted, versioned (an ingest applies one version, and a version
 * cannot change under it), TLS only, and every object goes in the end (docs/operations.md).
 */
import { Duration, RemovalPolicy, Validations } from "aws-cdk-lib";
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  type LifecycleRule,
} from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { INBOX_PREFIXES, REPORTS_PREFIX, WORK_PREFIX } from "../../lib/ingest/inbox.js";
import type { InboxSettings } from "../config.js";

function lifecycleRules(settings: InboxSettings): LifecycleRule[] {
  const days = (count: number) => Duration.days(count);
  return [
    {
      id: "old-versions-and-uploads",
      noncurrentVersionExpiration: days(settings.noncurrentVersionDays),
      abortIncompleteMultipartUploadAfter: days(1),
      // A delete marker with no versions left under it is removed too.
      expiredObjectDeleteMarker: true,
    },
    ...INBOX_PREFIXES.map((prefix) => ({
      id: `inputs-${prefix.replace("/", "")}`,
      prefix,
      expiration: days(settings.inputDays),
    })),
    // What the loader keeps between steps: a day after it is deleted (or abandoned), it is gone.
    {
      id: "work",
      prefix: WORK_PREFIX,
      expiration: days(settings.workDays),
      noncurrentVersionExpiration: days(1),
    },
    { id: "reports", prefix: REPORTS_PREFIX, expiration: days(settings.reportDays) },
  ];
}

export function addInboxBucket(scope: Construct, id: string, settings: InboxSettings): Bucket {
  const destroy = settings.removalPolicy === RemovalPolicy.DESTROY;
  const bucket = new Bucket(scope, id, {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    // SSE-S3 (docs/operations.md "Loading data on AWS"): IAM and this bucket's policy are the access control;
    // aws/s3 would add a KMS call per request and no control of its own.
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    versioned: true,
    lifecycleRules: lifecycleRules(settings),
    removalPolicy: settings.removalPolicy,
    // A versioned bucket is deleted only empty: where the stage lets it go, its objects go first.
    autoDeleteObjects: destroy,
  });
  // "Object Created" events go to EventBridge, where the ingest's rule picks the load prefixes.
  // Set on the bucket itself: `eventBridgeEnabled: true` would add a custom-resource Lambda to do
  // what CloudFormation does natively.
  (bucket.node.defaultChild as CfnBucket).notificationConfiguration = {
    eventBridgeConfiguration: { eventBridgeEnabled: true },
  };
  Validations.of(bucket).acknowledge({
    id: "AwsSolutions-S1",
    reason:
      "No server access logs: every file that starts an ingest is named by its execution and its report object, and server access logs (best effort) would need a second bucket; CloudTrail S3 data events are the audit trail where an account needs one (docs/operations.md).",
  });
  return bucket;
}
