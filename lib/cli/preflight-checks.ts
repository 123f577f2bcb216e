/**
 * The preflight's checks: what CloudFormation would otherwise reject halfway through a stage's
 * first deploy, asked of the account with the AWS SDK. Each check answers one line; none changes
 * anything.
 */
import { ACMClient, type CertificateDetail, DescribeCertificateCommand } from "@aws-sdk/client-acm";
import { APIGatewayClient, GetAccountCommand } from "@aws-sdk/client-api-gateway";
import { GetAccountSettingsCommand, LambdaClient } from "@aws-sdk/client-lambda";
import { GetHostedZoneCommand, Route53Client } from "@aws-sdk/client-route-53";
import { GetParameterCommand, SSMClient } from "@aws-sdk/client-ssm";
import type { PreflightInputs } from "../../infra/preflight-inputs.js";

export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** Lambda keeps this much of the account's concurrency unreserved: a deploy reserving more fails. */
const UNRESERVED_CONCURRENCY = 100;
/** The CDK bootstrap's version parameter (default qualifier). */
export const BOOTSTRAP_VERSION_PARAMETER = "/cdk-bootstrap/hnb659fds/version";

function messageOf(error: unknown): string {
  const { name, message } = error as { name?: string; message?: string };
  return [name, message].filter(Boolean).join(": ") || String(error);
}

async function concurrency(inputs: PreflightInputs, region: string | undefined): Promise<CheckResult> {
  const needed = inputs.reservedConcurrency + UNRESERVED_CONCURRENCY;
  const client = new LambdaClient({ region });
  const settings = await client.send(new GetAccountSettingsCommand({}));
  const quota = settings.AccountLimit?.ConcurrentExecutions;
  const ok = quota !== undefined && quota >= needed;
  return {
    name: "lambda-concurrency",
    ok,
    detail: `quota ${quota ?? "unknown"} ${ok ? "≥" : "<"} ${needed} (${inputs.reservedConcurrency} reserved + ${UNRESERVED_CONCURRENCY} unreserved)${ok ? "" : ": ask Service Quotas for more"}`,
  };
}

/** Whether a certificate name (`*.zone` covers one label) covers a domain. */
export function covers(name: string, domain: string): boolean {
  if (name === domain) return true;
  if (!name.startsWith("*.")) return false;
  const rest = domain.slice(domain.indexOf(".") + 1);
  return domain.includes(".") && rest === name.slice(2);
}

async function certificate(inputs: PreflightInputs, region: string | undefined): Promise<CheckResult> {
  const name = "certificate";
  const domains = inputs.customDomains;
  if (!domains) return { name, ok: true, detail: "no custom domains in this stage: nothing to check" };
  const certificateRegion = domains.certificateArn.split(":")[3];
  if (region !== undefined && certificateRegion !== region) {
    return { name, ok: false, detail: `in ${certificateRegion}, but the APIs are in ${region}` };
  }
  const client = new ACMClient({ region: certificateRegion });
  let found: CertificateDetail | undefined;
  try {
    const described = await client.send(
      new DescribeCertificateCommand({ CertificateArn: domains.certificateArn }),
    );
    found = described.Certificate;
  } catch (error) {
    return { name, ok: false, detail: `${domains.certificateArn}: ${messageOf(error)}` };
  }
  const status = found?.Status;
  if (status !== "ISSUED") return { name, ok: false, detail: `status ${status ?? "unknown"}, not ISSUED` };
  const names = [found?.DomainName, ...(found?.SubjectAlternativeNames ?? [])].filter(
    (value): value is string => value !== undefined,
  );
  const uncovered = [domains.searchDomain, domains.helloDomain].filter(
    (d) => !names.some((n) => covers(n, d)),
  );
  if (uncovered.length > 0) return { name, ok: false, detail: `does not cover ${uncovered.join(", ")}` };
  return {
    name,
    ok: true,
    detail: `ISSUED in ${certificateRegion}, covers ${domains.searchDomain} and ${domains.helloDomain}`,
  };
}

async function bootstrap(region: string | undefined): Promise<CheckResult> {
  const client = new SSMClient({ region });
  try {
    const { Parameter } = await client.send(new GetParameterCommand({ Name: BOOTSTRAP_VERSION_PARAMETER }));
    return { name: "cdk-bootstrap", ok: true, detail: `version ${Parameter?.Value ?? "?"}` };
  } catch (error) {
    return {
      name: "cdk-bootstrap",
      ok: false,
      detail: `${BOOTSTRAP_VERSION_PARAMETER}: ${messageOf(error)}: run npx cdk bootstrap aws://<account>/<region>`,
    };
  }
}

/** The account's one CloudWatch role for API Gateway: unset, or this stage's own, is fine. */
async function apiGatewayAccount(inputs: PreflightInputs, region: string | undefined): Promise<CheckResult> {
  const name = "api-gateway-account";
  const client = new APIGatewayClient({ region });
  const { cloudwatchRoleArn } = await client.send(new GetAccountCommand({}));
  if (!cloudwatchRoleArn) return { name, ok: true, detail: "no CloudWatch role yet: the stack sets its own" };
  const roleName = cloudwatchRoleArn.split("/").pop() ?? "";
  if (roleName.startsWith(inputs.statelessStackName)) {
    return { name, ok: true, detail: `CloudWatch role is this stage's (${roleName})` };
  }
  return {
    name,
    ok: false,
    detail: `CloudWatch role ${cloudwatchRoleArn} belongs to something else: the stack would replace it, and the two would fight`,
  };
}

async function hostedZone(inputs: PreflightInputs): Promise<CheckResult> {
  const name = "hosted-zone";
  const { hostedZoneId, customDomains } = inputs;
  if (!hostedZoneId) return { name, ok: true, detail: "none named: DNS is managed elsewhere" };
  const client = new Route53Client({});
  let zoneName: string;
  try {
    const { HostedZone } = await client.send(new GetHostedZoneCommand({ Id: hostedZoneId }));
    zoneName = (HostedZone?.Name ?? "").replace(/\.$/, "");
  } catch (error) {
    return { name, ok: false, detail: `${hostedZoneId}: ${messageOf(error)}` };
  }
  const domains = customDomains ? [customDomains.searchDomain, customDomains.helloDomain] : [];
  const outside = domains.filter((domain) => domain !== zoneName && !domain.endsWith(`.${zoneName}`));
  if (outside.length > 0)
    return { name, ok: false, detail: `zone ${zoneName} does not hold ${outside.join(", ")}` };
  return { name, ok: true, detail: `zone ${zoneName} (${hostedZoneId})` };
}

/** Every check, each as one result; a check whose call fails outright fails with the SDK's message. */
export async function runPreflight(inputs: PreflightInputs): Promise<CheckResult[]> {
  const region = inputs.region;
  const checks: [string, () => Promise<CheckResult>][] = [
    ["lambda-concurrency", () => concurrency(inputs, region)],
    ["certificate", () => certificate(inputs, region)],
    ["cdk-bootstrap", () => bootstrap(region)],
    ["api-gateway-account", () => apiGatewayAccount(inputs, region)],
    ["hosted-zone", () => hostedZone(inputs)],
  ];
  const results: CheckResult[] = [];
  for (const [name, check] of checks) {
    try {
      results.push(await check());
    } catch (error) {
      results.push({ name, ok: false, detail: messageOf(error) });
    }
  }
  return results;
}

export function resultLine(result: CheckResult): string {
  return `${result.ok ? "ok  " : "FAIL"} ${result.name}: ${result.detail}`;
}
