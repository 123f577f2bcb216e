/**
 * The report of an execution that ended without the ingest's last step (failed, timed out,
 * stopped), written from Step Functions' status-change event against a mocked S3 client.
 */
import {
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { mockClient } from "aws-sdk-client-mock";
import {
  type ExecutionEndEvent,
  executionEndEvent,
  reportExecutionEnd,
} from "../../lib/ingest/execution-end.js";
import { InboxStore } from "../../lib/ingest/inbox-store.js";
import type { IngestReport } from "../../lib/ingest/ingest-state.js";

const s3 = mockClient(S3Client);
const inbox = new InboxStore(new S3Client({ region: "eu-west-1" }));
const object = { bucket: "inbox", key: "snapshot/a.ndjson", versionId: "v1" };
const STARTED = Date.parse("2026-01-02T03:00:00Z");
const STOPPED = Date.parse("2026-01-03T03:00:00Z");

function event(
  detail: Partial<ExecutionEndEvent["detail"]> = {},
  input: unknown = { object },
): ExecutionEndEvent {
  return executionEndEvent.parse({
    source: "aws.states",
    "detail-type": "Step Functions Execution Status Change",
    detail: {
      executionArn: "arn:aws:states:eu-west-1:111111111111:execution:partner-directory-prod-ingest:e-1",
      name: "e-1",
      status: "TIMED_OUT",
      startDate: STARTED,
      stopDate: STOPPED,
      input: JSON.stringify(input),
      error: "States.Timeout",
      cause: null,
      ...detail,
    },
  });
}

const missing = () => new NoSuchKey({ message: "missing", $metadata: {} });
const body = (text: string) => ({ Body: { transformToString: async () => text } as never });

/** The reports written, by key. */
function written(): Record<string, IngestReport> {
  return Object.fromEntries(
    s3
      .commandCalls(PutObjectCommand)
      .map(({ args: [{ input }] }) => [input.Key, JSON.parse(String(input.Body)) as IngestReport]),
  );
}

beforeEach(() => {
  s3.reset();
  s3.on(HeadObjectCommand).resolves({ ContentLength: 10, Metadata: {} });
  s3.on(GetObjectCommand).rejects(missing());
  s3.on(PutObjectCommand).resolves({});
});

describe("the report of an execution that ended without one", () => {
  it("is a failed report at the version's key, with the status, the error and the execution", async () => {
    const key = await reportExecutionEnd(inbox, event());
    expect(key).toBe("reports/snapshot/a.ndjson/v1.json");
    expect(written()).toEqual({
      [key as string]: {
        status: "failed",
        object,
        mode: "snapshot",
        error: "the ingest's execution timed out (States.Timeout)",
        startedAt: "2026-01-02T03:00:00.000Z",
        finishedAt: "2026-01-03T03:00:00.000Z",
        durationMs: STOPPED - STARTED,
        execution: "e-1",
      },
    });
  });

  it.each([
    [
      { status: "FAILED", error: "IngestFailed", cause: "its state is in the dead-letter queue" },
      "the ingest's execution failed (IngestFailed: its state is in the dead-letter queue)",
    ],
    [{ status: "ABORTED", error: null, cause: null }, "the ingest's execution was stopped"],
    [
      { status: "ABORTED", error: "", cause: "by on-call" },
      "the ingest's execution was stopped (by on-call)",
    ],
  ] as const)("says why: %j", async (detail, error) => {
    await reportExecutionEnd(inbox, event(detail));
    expect(Object.values(written())[0]?.error).toBe(error);
  });

  it("keeps the report the ingest wrote, whatever it says", async () => {
    s3.on(GetObjectCommand, { Key: "reports/snapshot/a.ndjson/v1.json" }).resolves(
      body(JSON.stringify({ status: "failed", error: "a step crashed" })),
    );
    expect(await reportExecutionEnd(inbox, event({ status: "FAILED" }))).toBeUndefined();
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it("reports at the key the ingest found when the event's key is URL-encoded", async () => {
    s3.on(HeadObjectCommand, { Key: "merge/a+b.ndjson" }).rejects(
      new NotFound({ message: "", $metadata: {} }),
    );
    const encoded = { ...object, key: "merge/a+b.ndjson" };
    await reportExecutionEnd(inbox, event({}, { object: encoded }));
    expect(Object.keys(written())).toEqual(["reports/merge/a b.ndjson/v1.json"]);
  });

  it("reports at the key given when the object is gone", async () => {
    s3.on(HeadObjectCommand).rejects(new NotFound({ message: "", $metadata: {} }));
    await reportExecutionEnd(inbox, event());
    expect(Object.keys(written())).toEqual(["reports/snapshot/a.ndjson/v1.json"]);
  });

  it("takes the time of the end from the event, or the clock when the event has none", async () => {
    const now = new Date("2026-01-02T04:00:00Z");
    await reportExecutionEnd(inbox, event({ stopDate: null }), () => now);
    expect(Object.values(written())[0]).toMatchObject({
      finishedAt: now.toISOString(),
      durationMs: 3_600_000,
    });
  });

  it.each([{}, { object: { bucket: "inbox", key: "merge/a" } }, "not json"])(
    "refuses an input without an object version (%j) and writes nothing",
    async (input) => {
      const given = event({ input: typeof input === "string" ? input : JSON.stringify(input) });
      await expect(reportExecutionEnd(inbox, given)).rejects.toThrow(
        "execution e-1 has no inbox object version in its input",
      );
      expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    },
  );

  it("is not called for an execution that succeeded or still runs", () => {
    for (const status of ["SUCCEEDED", "RUNNING"])
      expect(() => event({ status } as unknown as ExecutionEndEvent["detail"])).toThrow();
  });

  it("redacts and cuts a cause that quotes a key or a whole file", async () => {
    const key = `pd_live_${"A".repeat(40)}`;
    await reportExecutionEnd(
      inbox,
      event({ status: "FAILED", error: "Error", cause: `${key} ${"x".repeat(5_000)}` }),
    );
    const error = Object.values(written())[0]?.error ?? "";
    expect(error).not.toContain(key);
    expect(error.length).toBeLessThan(400);
  });
});
