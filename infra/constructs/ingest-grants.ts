/**
 * What the ingest's step function may do on the inbox (infra/constructs/ingest.ts): read the files
 * by version, keep its work, write reports. Nothing else, by prefix.
 */

import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import { INBOX_PREFIXES, REPORTS_PREFIX, WORK_PREFIX } from "../../lib/ingest/inbox.js";
import type { DirectoryFunction } from "./directory-function.js";
import { acknowledgeWildcardResources } from "./wildcard-acknowledgment.js";

/** Least privilege on the inbox: read the files by version, keep work, write reports. */
export function grantInbox(fn: DirectoryFunction, inbox: IBucket): void {
  const objects = (prefixes: readonly string[]) =>
    prefixes.map((prefix) => inbox.arnForObjects(`${prefix}*`));
  acknowledgeWildcardResources(
    fn.role ?? fn,
    objects([...INBOX_PREFIXES, WORK_PREFIX, REPORTS_PREFIX]),
    "The objects under one prefix of the inbox each (merge/, snapshot/, changes/, work/, reports/): object keys are the files' names, unknown in advance.",
  );
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ["s3:GetObject", "s3:GetObjectVersion"],
      resources: objects(INBOX_PREFIXES),
    }),
  );
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
      resources: objects([WORK_PREFIX]),
    }),
  );
  fn.addToRolePolicy(
    new PolicyStatement({ actions: ["s3:GetObject", "s3:PutObject"], resources: objects([REPORTS_PREFIX]) }),
  );
  // Without it a missing object reads as 403, not 404: "no report yet" must be tellable.
  fn.addToRolePolicy(new PolicyStatement({ actions: ["s3:ListBucket"], resources: [inbox.bucketArn] }));
}
