/**
 * The data path on AWS (infra/constructs/ingest.ts, infra/constructs/inbox-bucket.ts): the inbox
 * bucket, the rule that starts an ingest, the state machine's loop, the grants, the dead-letter
 * queue and its alarm. prod, bare (`-c stage=prod`), synthesized once (real esbuild bundling).
 */
import { rmSync } from "node:fs";
import { executionEndEvent } from "../../lib/ingest/execution-end.js";
import { INBOX_PREFIXES } from "../../lib/ingest/inbox.js";
import { INGEST_LEASE_MS } from "../../lib/ingest/ingest-state.js";
import { type SynthesizedStage, synthesizeStage } from "./synth.js";
import { type CfnResource, logicalId, props, refersTo, resources } from "./template-helpers.js";

let prod: SynthesizedStage | undefined;
function get(): SynthesizedStage {
  if (!prod) throw new Error("prod was not synthesized");
  return prod;
}

beforeAll(() => {
  prod = synthesizeStage("prod", {}, { bundles: true });
});

afterAll(() => {
  if (prod) rmSync(prod.outdir, { recursive: true, force: true });
});

const stateless = () => get().statelessTemplate;
const statelessResource = (id: string) => stateless().toJSON().Resources[id] as CfnResource;
const inboxId = () => logicalId(get().stateful.inbox);

/** A CloudFormation value as text: imports of the inbox's ARN as `<inbox>`, other references as `<id>`. */
function render(value: unknown): string {
  if (typeof value === "string") return value;
  const node = value as Record<string, unknown>;
  if (node["Fn::Join"]) {
    const [delimiter, parts] = node["Fn::Join"] as [string, unknown[]];
    return parts.map(render).join(delimiter);
  }
  if (node["Fn::ImportValue"]) {
    const name = String(node["Fn::ImportValue"]);
    return name.includes(`GetAtt${inboxId()}Arn`) ? "<inbox>" : `<import ${name}>`;
  }
  if (node["Fn::GetAtt"]) return `<${(node["Fn::GetAtt"] as string[])[0]}>`;
  if (node.Ref) return `<${String(node.Ref)}>`;
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}

interface Statement {
  Action: string | string[];
  Effect: string;
  Resource: unknown;
}

/** Every statement of the policies attached to a role. */
function roleStatements(roleId: string): Statement[] {
  return resources(stateless(), "AWS::IAM::Policy")
    .filter(([, policy]) => refersTo(props(policy).Roles, roleId))
    .flatMap(([, policy]) => (props(policy).PolicyDocument as { Statement: Statement[] }).Statement);
}

interface State {
  Type: string;
  Next?: string;
  Resource?: string;
  ResultPath?: string | null;
  Seconds?: number;
  Retry?: {
    ErrorEquals: string[];
    IntervalSeconds?: number;
    BackoffRate?: number;
    MaxAttempts?: number;
    MaxDelaySeconds?: number;
    JitterStrategy?: string;
  }[];
  Catch?: { ErrorEquals: string[]; ResultPath?: string; Next: string }[];
  Choices?: ChoiceRule[];
  Default?: string;
  Parameters?: Record<string, unknown>;
  Error?: string;
}

interface ChoiceRule {
  Variable?: string;
  StringEquals?: string;
  IsPresent?: boolean;
  Or?: ChoiceRule[];
  Next?: string;
}

function definition(): { StartAt: string; States: Record<string, State>; TimeoutSeconds?: number } {
  const [[, machine] = ["", { Type: "" }]] = resources(stateless(), "AWS::StepFunctions::StateMachine");
  return JSON.parse(render(props(machine).DefinitionString));
}

/** What a Choice state does with `{status}` (undefined: no status), as Step Functions evaluates it. */
function choose(choice: State, status: string | undefined): string | undefined {
  const matches = (rule: ChoiceRule): boolean => {
    if (rule.Or) return rule.Or.some(matches);
    if (rule.Variable !== "$.status") throw new Error(`unexpected variable ${rule.Variable}`);
    if (rule.IsPresent !== undefined) return rule.IsPresent === (status !== undefined);
    if (status === undefined) throw new Error("States.Runtime: $.status compared while absent");
    return rule.StringEquals === status;
  };
  return (choice.Choices ?? []).find(matches)?.Next ?? choice.Default;
}

describe("prod: the inbox bucket", () => {
  const bucket = () => props(get().statefulTemplate.toJSON().Resources[inboxId()] as CfnResource);

  it("is private, encrypted, versioned, TLS-only, kept with the stack, and tells EventBridge of new objects", () => {
    expect(bucket()).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
      },
      VersioningConfiguration: { Status: "Enabled" },
      NotificationConfiguration: { EventBridgeConfiguration: { EventBridgeEnabled: true } },
    });
    expect(bucket().BucketName).toBeUndefined();
    const resource = get().statefulTemplate.toJSON().Resources[inboxId()] as CfnResource;
    expect(resource.DeletionPolicy).toBe("Retain");
    // No custom resource: neither bucket notifications nor auto-deletion in prod.
    expect(resources(get().statefulTemplate, "AWS::Lambda::Function")).toEqual([]);
    const [[, policy] = ["", { Type: "" }]] = resources(get().statefulTemplate, "AWS::S3::BucketPolicy");
    expect(JSON.stringify(props(policy).PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it("expires old versions, abandoned uploads, inputs, work and reports", () => {
    const rules = (bucket().LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;
    const { inbox } = get().config;
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          NoncurrentVersionExpiration: { NoncurrentDays: inbox.noncurrentVersionDays },
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          ExpiredObjectDeleteMarker: true,
          Status: "Enabled",
        }),
        ...INBOX_PREFIXES.map((prefix) =>
          expect.objectContaining({ Prefix: prefix, ExpirationInDays: inbox.inputDays }),
        ),
        expect.objectContaining({ Prefix: "work/", ExpirationInDays: inbox.workDays }),
        expect.objectContaining({ Prefix: "reports/", ExpirationInDays: inbox.reportDays }),
      ]),
    );
    expect(rules).toHaveLength(3 + INBOX_PREFIXES.length);
    expect(inbox).toMatchObject({ noncurrentVersionDays: 30, workDays: 7, reportDays: 400 });
  });

  it("publishes its name under /partner-directory/<stage>/inbox-bucket-name", () => {
    get().statefulTemplate.hasResourceProperties("AWS::SSM::Parameter", {
      Name: "/partner-directory/prod/inbox-bucket-name",
      Value: { Ref: inboxId() },
    });
  });
});

describe("prod: the rule", () => {
  const rule = () => props(statelessResource(logicalId(get().stateless.ingest.rule)));

  it("matches S3's Object Created in this inbox under the load prefixes only", () => {
    expect(rule().EventPattern).toEqual({
      source: ["aws.s3"],
      "detail-type": ["Object Created"],
      detail: {
        bucket: { name: [{ "Fn::ImportValue": expect.stringContaining(`Ref${inboxId()}`) }] },
        object: { key: [{ prefix: "merge/" }, { prefix: "snapshot/" }, { prefix: "changes/" }] },
      },
    });
  });

  it("starts the state machine with the object version, retrying, with the dead-letter queue", () => {
    const [target] = rule().Targets as Record<string, unknown>[];
    expect(target?.Arn).toEqual({ Ref: logicalId(get().stateless.ingest.stateMachine) });
    expect(target?.DeadLetterConfig).toEqual({
      Arn: { "Fn::GetAtt": [logicalId(get().stateless.ingest.deadLetters), "Arn"] },
    });
    expect(target?.RetryPolicy).toEqual({ MaximumEventAgeInSeconds: 86_400, MaximumRetryAttempts: 20 });
    const transformer = target?.InputTransformer as {
      InputPathsMap: Record<string, string>;
      InputTemplate: string;
    };
    // The template with each placeholder replaced by the event's value, as EventBridge does.
    const event = {
      detail: { bucket: { name: "inbox" }, object: { key: "merge/a b.ndjson", "version-id": "v1" } },
    };
    const values: Record<string, string> = {
      "$.detail.bucket.name": event.detail.bucket.name,
      "$.detail.object.key": event.detail.object.key,
      "$.detail.object.version-id": event.detail.object["version-id"],
    };
    const input = transformer.InputTemplate.replace(/<([^>]+)>/g, (_, name: string) =>
      JSON.stringify(values[transformer.InputPathsMap[name] ?? ""]),
    );
    expect(JSON.parse(input)).toEqual({
      object: { bucket: "inbox", key: "merge/a b.ndjson", versionId: "v1" },
    });
  });
});

describe("prod: the state machine", () => {
  const fnArn = () => `<${logicalId(get().stateless.ingest.stepFunction)}>`;

  it("is a Standard state machine with X-Ray and its own log group, every event without execution data", () => {
    const [[, machine] = ["", { Type: "" }]] = resources(stateless(), "AWS::StepFunctions::StateMachine");
    expect(props(machine)).toMatchObject({
      StateMachineType: "STANDARD",
      StateMachineName: "partner-directory-prod-ingest",
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: { Level: "ALL", IncludeExecutionData: false },
    });
    expect(definition().TimeoutSeconds).toBe(24 * 3600);
  });

  it("steps again when running, after 30 s when waiting, and ends on applied, refused, duplicate", () => {
    const { StartAt, States } = definition();
    const step = States[StartAt];
    expect(step).toMatchObject({ Type: "Task", Resource: fnArn() });
    // The payload is the output: no ResultPath, OutputPath or ResultSelector.
    expect(step?.ResultPath).toBeUndefined();
    const route = States[step?.Next ?? ""] ?? { Type: "" };
    expect(route.Type).toBe("Choice");
    expect(choose(route, "running")).toBe(StartAt);
    const wait = States[choose(route, "waiting") ?? ""];
    expect(wait).toMatchObject({ Type: "Wait", Seconds: 30, Next: StartAt });
    for (const status of ["applied", "refused", "duplicate"]) {
      expect(States[choose(route, status) ?? ""]?.Type).toBe("Succeed");
    }
  });

  it("sends the state to the dead-letter queue, then fails, on failed, an unknown status or none", () => {
    const { StartAt, States } = definition();
    const route = States[States[StartAt]?.Next ?? ""] ?? { Type: "" };
    const queueUrl = `<${logicalId(get().stateless.ingest.deadLetters)}>`;
    for (const status of ["failed", "exploded", undefined]) {
      const deadLetter = States[choose(route, status) ?? ""];
      expect(deadLetter).toMatchObject({
        Type: "Task",
        Resource: "arn:<AWS::Partition>:states:::sqs:sendMessage",
        Parameters: { QueueUrl: queueUrl, "MessageBody.$": "$" },
        ResultPath: null,
      });
      expect(States[deadLetter?.Next ?? ""]).toMatchObject({ Type: "Fail", Error: "IngestFailed" });
    }
  });

  it("retries an invoke well within the lease in all, each delay capped and jittered", () => {
    const { StartAt, States } = definition();
    const step = States[StartAt] ?? { Type: "" };
    const abort = States[step.Catch?.[0]?.Next ?? ""] ?? { Type: "" };
    for (const task of [step, abort]) {
      const retries = task.Retry ?? [];
      const throttled = retries.find((retry) =>
        retry.ErrorEquals.includes("Lambda.TooManyRequestsException"),
      );
      expect(throttled).toMatchObject({ MaxDelaySeconds: 30, JitterStrategy: "FULL" });
      for (const retry of retries) expect(retry.MaxDelaySeconds).toBeLessThanOrEqual(30);
      // Every retrier's waits in a row (Step Functions' defaults: 1 s, rate 2, 3 attempts).
      const waits = retries.flatMap(
        ({ IntervalSeconds = 1, BackoffRate = 2, MaxAttempts = 3, MaxDelaySeconds }) =>
          Array.from({ length: MaxAttempts }, (_, n) =>
            Math.min(IntervalSeconds * BackoffRate ** n, MaxDelaySeconds ?? Number.POSITIVE_INFINITY),
          ),
      );
      expect(waits.reduce((sum, wait) => sum + wait, 0)).toBeLessThanOrEqual(
        ((INGEST_LEASE_MS / 1000) * 2) / 3,
      );
    }
  });

  it("after a crash keeps the state with crash added and invokes the function to abort; a crashed abort is a dead letter", () => {
    const { StartAt, States } = definition();
    const step = States[StartAt] ?? { Type: "" };
    // The standard retries on Lambda's service errors first, then throttling, then the catch.
    expect(step.Retry?.[0]?.ErrorEquals).toEqual(expect.arrayContaining(["Lambda.ServiceException"]));
    expect(step.Catch).toEqual([
      { ErrorEquals: ["States.ALL"], ResultPath: "$.crash", Next: expect.any(String) },
    ]);
    const abort = States[step.Catch?.[0]?.Next ?? ""] ?? { Type: "" };
    expect(abort).toMatchObject({ Type: "Task", Resource: fnArn(), Next: step.Next });
    expect(abort.ResultPath).toBeUndefined();
    expect(abort.Catch).toEqual([
      { ErrorEquals: ["States.ALL"], ResultPath: "$.crash", Next: expect.any(String) },
    ]);
    const deadLetter = States[abort.Catch?.[0]?.Next ?? ""];
    expect(deadLetter?.Resource).toBe("arn:<AWS::Partition>:states:::sqs:sendMessage");
    expect(States[deadLetter?.Next ?? ""]?.Type).toBe("Fail");
  });
});

describe("prod: the step function", () => {
  const fn = () => get().stateless.ingest.stepFunction;

  it("runs up to 15 minutes with the stage's memory and reserved concurrency, and the directory table", () => {
    const p = props(statelessResource(logicalId(fn())));
    const sizing = get().config.ingestFunction;
    expect(sizing).toEqual({ memoryMb: 3008, timeoutSeconds: 900, reservedConcurrency: 5 });
    expect(p).toMatchObject({
      Timeout: 900,
      MemorySize: sizing.memoryMb,
      ReservedConcurrentExecutions: sizing.reservedConcurrency,
      TracingConfig: { Mode: "Active" },
    });
    const env = (p.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env).toMatchObject({ STAGE: "prod", POWERTOOLS_SERVICE_NAME: "partner-directory" });
    expect(env.DIRECTORY_TABLE).toEqual({ "Fn::ImportValue": expect.stringContaining("DirectoryTable") });
    expect("KEYS_TABLE" in env).toBe(false);
  });

  it("may do exactly what a load does, on the directory table and the inbox's prefixes, and send a dead letter", () => {
    const directory = `<import ${JSON.stringify(stateless().toJSON()).match(/"([^"]*GetAttDirectoryTable[^"]*Arn[^"]*)"/)?.[1]}>`;
    const granted = roleStatements(logicalId(fn().role ?? fn())).map((st) => ({
      effect: st.Effect,
      actions: [st.Action].flat().sort(),
      resources: [st.Resource].flat().map(render).sort(),
    }));
    expect(granted).toEqual([
      {
        effect: "Allow",
        actions: ["logs:CreateLogStream", "logs:PutLogEvents"],
        resources: [`<${logicalId(fn().logGroup)}>`],
      },
      { effect: "Allow", actions: ["xray:PutTelemetryRecords", "xray:PutTraceSegments"], resources: ["*"] },
      {
        effect: "Allow",
        actions: [
          "dynamodb:BatchGetItem",
          "dynamodb:BatchWriteItem",
          "dynamodb:DeleteItem",
          "dynamodb:GetItem",
          "dynamodb:PutItem",
          "dynamodb:Query",
          "dynamodb:Scan",
          "dynamodb:UpdateItem",
        ],
        resources: [directory, `${directory}/index/byPhone`],
      },
      {
        effect: "Allow",
        actions: ["s3:GetObject", "s3:GetObjectVersion"],
        resources: ["<inbox>/changes/*", "<inbox>/merge/*", "<inbox>/snapshot/*"],
      },
      {
        effect: "Allow",
        actions: ["s3:DeleteObject", "s3:GetObject", "s3:PutObject"],
        resources: ["<inbox>/work/*"],
      },
      { effect: "Allow", actions: ["s3:GetObject", "s3:PutObject"], resources: ["<inbox>/reports/*"] },
      { effect: "Allow", actions: ["s3:ListBucket"], resources: ["<inbox>"] },
      // An execution's end it could not report: a dead letter (Lambda's on-failure destination).
      {
        effect: "Allow",
        actions: ["sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:SendMessage"],
        resources: [`<${logicalId(get().stateless.ingest.deadLetters)}>`],
      },
    ]);
    expect(JSON.stringify(granted)).not.toMatch(/"(s3|dynamodb):\*"/);
  });

  it("is the only function that may write to a table", () => {
    const writers = resources(stateless(), "AWS::IAM::Policy").filter(([, policy]) =>
      /dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)/.test(JSON.stringify(props(policy))),
    );
    expect(writers.map(([, policy]) => props(policy).Roles)).toEqual([
      [{ Ref: logicalId(fn().role ?? fn()) }],
    ]);
  });

  it("is invoked by the state machine, which sends to the dead-letter queue only, and by the end rule", () => {
    const machineRole = logicalId(get().stateless.ingest.stateMachine.role);
    const statements = roleStatements(machineRole);
    const invoke = statements.find((st) => st.Action === "lambda:InvokeFunction");
    expect([invoke?.Resource].flat().map(render).sort()).toEqual([fnArn(), `${fnArn()}:*`]);
    const send = statements.find((st) => st.Action === "sqs:SendMessage");
    expect(render(send?.Resource)).toBe(`<${logicalId(get().stateless.ingest.deadLetters)}>`);
    const permissions = resources(stateless(), "AWS::Lambda::Permission").filter(([, p]) =>
      refersTo(props(p).FunctionName, logicalId(fn())),
    );
    expect(permissions.map(([, p]) => props(p))).toEqual([
      expect.objectContaining({
        Action: "lambda:InvokeFunction",
        Principal: "events.amazonaws.com",
        SourceArn: { "Fn::GetAtt": [logicalId(get().stateless.ingest.endedRule), "Arn"] },
      }),
    ]);
  });

  const fnArn = () => `<${logicalId(fn())}>`;
});

describe("prod: an execution's end", () => {
  const ingest = () => get().stateless.ingest;
  const rule = () => props(statelessResource(logicalId(ingest().endedRule)));

  it("of the ingest's state machine, failed, timed out or stopped, is matched by a rule", () => {
    expect(rule().EventPattern).toEqual({
      source: ["aws.states"],
      "detail-type": ["Step Functions Execution Status Change"],
      detail: {
        stateMachineArn: [{ Ref: logicalId(ingest().stateMachine) }],
        status: ["FAILED", "TIMED_OUT", "ABORTED"],
      },
    });
  });

  it("is handed whole to the step function, which parses every status the rule matches, and no other", () => {
    const [target, ...others] = rule().Targets as Record<string, unknown>[];
    expect(others).toEqual([]);
    expect(target?.Arn).toEqual({ "Fn::GetAtt": [logicalId(ingest().stepFunction), "Arn"] });
    expect(target?.Input ?? target?.InputPath ?? target?.InputTransformer).toBeUndefined();
    const event = (status: string) => ({
      source: "aws.states",
      "detail-type": "Step Functions Execution Status Change",
      detail: { name: "e", status, startDate: 1, stopDate: 2, input: "{}", error: null, cause: null },
    });
    const statuses = (rule().EventPattern as { detail: { status: string[] } }).detail.status;
    for (const status of statuses) expect(executionEndEvent.safeParse(event(status)).success).toBe(true);
    for (const status of ["SUCCEEDED", "RUNNING", "PENDING_REDRIVE"])
      expect(executionEndEvent.safeParse(event(status)).success).toBe(false);
  });

  it("is retried for 6 hours, by EventBridge then by Lambda, and what still fails is a dead letter", () => {
    const [target] = rule().Targets as Record<string, unknown>[];
    const deadLetters = { "Fn::GetAtt": [logicalId(ingest().deadLetters), "Arn"] };
    expect(target?.DeadLetterConfig).toEqual({ Arn: deadLetters });
    expect(target?.RetryPolicy).toEqual({ MaximumEventAgeInSeconds: 6 * 3600, MaximumRetryAttempts: 20 });
    const configs = resources(stateless(), "AWS::Lambda::EventInvokeConfig").map(([, c]) => props(c));
    expect(configs).toEqual([
      expect.objectContaining({
        FunctionName: { Ref: logicalId(ingest().stepFunction) },
        MaximumRetryAttempts: 2,
        MaximumEventAgeInSeconds: 6 * 3600,
        DestinationConfig: { OnFailure: { Destination: deadLetters } },
      }),
    ]);
  });
});

describe("prod: the dead-letter queue", () => {
  it("is encrypted, TLS-only, keeps messages 14 days, and lets only the rules send to it besides the state machine", () => {
    const queueId = logicalId(get().stateless.ingest.deadLetters);
    expect(props(statelessResource(queueId))).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    const [[, policy] = ["", { Type: "" }]] = resources(stateless(), "AWS::SQS::QueuePolicy");
    const statements = (props(policy).PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
    expect(statements).toEqual([
      expect.objectContaining({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
      expect.objectContaining({
        Effect: "Allow",
        Action: "sqs:SendMessage",
        Principal: { Service: "events.amazonaws.com" },
        Condition: {
          ArnEquals: { "aws:SourceArn": { "Fn::GetAtt": [logicalId(get().stateless.ingest.rule), "Arn"] } },
        },
      }),
      expect.objectContaining({
        Effect: "Allow",
        Action: "sqs:SendMessage",
        Principal: { Service: "events.amazonaws.com" },
        Condition: {
          ArnEquals: {
            "aws:SourceArn": { "Fn::GetAtt": [logicalId(get().stateless.ingest.endedRule), "Arn"] },
          },
        },
      }),
    ]);
  });

  it("alarms once a message has waited a minute, to the stage's topic, keeping its state without data", () => {
    const [[, alarm] = ["", { Type: "" }]] = resources(stateless(), "AWS::CloudWatch::Alarm").filter(
      ([, a]) => props(a).AlarmName === "partner-directory-prod-ingest-dead-letters",
    );
    expect(props(alarm)).toMatchObject({
      Namespace: "AWS/SQS",
      MetricName: "ApproximateAgeOfOldestMessage",
      Statistic: "Maximum",
      Period: 300,
      Threshold: 60,
      TreatMissingData: "ignore",
      ComparisonOperator: "GreaterThanOrEqualToThreshold",
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      Dimensions: [
        {
          Name: "QueueName",
          Value: { "Fn::GetAtt": [logicalId(get().stateless.ingest.deadLetters), "QueueName"] },
        },
      ],
    });
    const [[topic] = [""]] = resources(stateless(), "AWS::SNS::Topic");
    expect(props(alarm).AlarmActions).toEqual([{ Ref: topic }]);
  });

  it("alarms on ingest executions that failed, were aborted or timed out", () => {
    for (const [suffix, metric] of [
      ["ingest-executions-failed", "ExecutionsFailed"],
      ["ingest-executions-aborted", "ExecutionsAborted"],
      ["ingest-executions-timed-out", "ExecutionsTimedOut"],
    ]) {
      const [[, alarm] = ["", { Type: "" }]] = resources(stateless(), "AWS::CloudWatch::Alarm").filter(
        ([, a]) => props(a).AlarmName === `partner-directory-prod-${suffix}`,
      );
      expect(props(alarm)).toMatchObject({
        Namespace: "AWS/States",
        MetricName: metric,
        Statistic: "Sum",
        Threshold: 1,
        EvaluationPeriods: 1,
        Dimensions: [
          { Name: "StateMachineArn", Value: { Ref: logicalId(get().stateless.ingest.stateMachine) } },
        ],
      });
    }
  });
});

describe("prod: cdk-nag", () => {
  it("synthesizes with no violation, the inbox's acknowledgements each with a reason", () => {
    expect(get().synthError).toBeUndefined();
    expect(get().violations).toEqual([]);
    const ingestAcks = get().acknowledgments.filter((ack) => /Ingest|InboxBucket/.test(ack.path));
    // Each wildcard by name: the objects under each inbox prefix, the step function's versions,
    // and X-Ray's (both roles) and log delivery's `*`. Any other wildcard would fail the synth.
    const prefixWildcard = (prefix: string) =>
      expect.stringMatching(
        new RegExp(`^AwsSolutions-IAM5\\[Resource::[^\\]]*${inboxId()}Arn[^\\]]*/${prefix}/\\*\\]$`),
      );
    expect(ingestAcks.map((ack) => ack.id.replace(/^Annotation::/, "")).sort()).toEqual([
      "AwsSolutions-IAM5[Resource::*]",
      "AwsSolutions-IAM5[Resource::*]",
      `AwsSolutions-IAM5[Resource::<${logicalId(get().stateless.ingest.stepFunction)}.Arn>:*]`,
      ...["changes", "merge", "reports", "snapshot", "work"].map(prefixWildcard),
      "AwsSolutions-S1",
      "AwsSolutions-SQS3",
    ]);
    for (const ack of ingestAcks) expect(ack.reason.length).toBeGreaterThan(20);
  });
});
