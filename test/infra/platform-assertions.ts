/**
 * What operators rely on in a deployed stage: the functions and their least-privilege roles, the
 * tables, logs retention, alarms and dashboard, SSM parameters, and a clean cdk-nag report.
 */
import { readFileSync } from "node:fs";
import { RemovalPolicy } from "aws-cdk-lib";
import type { IConstruct } from "constructs";
import { generateApiKey } from "../../lib/keys/api-key.js";
import { AUTHORIZER, routesForStage } from "../../lib/routes.js";
import { AUTHORIZER_RETRY_LIMITS, retryBudgetMs } from "../../lib/store/retry-limits.js";
import type { TableId } from "../../lib/store/tables.js";
import { authorizerCall, bundlePath, fakeDynamoDb, runBundle, runBundleAsync } from "./bundles.js";
import type { SynthesizedStage } from "./synth.js";
import { type CfnResource, logicalId, props, refersTo, resources } from "./template-helpers.js";

const READ_ACTIONS = ["dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:Query"];

interface Statement {
  Action: string | string[];
  Effect: string;
  Resource: unknown;
}

interface PolicyStatementJson extends Statement {
  Principal?: unknown;
  Condition?: { ArnLike?: Record<string, unknown> } & Record<string, unknown>;
}

/** A `Fn::Join` (or plain string) with its pseudo-parameter Refs replaced by sample values. */
function renderJoin(value: unknown, refs: Record<string, string>): string {
  if (typeof value === "string") return value;
  const join = (value as { "Fn::Join"?: [string, unknown[]] })["Fn::Join"];
  if (!join) throw new Error(`not a Fn::Join: ${JSON.stringify(value)}`);
  return join[1]
    .map((part) => {
      if (typeof part === "string") return part;
      const ref = (part as { Ref?: string }).Ref;
      const sample = ref === undefined ? undefined : refs[ref];
      if (sample === undefined) throw new Error(`unexpected part ${JSON.stringify(part)}`);
      return sample;
    })
    .join(join[0]);
}

/** IAM's ArnLike: `*` any run of characters, `?` one; everything else literal. */
function globMatches(pattern: string, text: string): boolean {
  const source = pattern
    .split("")
    .map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`).test(text);
}

/** A DynamoDB statement allows exactly these actions, on named tables and indexes, never `*`. */
function expectDynamoStatement(st: Statement, actions: string[]): void {
  expect(st.Effect).toBe("Allow");
  expect([st.Action].flat().sort()).toEqual(actions);
  expect(JSON.stringify(st.Resource)).not.toMatch(/"\*"|index\/\*/);
  // Indexes can only be queried: without Query, no index ARN either.
  if (!actions.includes("dynamodb:Query")) expect(JSON.stringify(st.Resource)).not.toContain("/index/");
}

export function platformAssertions(stage: string, synthesized: () => SynthesizedStage): void {
  const s = () => synthesized();
  const stateless = () => s().statelessTemplate;
  /** A construct's resource in the stateless template. */
  const resourceOf = (construct: IConstruct) =>
    stateless().toJSON().Resources[logicalId(construct)] as CfnResource;

  describe(`${stage}: functions`, () => {
    it("runs every function on nodejs24.x arm64, those behind API Gateway below its 29 s, with the shared environment", () => {
      const functions = resources(stateless(), "AWS::Lambda::Function");
      // The routes', the authorizer and the ingest's step function.
      expect(functions).toHaveLength(routesForStage(stage).length + 2);
      const ingest = logicalId(s().stateless.ingest.stepFunction);
      for (const [id, fn] of functions) {
        const p = props(fn);
        expect(p).toMatchObject({
          Runtime: "nodejs24.x",
          Architectures: ["arm64"],
          Handler: "index.handler",
        });
        // The ingest is invoked by its state machine, which waits as long as Lambda runs.
        if (id === ingest) expect(p.Timeout).toBe(900);
        else expect(p.Timeout).toBeLessThan(29);
        expect((p.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
          STAGE: stage,
          POWERTOOLS_SERVICE_NAME: "partner-directory",
          POWERTOOLS_METRICS_NAMESPACE: "PartnerDirectory",
          POWERTOOLS_LOG_LEVEL: expect.stringMatching(/^(DEBUG|INFO|WARN|ERROR)$/),
        });
        expect(p.LoggingConfig).toEqual({ LogGroup: { Ref: expect.any(String) } });
        // X-Ray segments for every invocation, under API Gateway's (its stages trace too).
        expect(p.TracingConfig).toEqual({ Mode: "Active" });
      }
    });

    it("reserves each function the stage's concurrency (routes and authorizer apart)", () => {
      const reserved = (fn: IConstruct) => props(resourceOf(fn)).ReservedConcurrentExecutions;
      for (const route of routesForStage(stage)) {
        expect(reserved(s().stateless.routeFunction(route.id))).toBe(
          s().config.routeFunction.reservedConcurrency,
        );
      }
      expect(reserved(s().stateless.authorizerFunction)).toBe(
        s().config.authorizerFunction.reservedConcurrency,
      );
      for (const [, fn] of resources(stateless(), "AWS::Lambda::Function")) {
        expect(props(fn).ReservedConcurrentExecutions).toEqual(expect.any(Number));
        expect(props(fn).ReservedConcurrentExecutions as number).toBeGreaterThan(0);
      }
    });

    it("lets the authorizer's DynamoDB retries end before its timeout", () => {
      const timeoutSeconds = props(resourceOf(s().stateless.authorizerFunction)).Timeout as number;
      // 2 attempts of 1.5 s and at most 1 s of backoff: 4 s, below the 5 s timeout.
      expect(retryBudgetMs(AUTHORIZER_RETRY_LIMITS)).toBeLessThan(timeoutSeconds * 1000);
    });

    it("gives each function read-only access to exactly the tables it reads (and its own log group)", () => {
      const tableIds = { directory: s().stateful.tables.directory, keys: s().stateful.tables.keys };
      const tableLogicalIds = Object.fromEntries(
        Object.entries(tableIds).map(([id, table]) => [id, logicalId(table)]),
      ) as Record<TableId, string>;
      const checks = [
        ...routesForStage(stage).map((route) => ({
          fn: s().stateless.routeFunction(route.id),
          reads: route.reads,
          actions: READ_ACTIONS,
        })),
        // The authorizer reads one key record by its hash: GetItem, on the table alone.
        { fn: s().stateless.authorizerFunction, reads: AUTHORIZER.reads, actions: ["dynamodb:GetItem"] },
      ];
      const policies = resources(stateless(), "AWS::IAM::Policy");
      for (const { fn, reads, actions } of checks) {
        const roleId = logicalId(fn.role ?? fn);
        const role = stateless().toJSON().Resources[roleId] as { Properties: Record<string, unknown> };
        expect(role.Properties.ManagedPolicyArns).toBeUndefined();
        const statements = policies
          .filter(([, policy]) => refersTo(props(policy).Roles, roleId))
          .flatMap(([, policy]) => (props(policy).PolicyDocument as { Statement: Statement[] }).Statement);
        const dynamo = statements.filter((st) => [st.Action].flat().some((a) => a.startsWith("dynamodb:")));
        const others = statements.filter((st) => !dynamo.includes(st));
        // Its own log group, and X-Ray's two write actions (X-Ray has no resource-level permissions).
        expect(others.map((st) => [st.Action].flat().sort())).toEqual([
          ["logs:CreateLogStream", "logs:PutLogEvents"],
          ["xray:PutTelemetryRecords", "xray:PutTraceSegments"],
        ]);
        expect(refersTo(others[0]?.Resource, logicalId(fn.logGroup))).toBe(true);
        expect(others[1]?.Resource).toBe("*");
        expect(dynamo).toHaveLength(reads.length);
        for (const st of dynamo) expectDynamoStatement(st, actions);
        for (const tableId of Object.keys(tableLogicalIds) as TableId[]) {
          const granted = dynamo.some((st) => JSON.stringify(st.Resource).includes(tableLogicalIds[tableId]));
          expect(granted).toBe(reads.includes(tableId));
        }
        const env = (
          props(stateless().toJSON().Resources[logicalId(fn)]).Environment as {
            Variables: Record<string, unknown>;
          }
        ).Variables;
        expect("DIRECTORY_TABLE" in env).toBe(reads.includes("directory"));
        expect("KEYS_TABLE" in env).toBe(reads.includes("keys"));
      }
    });
  });

  describe(`${stage}: bundles`, () => {
    it("bundles the authorizer as an ES module that runs on Node 24 (a malformed key is refused)", () => {
      const file = bundlePath(s().outdir, stateless(), logicalId(s().stateless.authorizerFunction));
      expect(() => runBundle(file, authorizerCall("Bearer nope"))).toThrow(/Unauthorized/);
    });

    it("signs DynamoDB calls with the environment's credentials, the only credential source bundled", async () => {
      const file = bundlePath(s().outdir, stateless(), logicalId(s().stateless.authorizerFunction));
      // infra/lambda-credentials.ts replaces the SDK's default chain: none of its other links ship.
      const otherLinks = readFileSync(file, "utf8").match(
        /defaultProvider::from(SSO|Ini|Process|TokenFile)/g,
      );
      expect(otherLinks).toBeNull();
      const signatures: string[] = [];
      const dynamo = await fakeDynamoDb((request, response) => {
        signatures.push(String(request.headers.authorization));
        request.resume().on("end", () => {
          response.writeHead(200, { "content-type": "application/x-amz-json-1.0" }).end("{}");
        });
      });
      try {
        const run = await runBundleAsync(file, authorizerCall(`Bearer ${generateApiKey("test")}`), {
          AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
          AWS_ACCESS_KEY_ID: "AKIDBUNDLETEST",
          AWS_SECRET_ACCESS_KEY: "secret",
          AWS_SESSION_TOKEN: "session",
        });
        // An unknown key: the keys table (this stub) has no record of it.
        expect(run.ok).toBe(false);
        expect(run.stderr).toMatch(/Unauthorized/);
        expect(signatures).toHaveLength(1);
        expect(signatures[0]).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDBUNDLETEST\//);
      } finally {
        dynamo.close();
      }
    });

    it("gives up on a DynamoDB that never answers after its retry limits, by itself", async () => {
      const file = bundlePath(s().outdir, stateless(), logicalId(s().stateless.authorizerFunction));
      let attempts = 0;
      // Takes each call and never answers: only the client's own limits can end the authorizer.
      const dynamo = await fakeDynamoDb((request) => {
        attempts += 1;
        request.resume();
      });
      try {
        const run = await runBundleAsync(file, authorizerCall(`Bearer ${generateApiKey("test")}`), {
          AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
          AWS_ACCESS_KEY_ID: "AKIDBUNDLETEST",
          AWS_SECRET_ACCESS_KEY: "secret",
        });
        // A failure API Gateway answers with 500 (AUTHORIZER_FAILURE), not a refused key.
        expect(run.ok).toBe(false);
        expect(run.stderr).toMatch(/exceeded the configured \d+ ms requestTimeout/);
        expect(run.stderr).not.toMatch(/Unauthorized/);
        expect(attempts).toBe(AUTHORIZER_RETRY_LIMITS.maxAttempts);
      } finally {
        dynamo.close();
      }
    });

    it("bundles every route function as an ES module that answers with x-request-id", () => {
      const event = {
        httpMethod: "GET",
        path: "/x",
        headers: {},
        requestContext: { requestId: "r-1" },
        body: null,
      };
      for (const route of routesForStage(stage)) {
        const file = bundlePath(s().outdir, stateless(), logicalId(s().stateless.routeFunction(route.id)));
        const output = runBundle(
          file,
          `handler(${JSON.stringify(event)}, { getRemainingTimeInMillis: () => 1000 })`,
        );
        const response = JSON.parse(output.trim().split("\n").at(-1) ?? "null") as {
          headers?: Record<string, string>;
        };
        expect(response.headers?.["x-request-id"]).toBe("r-1");
      }
    });
  });

  describe(`${stage}: tables`, () => {
    it("creates both tables on demand, with PITR, KMS encryption and CloudFormation-chosen names", () => {
      const tables = resources(s().statefulTemplate, "AWS::DynamoDB::Table");
      expect(tables).toHaveLength(2);
      const { removalPolicy, deletionProtection } = s().config.tables;
      const retained = removalPolicy === RemovalPolicy.RETAIN;
      for (const [, table] of tables) {
        const p = props(table);
        expect(p.TableName).toBeUndefined();
        expect(p.BillingMode).toBe("PAY_PER_REQUEST");
        expect(p.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
        // SSEEnabled with no key: KMS with the AWS managed key aws/dynamodb.
        expect(p.SSESpecification).toEqual({ SSEEnabled: true });
        expect(p.DeletionProtectionEnabled).toBe(deletionProtection);
        expect(table.DeletionPolicy).toBe(retained ? "Retain" : "Delete");
      }
      // Binary keys, as lib/store/tables.ts defines them: the stack and the local engines agree.
      s().statefulTemplate.hasResourceProperties("AWS::DynamoDB::Table", {
        KeySchema: [
          { AttributeName: "p", KeyType: "HASH" },
          { AttributeName: "s", KeyType: "RANGE" },
        ],
        AttributeDefinitions: [
          { AttributeName: "p", AttributeType: "B" },
          { AttributeName: "s", AttributeType: "B" },
          { AttributeName: "t", AttributeType: "B" },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: "byPhone",
            KeySchema: [
              { AttributeName: "t", KeyType: "HASH" },
              { AttributeName: "p", KeyType: "RANGE" },
            ],
            Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: ["q", "f", "l", "x"] },
          },
        ],
      });
      s().statefulTemplate.hasResourceProperties("AWS::DynamoDB::Table", {
        KeySchema: [{ AttributeName: "h", KeyType: "HASH" }],
        GlobalSecondaryIndexes: [{ IndexName: "byKeyId", Projection: { ProjectionType: "KEYS_ONLY" } }],
      });
    });

    it("publishes the keys table name under its stable SSM name", () => {
      s().statefulTemplate.hasResourceProperties("AWS::SSM::Parameter", {
        Name: `/partner-directory/${stage}/keys-table-name`,
        Type: "String",
        Value: { Ref: logicalId(s().stateful.tables.keys) },
      });
    });

    it("reads the tables through strong references: exports the stateful stack cannot change while in use", () => {
      const statelessJson = JSON.stringify(stateless().toJSON());
      expect(statelessJson).not.toContain("Fn::GetStackOutput");
      const imports = [...statelessJson.matchAll(/"Fn::ImportValue":"([^"]+)"/g)].map((match) => match[1]);
      const outputs = (s().statefulTemplate.toJSON().Outputs ?? {}) as Record<
        string,
        { Value: unknown; Export?: { Name: string } }
      >;
      const exported = new Map(
        Object.values(outputs).flatMap((output) =>
          output.Export ? [[output.Export.Name, output.Value]] : [],
        ),
      );
      // Every table the stateless stack uses comes through an export of that table.
      for (const tableId of ["keys", "directory"] as const) {
        const table = logicalId(s().stateful.tables[tableId]);
        const tableImports = imports.filter(
          (name) => name !== undefined && refersTo(exported.get(name), table),
        );
        expect(tableImports.length).toBeGreaterThan(0);
      }
      for (const name of imports) expect(exported.has(name ?? "")).toBe(true);
    });

    it("sets a retention on every log group", () => {
      for (const [, group] of resources(stateless(), "AWS::Logs::LogGroup")) {
        expect(props(group).RetentionInDays).toBe(s().config.logRetention);
      }
    });
  });

  describe(`${stage}: on-call`, () => {
    const alarmNames = () =>
      resources(stateless(), "AWS::CloudWatch::Alarm").map(([, a]) => String(props(a).AlarmName));

    const alarmNamed = (suffix: string) => {
      const found = resources(stateless(), "AWS::CloudWatch::Alarm").find(
        ([, a]) => props(a).AlarmName === `partner-directory-${stage}-${suffix}`,
      );
      if (!found) throw new Error(`no alarm ${suffix}`);
      return props(found[1]);
    };

    it("alarms on 5xx rate and count, p99 latency, function errors and throttles, authorizer failures, table throttles and failed ingests", () => {
      const p = `partner-directory-${stage}`;
      const expected = [
        `${p}-search-5xx-rate`,
        `${p}-search-5xx-count`,
        `${p}-search-p99-latency`,
        `${p}-greeting-5xx-rate`,
        `${p}-greeting-5xx-count`,
        `${p}-greeting-p99-latency`,
        ...routesForStage(stage).flatMap((route) => [
          `${p}-${route.id}-errors`,
          `${p}-${route.id}-throttles`,
        ]),
        `${p}-authorizer-errors`,
        `${p}-authorizer-throttles`,
        ...["directory", "keys"].flatMap((table) => [
          `${p}-${table}-table-read-throttles`,
          `${p}-${table}-table-write-throttles`,
          `${p}-${table}-table-system-errors`,
        ]),
        `${p}-ingest-dead-letters`,
        `${p}-ingest-executions-failed`,
        `${p}-ingest-executions-aborted`,
        `${p}-ingest-executions-timed-out`,
        `${p}-waf-blocked-spike`,
        `${p}-canary-greeting`,
      ];
      expect(alarmNames().sort()).toEqual(expected.sort());
    });

    it("fires the 5xx-count alarms on 3 5xx in 5 minutes, however few requests there were", () => {
      for (const apiId of ["search", "greeting"] as const) {
        const alarm = alarmNamed(`${apiId}-5xx-count`);
        expect(alarm).toMatchObject({
          Namespace: "AWS/ApiGateway",
          MetricName: "5XXError",
          Statistic: "Sum",
          Period: 300,
          Threshold: s().config.alarms.serverErrors,
          ComparisonOperator: "GreaterThanOrEqualToThreshold",
          EvaluationPeriods: 1,
          DatapointsToAlarm: 1,
          TreatMissingData: "notBreaching",
        });
        expect(alarm.Dimensions).toEqual(
          expect.arrayContaining([{ Name: "ApiName", Value: `partner-directory-${stage}-${apiId}` }]),
        );
        // No request-count condition, unlike the rate alarm.
        expect(alarm.Metrics).toBeUndefined();
      }
      expect(s().config.alarms.serverErrors).toBe(3);
    });

    it("alarms on 3 authorizer failures in 5 minutes seen by either API, and not on refused keys", () => {
      const alarm = alarmNamed("authorizer-errors");
      expect(alarm).toMatchObject({
        Namespace: "PartnerDirectory",
        MetricName: "AuthorizerFailures",
        Statistic: "Sum",
        Period: 300,
        Threshold: 3,
        EvaluationPeriods: 1,
        DatapointsToAlarm: 1,
      });
      const filters = resources(stateless(), "AWS::Logs::MetricFilter").filter(([, f]) =>
        JSON.stringify(props(f).MetricTransformations).includes('"AuthorizerFailures"'),
      );
      const accessLogs = ["search", "greeting"].map((apiId) =>
        logicalId(s().stateless.api(apiId as "search").accessLogs),
      );
      expect(filters.map(([, f]) => JSON.stringify(props(f).LogGroupName)).sort()).toEqual(
        accessLogs.map((id) => JSON.stringify({ Ref: id })).sort(),
      );
      for (const [, filter] of filters) {
        const pattern = String(props(filter).FilterPattern);
        expect(pattern).toContain('$.errorType = "AUTHORIZER_FAILURE"');
        expect(pattern).toContain('$.errorType = "AUTHORIZER_CONFIGURATION_ERROR"');
        expect(pattern).not.toContain("UNAUTHORIZED");
        expect(props(filter).MetricTransformations).toEqual([
          { MetricNamespace: "PartnerDirectory", MetricName: "AuthorizerFailures", MetricValue: "1" },
        ]);
      }
    });

    it("lets CloudWatch publish this stage's alarms to its topic (and only those), over TLS only", () => {
      const [topic] = resources(stateless(), "AWS::SNS::Topic");
      if (!s().config.createAlarmTopic && !s().options.alarmEmail) {
        expect(topic).toBeUndefined();
        return;
      }
      if (!topic) throw new Error("no alarm topic");
      const policies = resources(stateless(), "AWS::SNS::TopicPolicy").filter(([, p]) =>
        refersTo(props(p).Topics, topic[0]),
      );
      expect(policies).toHaveLength(1);
      const statements = (
        props(policies[0]?.[1] ?? { Type: "" }).PolicyDocument as { Statement: PolicyStatementJson[] }
      ).Statement;
      const deny = statements.filter((st) => st.Effect === "Deny");
      expect(deny).toEqual([
        expect.objectContaining({
          Condition: { Bool: { "aws:SecureTransport": "false" } },
          Action: "sns:Publish",
        }),
      ]);
      const allow = statements.filter((st) => st.Effect === "Allow");
      const [publish, ...others] = withoutBudgets(allow, s().config.monthlyBudgetUsd !== undefined);
      expect(others).toEqual([]);
      expect(publish).toMatchObject({
        Principal: { Service: "cloudwatch.amazonaws.com" },
        Action: "sns:Publish",
        Resource: { Ref: topic[0] },
        Condition: { StringEquals: { "aws:SourceAccount": { Ref: "AWS::AccountId" } } },
      });
      // The ARN pattern, rendered for a sample account and region, covers every alarm of the
      // stage and no other stage's.
      const sample = {
        "AWS::Partition": "aws",
        "AWS::Region": "eu-west-1",
        "AWS::AccountId": "111111111111",
      };
      const sourceArn = renderJoin(publish?.Condition?.ArnLike?.["aws:SourceArn"], sample);
      const arnOf = (name: string) => `arn:aws:cloudwatch:eu-west-1:111111111111:alarm:${name}`;
      for (const name of alarmNames()) expect(globMatches(sourceArn, arnOf(name))).toBe(true);
      const otherStage = stage === "prod" ? "sandbox" : "prod";
      expect(globMatches(sourceArn, arnOf(`partner-directory-${otherStage}-search-5xx-count`))).toBe(false);
      expect(
        globMatches(sourceArn, `arn:aws:cloudwatch:eu-west-1:222222222222:alarm:${alarmNames()[0]}`),
      ).toBe(false);
    });

    it("subscribes the alarm email, when one is given, to the topic the alarms go to", () => {
      const subscriptions = resources(stateless(), "AWS::SNS::Subscription");
      const email = s().options.alarmEmail;
      if (!email) {
        expect(subscriptions).toEqual([]);
        return;
      }
      const [topic] = resources(stateless(), "AWS::SNS::Topic");
      expect(subscriptions.map(([, sub]) => props(sub))).toEqual([
        { Protocol: "email", Endpoint: email, TopicArn: { Ref: topic?.[0] } },
      ]);
    });

    it("sends alarms to an SNS topic only where the stage has one", () => {
      const topics = resources(stateless(), "AWS::SNS::Topic");
      expect(topics).toHaveLength(s().config.createAlarmTopic || s().options.alarmEmail ? 1 : 0);
      for (const [, alarm] of resources(stateless(), "AWS::CloudWatch::Alarm")) {
        const actions = props(alarm).AlarmActions;
        if (topics[0]) expect(actions).toEqual([{ Ref: topics[0][0] }]);
        else expect(actions).toBeUndefined();
      }
    });

    it("has a dashboard with traffic, errors by route, latency, Lambda, DynamoDB and ingest widgets", () => {
      const [dashboard] = resources(stateless(), "AWS::CloudWatch::Dashboard");
      expect(props(dashboard?.[1] ?? { Type: "" }).DashboardName).toBe(`partner-directory-${stage}`);
      const body = JSON.stringify(props(dashboard?.[1] ?? { Type: "" }).DashboardBody);
      for (const title of [
        "requests by route",
        "4xx by route",
        "5xx by route",
        "429 by route",
        "latency p50 / p99",
        "Lambda errors",
        "Lambda throttles",
        "DynamoDB consumed read capacity",
        "DynamoDB read and write throttles",
        "Ingest executions",
        "WAF blocked requests",
        "Ingest dead letters waiting",
      ]) {
        expect(body).toContain(title);
      }
      // 429s and authorizer failures come from the access log: two metric filters per API.
      expect(resources(stateless(), "AWS::Logs::MetricFilter")).toHaveLength(4);
    });

    it("ranks API keys by read cost over the route functions' EMF records, top 20", () => {
      const [dashboard] = resources(stateless(), "AWS::CloudWatch::Dashboard");
      const rawBody = props(dashboard?.[1] ?? { Type: "" }).DashboardBody;
      const body = JSON.stringify(rawBody);
      expect(body).toContain("Read cost by API key");
      expect(body).toContain(
        "filter ispresent(ReadCapacityUnits) | stats sum(ReadCapacityUnits) as rcu, count(*) as requests by keyId | sort rcu desc | limit 20",
      );
      // Over every route function's log group (no other widget names one), and not the
      // authorizer's: it writes no EMF record.
      for (const route of routesForStage(stage)) {
        expect(refersTo(rawBody, logicalId(s().stateless.routeFunction(route.id).logGroup))).toBe(true);
      }
      expect(refersTo(rawBody, logicalId(s().stateless.authorizerFunction.logGroup))).toBe(false);
    });
  });

  describe(`${stage}: cdk-nag AwsSolutions`, () => {
    it("synthesizes with no validation violation", () => {
      expect(s().synthError).toBeUndefined();
      expect(s().violations).toEqual([]);
    });

    it("gives every acknowledged rule a reason", () => {
      expect(s().acknowledgments.length).toBeGreaterThan(0);
      for (const acknowledgment of s().acknowledgments) {
        expect(acknowledgment.reason.length).toBeGreaterThan(20);
      }
    });
  });
}

/**
 * A topic policy's Allow statements but AWS Budgets', which is there exactly where the stage has a
 * budget (its own test: alarms.test.ts).
 */
function withoutBudgets<Statement extends { Principal?: unknown }>(allow: Statement[], hasBudget: boolean) {
  const isBudgets = (st: Statement) => JSON.stringify(st.Principal).includes("budgets.amazonaws.com");
  expect(allow.filter(isBudgets)).toHaveLength(hasBudget ? 1 : 0);
  return allow.filter((st) => !isBudgets(st));
}
