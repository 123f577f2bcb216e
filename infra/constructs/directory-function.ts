/**
 * Every Lambda of the service goes through this construct: the runtime, architecture, bundling,
 * log group, environment and Powertools settings are decided once here, and a function gets
 * access to exactly the tables it names, nothing else: read-only, except the ingest's (`loads`).
 */
import { Duration, Validations } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Grant, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Architecture, Runtime, Tracing } from "aws-cdk-lib/aws-lambda";
import { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";
import { type RetryLimits, retryBudgetMs } from "../../lib/store/retry-limits.js";
import { TABLES, type TableId } from "../../lib/store/tables.js";
import { lambdaBundling } from "../bundling.js";
import type { FunctionSizing, StageConfig } from "../config.js";
import { REPO_ROOT, repoPath } from "../paths.js";

const SERVICE_NAME = "partner-directory";
export const METRICS_NAMESPACE = "PartnerDirectory";

/** API Gateway REST gives up on an integration after 29 s; a function must finish before that. */
const API_GATEWAY_TIMEOUT_SECONDS = 29;

/** The only DynamoDB actions a function may use: point reads, batch reads and queries (no Scan). */
const TABLE_READ_ACTIONS = ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"] as const;
type TableReadAction = (typeof TABLE_READ_ACTIONS)[number];
/** What a load does besides reading: scan (verify, snapshot) and write items. No table admin. */
const TABLE_LOAD_ACTIONS = [
  "dynamodb:Scan",
  "dynamodb:PutItem",
  "dynamodb:UpdateItem",
  "dynamodb:DeleteItem",
  "dynamodb:BatchWriteItem",
] as const;

export interface DirectoryFunctionProps {
  /** Lambda entry relative to the repository root (from lib/routes.ts). */
  readonly entry: string;
  readonly config: StageConfig;
  readonly sizing: FunctionSizing;
  /** The tables the function reads, by id (from lib/routes.ts). */
  readonly reads: readonly TableId[];
  /** What it may do on those tables (default: all of TABLE_READ_ACTIONS). */
  readonly readActions?: readonly TableReadAction[];
  /** It loads data into those tables: TABLE_LOAD_ACTIONS too (the ingest only). */
  readonly loads?: boolean;
  /**
   * Who invokes it (default API Gateway, whose 29 s integration timeout caps the function's). A
   * state machine waits as long as Lambda runs.
   */
  readonly invokedBy?: "api-gateway" | "state-machine";
  /** Its DynamoDB client's retry limits, when they must end before the function's timeout. */
  readonly dynamoRetryLimits?: RetryLimits;
  readonly tables: Readonly<Record<TableId, ITable>>;
  readonly description: string;
  /** A fixed role name, for a policy elsewhere that must name the role (the inbox's). */
  readonly roleName?: string;
}

export class DirectoryFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: DirectoryFunctionProps) {
    const { config, sizing } = props;
    checkTimeouts(id, props);
    // A log group we own: retention and removal are ours, and no log-retention custom resource.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: config.logRetention,
      removalPolicy: config.logRemovalPolicy,
    });
    // Its own role instead of AWSLambdaBasicExecutionRole: it may write to its own log group only
    // (and, through active tracing, send X-Ray segments).
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal("lambda.amazonaws.com"),
      ...(props.roleName ? { roleName: props.roleName } : {}),
    });
    logGroup.grantWrite(role);
    super(scope, id, {
      entry: repoPath(props.entry),
      handler: "handler",
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: sizing.memoryMb,
      timeout: Duration.seconds(sizing.timeoutSeconds),
      // A ceiling per function: a flood on one route cannot take the account's whole concurrency.
      reservedConcurrentExecutions: sizing.reservedConcurrency,
      // X-Ray segments for each invocation, joined to API Gateway's (its stages trace too). No
      // Powertools Tracer: its subsegments per DynamoDB call would cost bundle size (docs/operations.md).
      tracing: Tracing.ACTIVE,
      logGroup,
      role,
      projectRoot: REPO_ROOT,
      depsLockFilePath: repoPath("package-lock.json"),
      environment: {
        STAGE: config.stage,
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_LOG_LEVEL: config.logLevel,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      },
      bundling: lambdaBundling(),
    });
    Validations.of(role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason:
        "Only X-Ray's PutTraceSegments and PutTelemetryRecords, added by active tracing: X-Ray has no resource-level permissions. Table grants name their tables (tested).",
    });
    this.grantReads(props);
  }

  /** Each table it reads: its name in the environment, and read actions on it (and its indexes). */
  private grantReads(props: DirectoryFunctionProps): void {
    const actions = [
      ...(props.readActions ?? TABLE_READ_ACTIONS),
      ...(props.loads ? TABLE_LOAD_ACTIONS : []),
    ];
    for (const tableId of props.reads) {
      const table = props.tables[tableId];
      const definition = TABLES[tableId];
      this.addEnvironment(definition.envVar, table.tableName);
      // The table, and its named indexes (no `index/*`) when it may query them; the actions
      // named, not grantReadData's or grantReadWriteData's sets.
      const indexes = actions.includes("dynamodb:Query") ? definition.indexes : [];
      Grant.addToPrincipal({
        grantee: this,
        actions,
        resourceArns: [table.tableArn, ...indexes.map((index) => `${table.tableArn}/index/${index.name}`)],
      });
    }
  }
}

/** A function must give up before API Gateway does, and its DynamoDB retries before it times out. */
function checkTimeouts(id: string, props: DirectoryFunctionProps): void {
  const { sizing } = props;
  if (
    (props.invokedBy ?? "api-gateway") === "api-gateway" &&
    sizing.timeoutSeconds >= API_GATEWAY_TIMEOUT_SECONDS
  ) {
    throw new Error(`${id}: timeout ${sizing.timeoutSeconds}s must be below ${API_GATEWAY_TIMEOUT_SECONDS}s`);
  }
  const retryBudget = props.dynamoRetryLimits && retryBudgetMs(props.dynamoRetryLimits);
  if (retryBudget !== undefined && retryBudget >= sizing.timeoutSeconds * 1000) {
    throw new Error(
      `${id}: its DynamoDB retries may take ${retryBudget} ms, not below its ${sizing.timeoutSeconds} s timeout`,
    );
  }
}
