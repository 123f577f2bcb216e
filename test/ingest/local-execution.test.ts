import fc from "fast-check";
import {
  inboxKey,
  MAX_REPORT_WAIT_MS,
  NoReportError,
  reportLine,
  waitForReport,
} from "../../lib/cli/load-inbox.js";
import { modeOfKey, reportKey } from "../../lib/ingest/inbox.js";
import type { IngestReport, IngestState } from "../../lib/ingest/ingest-state.js";
import { runLocalExecution } from "../../lib/ingest/local-execution.js";

const object = { bucket: "inbox", key: "merge/a.ndjson", versionId: "v1" };

/** A step answering the statuses given, one per call, and recording the states it was called with. */
function scripted(...answers: (IngestState["status"] | Error)[]) {
  const calls: IngestState[] = [];
  const step = async (state: IngestState): Promise<IngestState> => {
    calls.push(state);
    const answer = answers[calls.length - 1];
    if (answer instanceof Error) throw answer;
    // As the real step does: the crash it was told of is handled, not passed on.
    const { crash: _handled, ...rest } = state;
    return { ...rest, status: answer };
  };
  return { step, calls };
}

describe("the ingest's state machine, run locally", () => {
  it("calls again while running, waits while waiting, and ends on a final status", async () => {
    const { step, calls } = scripted("running", "waiting", "running", "applied");
    const { state, deadLetter } = await runLocalExecution(object, step, { waitMs: 1 });
    expect(calls).toHaveLength(4);
    expect(calls[0]).toEqual({ object });
    expect(state.status).toBe("applied");
    expect(deadLetter).toBeUndefined();
  });

  it.each(["refused", "duplicate"] as const)("ends on %s without a dead letter", async (status) => {
    const { deadLetter, state } = await runLocalExecution(object, scripted(status).step);
    expect(state.status).toBe(status);
    expect(deadLetter).toBeUndefined();
  });

  it("sends a failed ingest to the dead letters", async () => {
    const { deadLetter } = await runLocalExecution(object, scripted("running", "failed").step);
    expect(deadLetter?.status).toBe("failed");
  });

  it("follows a crashed step with one call carrying the crash, and goes on by its answer", async () => {
    const { step, calls } = scripted("running", new Error("Task timed out"), "running", "failed");
    const { deadLetter } = await runLocalExecution(object, step);
    expect(calls[2]?.crash).toEqual({ Error: "Error", Cause: "Task timed out" });
    expect(calls[3]?.crash).toBeUndefined();
    expect(deadLetter?.status).toBe("failed");
  });

  it("sends the state to the dead letters when the call after a crash crashes too", async () => {
    const { deadLetter } = await runLocalExecution(object, scripted(new Error("one"), new Error("two")).step);
    expect(deadLetter?.crash?.Cause).toBe("two");
  });
});

describe("inbox names", () => {
  it("takes the load mode from the key's first folder only", () => {
    expect(modeOfKey("snapshot/2026/file.ndjson")).toBe("snapshot");
    expect(modeOfKey("changes/x")).toBe("changes");
    for (const key of ["reports/merge/x", "work/x", "merge/", "merge", "Merge/x", "x/merge/y"])
      expect(modeOfKey(key)).toBeUndefined();
  });

  it("puts a version's report beside nothing else", () => {
    expect(reportKey(object)).toBe("reports/merge/a.ndjson/v1.json");
  });

  it("keeps every report key within S3's 1,024 bytes, one per key, whatever the key", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", minLength: 1, maxLength: 1_018 }),
        fc.string({ unit: "binary", minLength: 1, maxLength: 1_018 }),
        (a, b) => {
          const one = { ...object, key: `merge/${a}` };
          const two = { ...object, key: `merge/${b}` };
          for (const version of [one, two])
            expect(Buffer.byteLength(reportKey(version))).toBeLessThanOrEqual(1_024);
          expect(reportKey(one) === reportKey(two)).toBe(a === b);
        },
      ),
    );
  });

  it("uploads under the mode, a UTC stamp and the file's name in characters no event encodes", () => {
    const key = inboxKey("/tmp/my data (1).ndjson", "snapshot", new Date("2026-11-24T10:20:30.456Z"));
    expect(key).toBe("snapshot/20261124T102030Z-my_data__1_.ndjson");
    expect(modeOfKey(key)).toBe("snapshot");
  });
});

describe("the report's line", () => {
  const base: Omit<IngestReport, "status"> = {
    object,
    mode: "snapshot",
    startedAt: "2026-11-24T10:00:00.000Z",
    finishedAt: "2026-11-24T10:00:12.500Z",
    durationMs: 12_500,
    steps: 4,
    execution: "3f0c8a52-0d5e-4c36-9f6e-2b7f5d0e9a11",
  };

  it("says what was applied", () => {
    expect(reportLine({ ...base, status: "applied", changes: 10, changed: 7, deletedBySnapshot: 2 })).toBe(
      "applied s3://inbox/merge/a.ndjson (snapshot): 10 in the file, 7 changed, 2 stored ids absent from it deleted, in 12.5 s (4 ingest steps)",
    );
    // A report written before changes were counted.
    expect(reportLine({ ...base, status: "applied", changes: 10, deletedBySnapshot: 2 })).toBe(
      "applied s3://inbox/merge/a.ndjson (snapshot): 10 in the file, 2 stored ids absent from it deleted, in 12.5 s (4 ingest steps)",
    );
  });

  it("names the refused line, field and rule", () => {
    const refusal = { record: "line 3", field: "personId", rule: "expected uuid" };
    expect(reportLine({ ...base, status: "refused", refusal })).toBe(
      "refused, nothing changed: line 3: personId: expected uuid",
    );
    expect(reportLine({ ...base, status: "refused", refusal: { ...refusal, field: null } })).toBe(
      "refused, nothing changed: line 3: expected uuid",
    );
  });

  it("says why it failed", () => {
    expect(reportLine({ ...base, status: "failed", error: "a step crashed" })).toBe(
      "failed, nothing changed: a step crashed",
    );
  });
});

describe("waiting for the report", () => {
  it("gives up after a bounded time with the reason, having asked for the report more than once", async () => {
    let asked = 0;
    const inbox = {
      report: async () => {
        asked += 1;
        return undefined;
      },
    };
    const waiting = waitForReport(inbox, object, { pollMs: 5, timeoutMs: 30 });
    await expect(waiting).rejects.toBeInstanceOf(NoReportError);
    await expect(waiting).rejects.toThrow(
      /^no report 0 minutes after the upload: the ingest's execution ended without one/,
    );
    expect(asked).toBeGreaterThan(1);
    // By default, past the execution's own 24-hour limit, not for ever.
    expect(MAX_REPORT_WAIT_MS).toBeGreaterThan(24 * 3_600_000);
    expect(MAX_REPORT_WAIT_MS).toBeLessThan(25 * 3_600_000);
  });
});
