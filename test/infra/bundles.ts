/**
 * Loads a synthesized function bundle in a child Node (the project's Node 24), as Lambda would:
 * an ES module with its `handler` export, the AWS SDK and Powertools bundled in.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { Template } from "aws-cdk-lib/assertions";

/** The bundle file of a Lambda function of the template, by its logical id. */
export function bundlePath(outdir: string, template: Template, functionLogicalId: string): string {
  const fn = template.toJSON().Resources[functionLogicalId] as { Properties: { Code: { S3Key: string } } };
  return join(outdir, `asset.${fn.Properties.Code.S3Key.replace(/\.zip$/, "")}`, "index.mjs");
}

/** Imports the bundle, runs `call` (a JS expression over `handler`) and returns what it prints. */
export function runBundle(file: string, call: string): string {
  const script = `const { handler } = await import(${JSON.stringify(file)});
if (typeof handler !== "function") throw new Error("no handler export");
console.log(JSON.stringify(await ${call}));`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    // A refused call's stack (with a line of minified bundle) belongs to the test, not the report.
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      AWS_REGION: "eu-west-1",
      DIRECTORY_TABLE: "directory",
      KEYS_TABLE: "keys",
      STAGE: "test",
      POWERTOOLS_LOG_LEVEL: "SILENT",
    },
  });
}
