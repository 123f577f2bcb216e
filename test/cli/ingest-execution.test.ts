/**
 * `npm run load -- FILE --stage S` follows its upload's execution on a mocked Step Functions client
 * (aws-sdk-client-mock): found by the object version in its input, waited for a bounded time, and
 * an execution that ended without a report ends the wait with its status and cause.
 */
import {
  DescribeExecutionCommand,
  type DescribeExecutionCommandOutput,
  ListExecutionsCommand,
  SFNClient,
} from "@aws-sdk/client-sfn";
import { mockClient } from "aws-sdk-client-mock";
import { executionLine, IngestExecution } from "../../lib/cli/ingest-execution.js";
import { NoReportError, waitForReport } from "../../lib/cli/load-inbox.js";
import type { IngestReport } from "../../lib/ingest/ingest-state.js";

const sfn = mockClient(SFNClient);
const client = new SFNClient({ region: "eu-west-1" });
const STATE_MACHINE = "arn:aws:states:eu-west-1:111111111111:stateMachine:partner-directory-prod-ingest";
const object = { bucket: "inbox", key: "merge/20260102T030000Z-a.ndjson", versionId: "v2" };
const UPLOADED = new Date("2026-01-02T03:00:00Z");
const arnOf = (name: string) => `${STATE_MACHINE.replace(":stateMachine:", ":execution:")}:${name}`;

/** Executions, newest first: a name, when it started, the object in its input, and its status. */
function executions(
  ...list: {
    name: string;
    started: Date;
    input: unknown;
    described?: Partial<DescribeExecutionCommandOutput>;
  }[]
) {
  sfn.on(ListExecutionsCommand).resolves({
    executions: list.map(({ name, started }) => ({
      executionArn: arnOf(name),
      stateMachineArn: STATE_MACHINE,
      name,
      status: "RUNNING",
      startDate: started,
    })),
  });
  for (const { name, started, input, described } of list)
    sfn.on(DescribeExecutionCommand, { executionArn: arnOf(name) }).resolves({
      executionArn: arnOf(name),
      name,
      status: "RUNNING",
      startDate: started,
      input: JSON.stringify(input),
      ...described,
    });
}

const secondsIn = (seconds: number) => new Date(UPLOADED.getTime() + seconds * 1000);
const follow = () => new IngestExecution(client, STATE_MACHINE, object, UPLOADED);
const applied = { status: "applied", object, steps: 3, durationMs: 10 } as IngestReport;
/** An inbox whose report appears at the given read (never, if undefined). */
function inbox(at?: number) {
  let reads = 0;
  return {
    report: async () => {
      reads += 1;
      return at !== undefined && reads >= at ? applied : undefined;
    },
  };
}
const fast = { pollMs: 0, executionEveryMs: 0 };

beforeEach(() => {
  sfn.reset();
});

describe("the upload's execution", () => {
  it("is the one whose input names the object version, among others started since the upload", async () => {
    executions(
      { name: "other-version", started: secondsIn(9), input: { object: { ...object, versionId: "v3" } } },
      { name: "mine", started: secondsIn(5), input: { object }, described: { status: "TIMED_OUT" } },
      { name: "older", started: secondsIn(-3600), input: { object } },
    );
    const execution = follow();
    expect(await execution.status()).toMatchObject({ name: "mine", status: "TIMED_OUT" });
    // Found once: the next read describes it alone.
    sfn.resetHistory();
    await execution.status();
    expect(sfn.commandCalls(ListExecutionsCommand)).toHaveLength(0);
    expect(sfn.commandCalls(DescribeExecutionCommand).map((c) => c.args[0].input.executionArn)).toEqual([
      arnOf("mine"),
    ]);
  });

  it("is none while no execution started since the upload names it; others are described once", async () => {
    executions(
      { name: "other", started: secondsIn(2), input: { object: { ...object, key: "merge/b" } } },
      { name: "not-json", started: secondsIn(1), input: "{" },
      { name: "before-upload", started: secondsIn(-3600), input: { object } },
    );
    const execution = follow();
    expect(await execution.status()).toBeUndefined();
    expect(await execution.status()).toBeUndefined();
    const described = sfn.commandCalls(DescribeExecutionCommand).map((c) => c.args[0].input.executionArn);
    expect(described).toEqual([arnOf("other"), arnOf("not-json")]);
  });
});

describe("waiting for the report, with the execution", () => {
  it("returns the report once written, while the execution runs", async () => {
    executions({ name: "mine", started: secondsIn(1), input: { object } });
    expect(await waitForReport(inbox(3), object, { ...fast, execution: follow() })).toBe(applied);
  });

  it.each([
    ["TIMED_OUT", { error: "States.Timeout", cause: "" }, /mine ended TIMED_OUT \(States\.Timeout\)/],
    ["ABORTED", { error: "", cause: "stopped by on-call" }, /mine ended ABORTED \(stopped by on-call\)/],
    [
      "FAILED",
      { error: "IngestFailed", cause: "state in the DLQ" },
      /FAILED \(IngestFailed: state in the DLQ\)/,
    ],
    ["SUCCEEDED", {}, /mine ended SUCCEEDED, and no report is there/],
  ] as const)(
    "stops with the status and cause when the execution ended %s without a report",
    async (status, why, line) => {
      executions({ name: "mine", started: secondsIn(1), input: { object }, described: { status, ...why } });
      const waiting = waitForReport(inbox(), object, { ...fast, execution: follow() });
      await expect(waiting).rejects.toThrow(NoReportError);
      await expect(waiting).rejects.toThrow(line);
    },
  );

  it("reads the report once more when the execution ended: the ingest wrote it before the end", async () => {
    executions({
      name: "mine",
      started: secondsIn(1),
      input: { object },
      described: { status: "SUCCEEDED" },
    });
    expect(await waitForReport(inbox(2), object, { ...fast, execution: follow() })).toBe(applied);
  });

  it("stops when no execution started for the object in time", async () => {
    executions();
    const waiting = waitForReport(inbox(), object, { ...fast, startWithinMs: 0, execution: follow() });
    await expect(waiting).rejects.toThrow(/no ingest execution started for it within 0 minutes/);
  });

  it("stops at its bound, execution or not", async () => {
    executions({ name: "mine", started: secondsIn(1), input: { object } });
    await expect(
      waitForReport(inbox(), object, { ...fast, timeoutMs: 0, execution: follow() }),
    ).rejects.toThrow(/^no report 0 minutes after the upload/);
    await expect(waitForReport(inbox(), object, { pollMs: 0, timeoutMs: 0 })).rejects.toThrow(NoReportError);
  });
});

it("tells an execution's end with its cause cut short and any key redacted", () => {
  const key = `pd_live_${"k".repeat(40)}`;
  const line = executionLine({
    name: "e",
    status: "FAILED",
    error: "Error",
    cause: `${key} ${"x".repeat(9_000)}`,
  });
  expect(line).toMatch(/^the ingest's execution e ended FAILED \(Error: /);
  expect(line).not.toContain(key);
  expect(line.length).toBeLessThan(400);
});
