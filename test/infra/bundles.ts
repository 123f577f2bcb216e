/**
 * Loads a synthesized function bundle in a child Node (the project's Node 24), as Lambda would:
 * an ES module with its `handler` export, the AWS SDK and Powertools bundled in.
 */
import { execFile, execFileSync } from "node:child_process";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Template } from "aws-cdk-lib/assertions";

/** The bundle file of a Lambda function of the template, by its logical id. */
export function bundlePath(outdir: string, template: Template, functionLogicalId: string): string {
  const fn = template.toJSON().Resources[functionLogicalId] as { Properties: { Code: { S3Key: string } } };
  return join(outdir, `asset.${fn.Properties.Code.S3Key.replace(/\.zip$/, "")}`, "index.mjs");
}

const BUNDLE_ENV = {
  AWS_REGION: "eu-west-1",
  DIRECTORY_TABLE: "directory",
  KEYS_TABLE: "keys",
  STAGE: "test",
  POWERTOOLS_LOG_LEVEL: "SILENT",
};

const script = (file: string, call: string) => `const { handler } = await import(${JSON.stringify(file)});
if (typeof handler !== "function") throw new Error("no handler export");
console.log(JSON.stringify(await ${call}));`;

/** Imports the bundle, runs `call` (a JS expression over `handler`) and returns what it prints. */
export function runBundle(file: string, call: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", script(file, call)], {
    encoding: "utf8",
    // A refused call's stack (with a line of minified bundle) belongs to the test, not the report.
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH, ...BUNDLE_ENV },
  });
}

/** As runBundle, without blocking this process (so it can serve the bundle's calls), with more environment. */
export async function runBundleAsync(
  file: string,
  call: string,
  env: Record<string, string>,
): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["--input-type=module", "-e", script(file, call)],
      {
        encoding: "utf8",
        env: { PATH: process.env.PATH, ...BUNDLE_ENV, ...env },
      },
    );
    return { ok: true, stdout, stderr };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** The call API Gateway makes to the TOKEN authorizer, as a `handler(…)` expression for runBundle. */
export function authorizerCall(authorizationToken: string): string {
  const event = { type: "TOKEN", authorizationToken, methodArn: "arn:aws:execute-api:eu-west-1:1:a/x/GET/y" };
  return `handler(${JSON.stringify(event)})`;
}

export interface FakeDynamoDb {
  /** For AWS_ENDPOINT_URL_DYNAMODB. */
  readonly endpoint: string;
  close(): void;
}

/** An HTTP server on 127.0.0.1 that stands in for DynamoDB: `onRequest` decides what it answers. */
export async function fakeDynamoDb(onRequest: RequestListener): Promise<FakeDynamoDb> {
  const server = createServer(onRequest);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close() {
      // A stub that never answers holds its connections open.
      server.closeAllConnections();
      server.close();
    },
  };
}
