/**
 * DynamoDB failing under the searches: the SDK's bounded retries absorb what clears up, anything
 * else ends in 500 `internal_error` (never a partial page), and a slow call never outlives the
 * function's deadline. Faults are injected into the handlers' own shared client, inside its retry
 * loop, so they meet exactly the retries production would. The handlers' reader keeps its answers
 * (the answer cache, on as in production), so every search here is one it was never asked:
 * `unasked` bounds it by a `createdBefore` of its own, past every record (the same page).
 */

import { InternalServerError, ProvisionedThroughputExceededException } from "@aws-sdk/client-dynamodb";
import { jest } from "@jest/globals";
import { generateApiKey } from "../../lib/keys/api-key.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import { type LocalService, startLocalService } from "../../lib/local/service.js";
import { logger } from "../../lib/observability/logger.js";
import { sharedDocumentClient } from "../../lib/store/dynamo-client.js";
import { captureOutput } from "../http/output-capture.js";
import { SMALL_DATA } from "./search-routes-suite.js";

const KEY = generateApiKey("test");
const RECORDS = parseKeysFile(
  JSON.stringify({
    keys: [
      {
        key: KEY,
        partner: "Faults",
        operations: ["persons.search", "employees.search"],
        companies: ["acme", "beta"],
        throttle: { rateLimit: 1000, burstLimit: 1000 },
      },
    ],
  }),
  "fault keys",
).records;

type Fault =
  | { kind: "throw"; error: () => Error; times: number }
  | { kind: "unprocessed"; times: number }
  | { kind: "slow"; ms: number };
const state: {
  fault?: Fault;
  calls: Record<string, number>;
  slowCalls: Promise<unknown>[];
  /** Slow calls whose wait is over. */
  slowEnded: number;
} = {
  calls: {},
  slowCalls: [],
  slowEnded: 0,
};

/** What a fault does before the call reaches DynamoDB: wait, or throw while it has times left. */
async function faultBeforeCall(fault: Fault | undefined): Promise<void> {
  if (fault?.kind === "slow") {
    const wait = new Promise((resolve) => setTimeout(resolve, fault.ms)).then(() => {
      state.slowEnded += 1;
    });
    state.slowCalls.push(wait);
    await wait;
  }
  if (fault?.kind === "throw" && fault.times > 0) {
    fault.times -= 1;
    throw fault.error();
  }
}

interface BatchGetOutput {
  Responses?: Record<string, Record<string, unknown>[]>;
  UnprocessedKeys?: Record<string, { Keys: Record<string, unknown>[] }>;
}

/**
 * While it has times left, an `unprocessed` fault hands every item a BatchGetItem returned back as
 * unprocessed: its keys, in the form the output has.
 */
function faultBatchAnswer(fault: Fault | undefined, output: BatchGetOutput): void {
  if (fault?.kind !== "unprocessed" || fault.times <= 0) return;
  fault.times -= 1;
  for (const [table, items] of Object.entries(output.Responses ?? {})) {
    output.UnprocessedKeys = { [table]: { Keys: items.map(({ p, s }) => ({ p, s })) } };
    output.Responses = { [table]: [] };
  }
}

let service: LocalService;

/**
 * The local server's default, as generous as a deployed function's: a busy machine must not make a
 * healthy or retried search miss it. The request deadline falls half a second before it.
 */
const FUNCTION_TIMEOUT_MS = 10_000;

beforeAll(async () => {
  service = await startLocalService({
    port: 0,
    stage: "local",
    keys: RECORDS,
    data: SMALL_DATA,
    functionTimeoutMs: FUNCTION_TIMEOUT_MS,
  });
  sharedDocumentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      state.calls[command] = (state.calls[command] ?? 0) + 1;
      // The authorizer's key lookup (GetItem) shares this client; the faults are for the searches.
      const fault = command === "GetItemCommand" ? undefined : state.fault;
      await faultBeforeCall(fault);
      const result = await next(args);
      if (command === "BatchGetItemCommand") faultBatchAnswer(fault, result.output as BatchGetOutput);
      return result;
    },
    // Inside the SDK's retry loop (finalizeRequest), as a failing network call would be.
    { step: "deserialize", priority: "high", name: "faultInjection" },
  );
});

afterAll(async () => {
  await service.stop();
  // The handlers' shared client belongs to this file's module registry: close its sockets.
  sharedDocumentClient().destroy();
});

beforeEach(() => {
  state.fault = undefined;
  state.calls = {};
});

let asked = 0;
/** `body` as a question the reader has not answered yet, with the same answer: it must read. */
const unasked = (body: object) => {
  asked += 1;
  return { ...body, createdBefore: new Date(Date.UTC(2999, 0, 1) + asked * 1_000).toISOString() };
};

const search = async (route: "persons" | "employees", body: object) => {
  const response = await fetch(`${service.url}/v1/${route}/search`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.text() };
};
const throttled = () =>
  new ProvisionedThroughputExceededException({
    message: "Rate of requests exceeds the allowed throughput",
    $metadata: { httpStatusCode: 400 },
  });
const internal = () =>
  new InternalServerError({ message: "Internal server error", $metadata: { httpStatusCode: 500 } });

describe("DynamoDB faults", () => {
  it("retries throttling that clears up, and answers the page whole", async () => {
    const healthy = await search("persons", unasked({}));
    state.calls = {};
    // One throttled attempt: the SDK waits a random share of 1 s after it, held at half (500 ms) so
    // that the rest of the search has a second before the 1.5 s request deadline on any machine.
    // Two in a row could wait 3 s: a persons search over a kept scope reads its order's index
    // first, one call, where it once read its two companies at once.
    state.fault = { kind: "throw", error: throttled, times: 1 };
    const random = jest.spyOn(Math, "random").mockReturnValue(0.5);
    const response = await search("persons", unasked({})).finally(() => random.mockRestore());
    expect(response.status).toBe(200);
    const { asOf: _healthyAsOf, ...healthyPage } = JSON.parse(healthy.body) as Record<string, unknown>;
    const { asOf: _asOf, ...page } = JSON.parse(response.body) as Record<string, unknown>;
    expect(page).toEqual(healthyPage);
    expect(state.calls.QueryCommand).toBeGreaterThanOrEqual(3);
  });

  it("gives up on a persistent 5xx after a bounded number of attempts, with internal_error", async () => {
    state.fault = { kind: "throw", error: internal, times: 1_000 };
    const response = await search("employees", unasked({ companyId: "acme" }));
    expect(response.status).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
    expect(state.calls.QueryCommand).toBe(3);
  });

  it("retries UnprocessedKeys, and never presents a partial page", async () => {
    // A filtered page of employee records is scattered, so it is read with BatchGetItem (persons'
    // bundles and unfiltered runs are Queries).
    const filtered = { companyId: "acme", lastName: "garc" };
    state.fault = undefined;
    const healthy = await search("employees", unasked(filtered));
    expect((JSON.parse(healthy.body) as { employees: unknown[] }).employees.length).toBeGreaterThan(0);
    state.calls = {};
    state.fault = { kind: "unprocessed", times: 2 };
    const recovered = await search("employees", unasked(filtered));
    expect(recovered.status).toBe(200);
    expect(state.fault.times).toBe(0);
    expect(state.calls.BatchGetItemCommand).toBeGreaterThanOrEqual(3);
    const { asOf: _, ...answer } = JSON.parse(recovered.body) as Record<string, unknown>;
    const { asOf: __, ...expected } = JSON.parse(healthy.body) as Record<string, unknown>;
    expect(answer).toEqual(expected);

    state.fault = { kind: "unprocessed", times: 1_000 };
    const failed = await search("employees", unasked(filtered));
    expect(failed.status).toBe(500);
    expect(failed.body).toBe('{"error":"internal_error"}');
  });

  it("answers internal_error before the function's deadline when DynamoDB is slow", async () => {
    // Each call waits 2 s past the function's timeout. The handler's deadline timer starts before
    // the first call and ends half a second before the timeout (and the local gateway's), so it
    // fires first however slow the machine: the handler itself answers, while every call still
    // waits. Timers in order, not a wall-clock budget a busy machine could miss.
    state.slowEnded = 0;
    state.fault = { kind: "slow", ms: FUNCTION_TIMEOUT_MS + 2_000 };
    logger.setLogLevel("ERROR");
    const output = captureOutput();
    let response: Awaited<ReturnType<typeof search>>;
    try {
      response = await search("persons", unasked({}));
    } finally {
      output.restore();
      logger.setLogLevel("SILENT");
    }
    expect(response.status).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
    expect(state.slowCalls.length).toBeGreaterThan(0);
    expect(state.slowEnded).toBe(0);
    const failed = output.entries().filter((entry) => entry.message === "request failed");
    expect(failed).toEqual([
      expect.objectContaining({ error: expect.objectContaining({ name: "TimeoutError" }) }),
    ]);
    // The abandoned DynamoDB calls still run (a real Lambda would be frozen): let them end here.
    state.fault = undefined;
    await Promise.all(state.slowCalls.splice(0));
  });
});
