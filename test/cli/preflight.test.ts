/** The preflight's checks against mocked AWS SDK clients (aws-sdk-client-mock): nothing calls AWS. */
import { ACMClient, DescribeCertificateCommand } from "@aws-sdk/client-acm";
import { APIGatewayClient, GetAccountCommand } from "@aws-sdk/client-api-gateway";
import { GetAccountSettingsCommand, LambdaClient } from "@aws-sdk/client-lambda";
import { GetHostedZoneCommand, Route53Client } from "@aws-sdk/client-route-53";
import { GetParameterCommand, SSMClient } from "@aws-sdk/client-ssm";
import { mockClient } from "aws-sdk-client-mock";
import type { PreflightInputs } from "../../infra/preflight-inputs.js";
import {
  BOOTSTRAP_VERSION_PARAMETER,
  covers,
  resultLine,
  runPreflight,
} from "../../lib/cli/preflight-checks.js";
import { runTool, STACK_FRAME } from "./run-tool.js";

const CERTIFICATE = "arn:aws:acm:eu-west-1:111111111111:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789";
const INPUTS: PreflightInputs = {
  stage: "prod",
  region: "eu-west-1",
  reservedConcurrency: 155,
  customDomains: {
    searchDomain: "search.partners.example.com",
    helloDomain: "hello.partners.example.com",
    certificateArn: CERTIFICATE,
  },
  hostedZoneId: "Z0123456789ABC",
  statelessStackName: "PartnerDirectory-prod-Stateless",
};

const lambda = mockClient(LambdaClient);
const acm = mockClient(ACMClient);
const ssm = mockClient(SSMClient);
const apiGateway = mockClient(APIGatewayClient);
const route53 = mockClient(Route53Client);

function notFound(name: string): Error {
  return Object.assign(new Error("not found"), { name });
}

beforeEach(() => {
  for (const mock of [lambda, acm, ssm, apiGateway, route53]) mock.reset();
  lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 1000 } });
  acm.on(DescribeCertificateCommand).resolves({
    Certificate: { Status: "ISSUED", DomainName: "*.partners.example.com", SubjectAlternativeNames: [] },
  });
  ssm.on(GetParameterCommand, { Name: BOOTSTRAP_VERSION_PARAMETER }).resolves({ Parameter: { Value: "27" } });
  apiGateway.on(GetAccountCommand).resolves({});
  route53.on(GetHostedZoneCommand).resolves({
    HostedZone: { Id: "Z0123456789ABC", Name: "partners.example.com.", CallerReference: "x" },
  });
});

const failing = async (inputs: PreflightInputs = INPUTS) =>
  (await runPreflight(inputs)).filter((result) => !result.ok).map(resultLine);

describe("preflight", () => {
  it("passes an account that is ready, one line per check", async () => {
    const results = await runPreflight(INPUTS);
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ["lambda-concurrency", true],
      ["certificate", true],
      ["cdk-bootstrap", true],
      ["api-gateway-account", true],
      ["hosted-zone", true],
    ]);
    expect(resultLine(results[0] ?? { name: "", ok: false, detail: "" })).toBe(
      "ok   lambda-concurrency: quota 1000 ≥ 255 (155 reserved + 100 unreserved)",
    );
    expect(acm.commandCalls(DescribeCertificateCommand)[0]?.args[0].input).toEqual({
      CertificateArn: CERTIFICATE,
    });
  });

  it("fails a concurrency quota below the reserved concurrency plus 100", async () => {
    lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 10 } });
    expect(await failing()).toEqual([
      "FAIL lambda-concurrency: quota 10 < 255 (155 reserved + 100 unreserved): ask Service Quotas for more",
    ]);
    lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 254 } });
    expect(await failing()).toHaveLength(1);
    lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 255 } });
    expect(await failing()).toEqual([]);
  });

  it("fails a certificate that is missing, not issued, not covering both domains, or in another region", async () => {
    acm.on(DescribeCertificateCommand).rejects(notFound("ResourceNotFoundException"));
    expect(await failing()).toEqual([
      `FAIL certificate: ${CERTIFICATE}: ResourceNotFoundException: not found`,
    ]);
    acm.on(DescribeCertificateCommand).resolves({ Certificate: { Status: "PENDING_VALIDATION" } });
    expect(await failing()).toEqual(["FAIL certificate: status PENDING_VALIDATION, not ISSUED"]);
    acm.on(DescribeCertificateCommand).resolves({
      Certificate: { Status: "ISSUED", DomainName: "search.partners.example.com" },
    });
    expect(await failing()).toEqual(["FAIL certificate: does not cover hello.partners.example.com"]);
    expect(await failing({ ...INPUTS, region: "us-east-1" })).toContain(
      "FAIL certificate: in eu-west-1, but the APIs are in us-east-1",
    );
  });

  it("fails an account without the CDK bootstrap", async () => {
    ssm.on(GetParameterCommand).rejects(notFound("ParameterNotFound"));
    expect(await failing()).toEqual([
      `FAIL cdk-bootstrap: ${BOOTSTRAP_VERSION_PARAMETER}: ParameterNotFound: not found: run npx cdk bootstrap aws://<account>/<region>`,
    ]);
  });

  it("accepts API Gateway's CloudWatch role when unset or this stage's, fails another's", async () => {
    apiGateway.on(GetAccountCommand).resolves({
      cloudwatchRoleArn:
        "arn:aws:iam::111111111111:role/PartnerDirectory-prod-Stateless-ApiGatewayAccountRole-X",
    });
    expect(await failing()).toEqual([]);
    apiGateway
      .on(GetAccountCommand)
      .resolves({ cloudwatchRoleArn: "arn:aws:iam::111111111111:role/other-app-logs" });
    expect((await failing())[0]).toMatch(
      /^FAIL api-gateway-account: CloudWatch role .*other-app-logs belongs to something else/,
    );
  });

  it("fails a named hosted zone that is missing or does not hold the domains; skips when none is named", async () => {
    route53.on(GetHostedZoneCommand).resolves({
      HostedZone: { Id: "Z0123456789ABC", Name: "example.org.", CallerReference: "x" },
    });
    expect(await failing()).toEqual([
      "FAIL hosted-zone: zone example.org does not hold search.partners.example.com, hello.partners.example.com",
    ]);
    route53.on(GetHostedZoneCommand).rejects(notFound("NoSuchHostedZone"));
    expect(await failing()).toEqual(["FAIL hosted-zone: Z0123456789ABC: NoSuchHostedZone: not found"]);
    route53.reset();
    expect(await failing({ ...INPUTS, hostedZoneId: undefined })).toEqual([]);
    expect(route53.calls()).toHaveLength(0);
  });

  it("fails a check whose call fails, with the SDK's message, and still runs the others", async () => {
    lambda.on(GetAccountSettingsCommand).rejects(notFound("AccessDeniedException"));
    const results = await runPreflight(INPUTS);
    expect(results.map(resultLine)[0]).toBe("FAIL lambda-concurrency: AccessDeniedException: not found");
    expect(results.filter((r) => r.ok)).toHaveLength(4);
  });

  it("matches wildcard certificate names one label deep", () => {
    expect(covers("*.example.com", "a.example.com")).toBe(true);
    expect(covers("*.example.com", "a.b.example.com")).toBe(false);
    expect(covers("*.example.com", "example.com")).toBe(false);
    expect(covers("a.example.com", "a.example.com")).toBe(true);
  });
});

describe("npm run preflight", () => {
  it("refuses a stage without its settings in one line, before calling AWS", async () => {
    const outcome = await runTool("lib/cli/preflight.ts", ["--stage", "prod"]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/^preflight: stage prod needs account, region, /);
    expect(outcome.stderr).not.toMatch(STACK_FRAME);
  });
});
