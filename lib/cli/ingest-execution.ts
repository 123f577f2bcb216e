/**
 * The ingest's execution of one upload, as `npm run load -- FILE --stage S` follows it: found among
 * the state machine's executions (ARN from the stage's SSM parameter) by the object version in its
 * input, then its status and, once it ended, Step Functions' error and cause.
 */
import { DescribeExecutionCommand, paginateListExecutions, type SFNClient } from "@aws-sdk/client-sfn";
import type { InboxObject } from "../ingest/inbox.js";
import { callerText } from "../observability/caller-text.js";

/** An execution as the CLI tells it: its name, Step Functions' status, and why it ended. */
export interface ExecutionStatus {
  readonly name: string;
  readonly status: string;
  readonly error?: string;
  readonly cause?: string;
}

/** The statuses of an execution that is over (PENDING_REDRIVE: failed, and may be driven again). */
const ENDED = new Set(["SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED"]);

export const hasEnded = (execution: ExecutionStatus): boolean => ENDED.has(execution.status);

/** Whether an execution's input (the inbox rule's) names this object version. */
function startedFor(input: string | undefined, object: InboxObject): boolean {
  try {
    const given = (JSON.parse(input ?? "") as { object?: Partial<InboxObject> }).object;
    return (
      given?.bucket === object.bucket && given.key === object.key && given.versionId === object.versionId
    );
  } catch {
    return false;
  }
}

/** Clock skew between this machine and AWS allowed when listing executions started since the upload. */
const SKEW_MS = 5 * 60_000;

export class IngestExecution {
  private readonly sfn: SFNClient;
  private readonly stateMachineArn: string;
  private readonly object: InboxObject;
  /** When the object was uploaded: older executions are not listed. */
  private readonly uploadedAt: Date;
  private arn: string | undefined;
  /** Executions already described that are another object's: never described again. */
  private readonly others = new Set<string>();

  constructor(sfn: SFNClient, stateMachineArn: string, object: InboxObject, uploadedAt: Date) {
    this.sfn = sfn;
    this.stateMachineArn = stateMachineArn;
    this.object = object;
    this.uploadedAt = uploadedAt;
  }

  /** The execution's status; undefined while none has started for the object. */
  async status(): Promise<ExecutionStatus | undefined> {
    const arn = this.arn ?? (await this.find());
    if (arn === undefined) return undefined;
    const described = await this.sfn.send(new DescribeExecutionCommand({ executionArn: arn }));
    return {
      name: described.name ?? arn,
      status: described.status ?? "UNKNOWN",
      ...(described.error ? { error: described.error } : {}),
      ...(described.cause ? { cause: described.cause } : {}),
    };
  }

  /** Newest first (as Step Functions lists them), back to the upload. */
  private async find(): Promise<string | undefined> {
    const since = this.uploadedAt.getTime() - SKEW_MS;
    const pages = paginateListExecutions(
      { client: this.sfn },
      { stateMachineArn: this.stateMachineArn, maxResults: 100 },
    );
    for await (const page of pages) {
      for (const { executionArn, startDate } of page.executions ?? []) {
        if (!executionArn || (startDate && startDate.getTime() < since)) return undefined;
        if (this.others.has(executionArn)) continue;
        const { input } = await this.sfn.send(new DescribeExecutionCommand({ executionArn }));
        if (startedFor(input, this.object)) {
          this.arn = executionArn;
          return executionArn;
        }
        this.others.add(executionArn);
      }
    }
    return undefined;
  }
}

/** How an execution ended, in the words the CLI prints: the status, then the error and cause. */
export function executionLine(execution: ExecutionStatus): string {
  // A cause may quote a whole stack trace, or the file: cut short and redacted, as caller text is.
  const why = callerText([execution.error, execution.cause].filter(Boolean).join(": "));
  return `the ingest's execution ${execution.name} ended ${execution.status}${why ? ` (${why})` : ""}`;
}
