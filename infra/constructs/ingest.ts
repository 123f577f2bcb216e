/**
 * The ingest: an object put in the inbox under a load prefix starts a Step Functions execution
 * that invokes `functions/ingest-step.ts` in a loop, one bounded step at a time, until the file is
 * applied, refused or found a duplicate. Failures end in the dead-letter queue (docs/operations.md
 * "Loading data on AWS"). The loop, by the step's `status`:
 *
 *   running → step again at once        waiting → wait 30 s (another load holds the lease), step
 *   applied, refused, duplicate → done   failed (or anything else) → dead letter, fail
 *   a step that crashes → the abort step (same function, the state plus `crash`), then as above
 *   an abort step that crashes → dead letter, fail
 *
 * An execution that fails, times out or is stopped calls the same function again through
 * EventBridge, which writes the version's failed report if the ingest left none: every end has a
 * report (lib/ingest/execution-end.ts).
 */
import { CfnOutput, Duration, Stack, Validations } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { EventField, Rule, RuleTargetInput } from "aws-cdk-lib/aws-events";
import { LambdaFunction, SfnStateMachine } from "aws-cdk-lib/aws-events-targets";
import { SqsDestination } from "aws-cdk-lib/aws-lambda-destinations";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { StringParameter } from "aws-cdk-lib/aws-ssm";
import {
  Choice,
  Condition,
  DefinitionBody,
  Errors,
  Fail,
  type IChainable,
  JitterType,
  JsonPath,
  LogLevel,
  StateMachine,
  StateMachineType,
  Succeed,
  TaskInput,
  Wait,
  WaitTime,
} from "aws-cdk-lib/aws-stepfunctions";
import { LambdaInvoke, SqsSendMessage } from "aws-cdk-lib/aws-stepfunctions-tasks";
import { Construct } from "constructs";
import { INBOX_PREFIXES } from "../../lib/ingest/inbox.js";
import { stageParameterNames } from "../../lib/stages.js";
import { INGEST_RETRY_LIMITS } from "../../lib/store/retry-limits.js";
import type { TableId } from "../../lib/store/tables.js";
import type { StageConfig } from "../config.js";
import { DirectoryFunction } from "./directory-function.js";
import { ingestRoleName, ingestStateMachineName } from "./inbox-writers.js";
import { grantInbox } from "./ingest-grants.js";
import { acknowledgeWildcardResources } from "./wildcard-acknowledgment.js";

const INGEST_ENTRY = "functions/ingest-step.ts";
/** How long an execution waits before asking for the lease again. */
const LEASE_WAIT = Duration.seconds(30);
/**
 * A backstop against a loop that never ends. A 10-million-record snapshot takes hours; an
 * execution waiting for the lease all day would meet Step Functions' 25,000 history events first.
 */
const EXECUTION_TIMEOUT = Duration.hours(24);
/**
 * Retries of an invoke, each delay capped: on Lambda's own errors (CDK's standard list) 2, 4, 8,
 * 16, 16, 16 s at most (62 s); throttled, 5, 10, 20, 30, 30, 30 s at most (125 s). Both together
 * stay well within the 5-minute lease the load holds between steps (INGEST_LEASE_MS).
 */
const LAMBDA_SERVICE_ERRORS = [
  "Lambda.ClientExecutionTimeoutException",
  "Lambda.ServiceException",
  "Lambda.AWSLambdaException",
  "Lambda.SdkClientException",
];
const SERVICE_RETRY = {
  interval: Duration.seconds(2),
  backoffRate: 2,
  maxDelay: Duration.seconds(16),
  maxAttempts: 6,
};
const THROTTLE_RETRY = {
  interval: Duration.seconds(5),
  backoffRate: 2,
  maxDelay: Duration.seconds(30),
  maxAttempts: 6,
};
/** The statuses that end an execution successfully: a refusal is a report, not a failure. */
const DONE_STATUSES = ["applied", "refused", "duplicate"] as const;
/** The ends of an execution the ingest's last step did not reach: each gets a report all the same. */
const ENDED_WITHOUT_STEP = ["FAILED", "TIMED_OUT", "ABORTED"];
/** How long EventBridge, and then Lambda's event queue, try to hand over an execution's end. */
const ENDED_EVENT_AGE = Duration.hours(6);

export interface IngestProps {
  readonly config: StageConfig;
  readonly tables: Readonly<Record<TableId, ITable>>;
  /** From the stateful stack. */
  readonly inbox: IBucket;
}

export class Ingest extends Construct {
  readonly stepFunction: DirectoryFunction;
  readonly stateMachine: StateMachine;
  /** Failed ingests (their state) and events the rule could not deliver. */
  readonly deadLetters: Queue;
  readonly rule: Rule;
  /** An execution that ended without the ingest's last step: the function writes its report. */
  readonly endedRule: Rule;

  constructor(scope: Construct, id: string, props: IngestProps) {
    super(scope, id);
    const { config } = props;
    this.stepFunction = new DirectoryFunction(this, "StepFunction", {
      entry: INGEST_ENTRY,
      description: "Ingest: applies one inbox object version to the directory, one bounded step a call",
      config,
      sizing: config.ingestFunction,
      reads: ["directory"],
      loads: true,
      invokedBy: "state-machine",
      // Checked at synth: a call's worst case ends before the function's timeout.
      dynamoRetryLimits: INGEST_RETRY_LIMITS,
      tables: props.tables,
      // The inbox's bucket policy lets only this role and the loader role write.
      roleName: ingestRoleName(config.stage),
    });
    grantInbox(this.stepFunction, props.inbox);
    this.deadLetters = new Queue(this, "DeadLetters", {
      queueName: `partner-directory-${config.stage}-ingest-dead-letters`,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetters).acknowledge({
      id: "AwsSolutions-SQS3",
      reason:
        "It is the dead-letter queue (of the ingest and of its EventBridge rule); its alarm is ingest-dead-letters.",
    });
    this.stateMachine = this.addStateMachine(config);
    this.rule = this.addRule(props.inbox);
    this.endedRule = this.addEndedRule();
    this.addOutputs(config);
  }

  private addStateMachine(config: StageConfig): StateMachine {
    const logs = new LogGroup(this, "ExecutionLogs", {
      retention: config.logRetention,
      removalPolicy: config.logRemovalPolicy,
    });
    const stateMachine = new StateMachine(this, "StateMachine", {
      stateMachineName: ingestStateMachineName(config.stage),
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromChainable(ingestLoop(this, this.stepFunction, this.deadLetters)),
      timeout: EXECUTION_TIMEOUT,
      // Every state transition, without the states' input and output: the state names the object.
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });
    Validations.of(stateMachine.role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason:
        "X-Ray's two write actions and CloudWatch Logs' log-delivery actions (added by CDK for tracing and logging): neither has resource-level permissions.",
    });
    acknowledgeWildcardResources(
      stateMachine.role,
      [`${this.stepFunction.functionArn}:*`],
      "Invoking the step function's own versions and aliases (<arn>:*, added by CDK beside the function's ARN): that one function only.",
    );
    return stateMachine;
  }

  /** S3's "Object Created" under a load prefix of this inbox starts an execution with the object version. */
  private addRule(inbox: IBucket): Rule {
    const rule = new Rule(this, "ObjectCreated", {
      description: "A file under a load prefix of the inbox starts an ingest",
      eventPattern: {
        source: ["aws.s3"],
        detailType: ["Object Created"],
        detail: {
          bucket: { name: [inbox.bucketName] },
          object: { key: INBOX_PREFIXES.map((prefix) => ({ prefix })) },
        },
      },
    });
    rule.addTarget(
      new SfnStateMachine(this.stateMachine, {
        input: RuleTargetInput.fromObject({
          object: {
            bucket: EventField.fromPath("$.detail.bucket.name"),
            key: EventField.fromPath("$.detail.object.key"),
            versionId: EventField.fromPath("$.detail.object.version-id"),
          },
        }),
        retryAttempts: 20,
        maxEventAge: Duration.hours(24),
        deadLetterQueue: this.deadLetters,
      }),
    );
    return rule;
  }

  /**
   * Step Functions' status change of an execution that failed, timed out or was stopped invokes
   * the step function with the event. Delivery retried for 6 hours, the invocation twice on an
   * error; what still fails goes to the dead letters (its alarm pages).
   */
  private addEndedRule(): Rule {
    const rule = new Rule(this, "ExecutionEnded", {
      description: "An ingest execution that failed, timed out or was stopped gets its report",
      eventPattern: {
        source: ["aws.states"],
        detailType: ["Step Functions Execution Status Change"],
        detail: { stateMachineArn: [this.stateMachine.stateMachineArn], status: ENDED_WITHOUT_STEP },
      },
    });
    rule.addTarget(
      new LambdaFunction(this.stepFunction, {
        retryAttempts: 20,
        maxEventAge: ENDED_EVENT_AGE,
        deadLetterQueue: this.deadLetters,
      }),
    );
    this.stepFunction.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: ENDED_EVENT_AGE,
      onFailure: new SqsDestination(this.deadLetters),
    });
    return rule;
  }

  private addOutputs(config: StageConfig): void {
    const stack = Stack.of(this);
    // The load CLI reads the executions of its uploads (npm run load -- FILE --stage S).
    new StringParameter(this, "StateMachineArnParameter", {
      parameterName: stageParameterNames.ingestStateMachineArn(config.stage),
      stringValue: this.stateMachine.stateMachineArn,
      description: "ARN of the ingest's state machine (the load CLI reads its executions)",
    });
    new CfnOutput(stack, "IngestStateMachineArn", { value: this.stateMachine.stateMachineArn });
    new CfnOutput(stack, "IngestDeadLetterQueueUrl", { value: this.deadLetters.queueUrl });
    new CfnOutput(stack, "IngestLogGroup", { value: this.stepFunction.logGroup.logGroupName });
  }
}

/** The loop of the module comment, as Step Functions states. */
function ingestLoop(scope: Construct, fn: DirectoryFunction, deadLetters: Queue): IChainable {
  // Output = the function's answer (the state), input = the state: nothing else is added.
  // Beside the standard retries on Lambda's service errors, throttling: other files' executions
  // may hold every instance of the reserved concurrency for a while. Each delay is capped and
  // jittered, and all of them together stay well within the lease the load holds between steps.
  const invoke = (id: string, comment: string) =>
    new LambdaInvoke(scope, id, {
      lambdaFunction: fn,
      payloadResponseOnly: true,
      comment,
      retryOnServiceExceptions: false,
    })
      .addRetry({ errors: LAMBDA_SERVICE_ERRORS, ...SERVICE_RETRY, jitterStrategy: JitterType.FULL })
      .addRetry({
        errors: ["Lambda.TooManyRequestsException"],
        ...THROTTLE_RETRY,
        jitterStrategy: JitterType.FULL,
      });
  const step = invoke("Step", "One bounded step of the ingest");
  const abort = invoke("Abort", "After a crash: undo the load, answer running or failed");
  const deadLetter = new SqsSendMessage(scope, "SendToDeadLetters", {
    queue: deadLetters,
    messageBody: TaskInput.fromJsonPathAt("$"),
    resultPath: JsonPath.DISCARD,
  });
  deadLetter.addRetry({ errors: [Errors.ALL], maxAttempts: 3 });
  deadLetter.next(
    new Fail(scope, "Failed", {
      error: "IngestFailed",
      cause: "The ingest failed; its state is in the dead-letter queue",
    }),
  );
  const waitForLease = new Wait(scope, "WaitForLease", { time: WaitTime.duration(LEASE_WAIT) });
  const route = new Choice(scope, "RouteStatus")
    .when(Condition.isNotPresent("$.status"), deadLetter)
    .when(Condition.stringEquals("$.status", "running"), step)
    .when(Condition.stringEquals("$.status", "waiting"), waitForLease)
    .when(
      Condition.or(...DONE_STATUSES.map((status) => Condition.stringEquals("$.status", status))),
      new Succeed(scope, "Done"),
    )
    .otherwise(deadLetter);
  waitForLease.next(step);
  step.addCatch(abort, { errors: [Errors.ALL], resultPath: "$.crash" });
  abort.addCatch(deadLetter, { errors: [Errors.ALL], resultPath: "$.crash" });
  step.next(route);
  abort.next(route);
  return step;
}
