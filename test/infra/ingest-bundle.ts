/**
 * The ingest's function as synthesized (the esbuild bundle the stack deploys), run step after step
 * in child Node processes as Lambda would run it, against s3rver and dynalite: the file put in the
 * inbox is applied, and the report written.
 */
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { InboxStore } from "../../lib/ingest/inbox-store.js";
import type { IngestState } from "../../lib/ingest/ingest-state.js";
import { runLocalExecution } from "../../lib/ingest/local-execution.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { createTables } from "../../lib/store/create-tables.js";
import { type LocalS3, S3RVER_CREDENTIALS, startLocalS3 } from "../support/s3rver.js";
import { bundlePath, runBundleAsync } from "./bundles.js";
import type { SynthesizedStage } from "./synth.js";
import { logicalId } from "./template-helpers.js";

/** What Lambda passes a handler, as far as the step and Powertools read it. */
const LAMBDA_CONTEXT = `{
  getRemainingTimeInMillis: () => 900000, functionName: "ingest", functionVersion: "$LATEST",
  invokedFunctionArn: "arn:aws:lambda:eu-west-1:1:function:ingest", memoryLimitInMB: "3008",
  awsRequestId: "r-1", callbackWaitsForEmptyEventLoop: true }`;

const person = (n: number) => ({
  person: {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    createdAt: "2024-01-01T00:00:00Z",
    updatedAt: "2024-01-01T00:00:00Z",
  },
});

export function ingestBundleAssertions(stage: string, synthesized: () => SynthesizedStage): void {
  describe(`${stage}: the ingest's bundle`, () => {
    let s3: LocalS3 | undefined;
    let dynamo: Engine | undefined;
    beforeAll(async () => {
      s3 = await startLocalS3();
      dynamo = await startDynalite();
      // The names the bundles' environment gives (test/infra/bundles.ts).
      await createTables(dynamo.client(), { directory: "directory", keys: "keys" });
    });
    afterAll(async () => {
      await s3?.stop();
      await dynamo?.stop();
    });

    it("applies a file put in the inbox, step after step, and writes its report", async () => {
      if (!s3 || !dynamo) throw new Error("setup failed");
      const { bucket } = s3;
      const body = [person(1), person(2), person(3)].map((line) => JSON.stringify(line)).join("\n");
      await s3.client().send(new PutObjectCommand({ Bucket: bucket, Key: "merge/three.ndjson", Body: body }));
      const stateless = synthesized().statelessTemplate;
      const file = bundlePath(
        synthesized().outdir,
        stateless,
        logicalId(synthesized().stateless.ingest.stepFunction),
      );
      const env = {
        AWS_ENDPOINT_URL_S3: s3.endpoint,
        AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
        AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      };
      const step = async (state: IngestState): Promise<IngestState> => {
        const run = await runBundleAsync(file, `handler(${JSON.stringify(state)}, ${LAMBDA_CONTEXT})`, env);
        if (!run.ok) throw new Error(run.stderr.slice(0, 2_000));
        return JSON.parse(run.stdout.trimEnd().split("\n").at(-1) ?? "") as IngestState;
      };
      const object = { bucket, key: "merge/three.ndjson", versionId: "null" };
      const { state, deadLetter } = await runLocalExecution(object, step);
      expect(deadLetter).toBeUndefined();
      expect(state.status).toBe("applied");
      const report = await new InboxStore(s3.client()).report(object);
      expect(report).toMatchObject({ status: "applied", mode: "merge", changes: 3 });
    });

    it("writes the failed report of an execution that timed out, called with EventBridge's event", async () => {
      if (!s3 || !dynamo) throw new Error("setup failed");
      const { bucket } = s3;
      const object = { bucket, key: "merge/late.ndjson", versionId: "null" };
      await s3.client().send(new PutObjectCommand({ Bucket: bucket, Key: object.key, Body: "" }));
      const event = {
        source: "aws.states",
        "detail-type": "Step Functions Execution Status Change",
        detail: {
          name: "e-late",
          status: "TIMED_OUT",
          startDate: 1_767_225_600_000,
          stopDate: 1_767_312_000_000,
          input: JSON.stringify({ object }),
          error: "States.Timeout",
          cause: null,
        },
      };
      const file = bundlePath(
        synthesized().outdir,
        synthesized().statelessTemplate,
        logicalId(synthesized().stateless.ingest.stepFunction),
      );
      const run = await runBundleAsync(file, `handler(${JSON.stringify(event)}, ${LAMBDA_CONTEXT})`, {
        AWS_ENDPOINT_URL_S3: s3.endpoint,
        AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
        AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      });
      if (!run.ok) throw new Error(run.stderr.slice(0, 2_000));
      expect(await new InboxStore(s3.client()).report(object)).toMatchObject({
        status: "failed",
        error: "the ingest's execution timed out (States.Timeout)",
        execution: "e-late",
      });
    });
  });
}
