/**
 * `npm run preflight -- --stage S`: before a stage's deploy, asks its account (with the caller's
 * credentials) what CloudFormation would otherwise reject halfway: the Lambda concurrency quota,
 * the certificate, the CDK bootstrap, API Gateway's CloudWatch role and the hosted zone. One line
 * per check on stdout; exit 1 if any fails (docs/operations.md "First deploy").
 */
import { SettingsError } from "../../infra/deployment-settings.js";
import { preflightInputs } from "../../infra/preflight-inputs.js";
import { DEPLOYED_STAGES } from "../stages.js";
import { cli, UsageError } from "./args.js";
import { resultLine, runPreflight } from "./preflight-checks.js";
import { deployedStage } from "./stage-resources.js";
import { print } from "./terminal-text.js";

const USAGE = `usage: npm run preflight -- --stage ${DEPLOYED_STAGES.join("|")}

Checks the stage's account, read-only, with the current AWS credentials: the Lambda concurrency
quota against the reserved concurrency plus 100, the certificate (exists, ISSUED, covers both
domains, in the APIs' region), the CDK bootstrap, API Gateway's CloudWatch role, and the hosted
zone where one is named. One line per check; exit 1 if any fails.`;

cli({ name: "preflight", usage: USAGE, options: { stage: { type: "string" } } }, async ({ values }) => {
  const stage = deployedStage(values.stage);
  let inputs: ReturnType<typeof preflightInputs>;
  try {
    inputs = preflightInputs(stage);
  } catch (error) {
    if (error instanceof SettingsError) throw new UsageError(error.message);
    throw error;
  }
  const results = await runPreflight(inputs);
  for (const result of results) print(resultLine(result));
  if (results.some((result) => !result.ok)) process.exitCode = 1;
});
