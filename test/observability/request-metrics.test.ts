/**
 * A request through the pipeline emits one EMF record: route and status as dimensions, the key id
 * (never the key) and request id as properties, and the read capacity, calls and latency of the
 * DynamoDB calls its code made (ReturnConsumedCapacity TOTAL asked of every read).
 */
import { DynamoDBClient, GetItemCommand, QueryCommand } from "@aws-sdk/client-dynamodb";
import type { HttpHandler } from "../../lib/http/pipeline.js";
import { generateApiKey } from "../../lib/keys/api-key.js";
import { gatewayEvent, invoke, KEY_ID, lambdaContext } from "../http/harness.js";
import { type CapturedOutput, captureOutput } from "../http/output-capture.js";

// Quiet by default in tests (test/support/quiet-logs.ts); read when the metrics are made.
process.env.POWERTOOLS_METRICS_DISABLED = "false";

const KEY = generateApiKey("live");
const asked: unknown[] = [];

/** A client whose every call answers at once, reporting 1.5 read capacity units consumed. */
async function fakeClient(): Promise<DynamoDBClient> {
  const { countRequestWork } = await import("../../lib/observability/request-capacity.js");
  const client = new DynamoDBClient({
    region: "eu-west-1",
    credentials: { accessKeyId: "a", secretAccessKey: "b" },
  });
  countRequestWork(client);
  client.middlewareStack.add(
    () => async (args) => {
      asked.push((args.input as { ReturnConsumedCapacity?: unknown }).ReturnConsumedCapacity);
      return { output: { $metadata: {}, ConsumedCapacity: { CapacityUnits: 1.5 } }, response: {} };
    },
    { step: "build", name: "answerAtOnce" },
  );
  return client;
}

let output: CapturedOutput;
let handler: HttpHandler;
let failing: HttpHandler;
beforeAll(async () => {
  const client = await fakeClient();
  const { plainRoute } = await import("../http/echo-route.js");
  handler = plainRoute(async () => {
    await client.send(new GetItemCommand({ TableName: "t", Key: {} }));
    await client.send(new QueryCommand({ TableName: "t" }));
    return { ok: true };
  });
  failing = plainRoute(async () => {
    await client.send(new GetItemCommand({ TableName: "t", Key: {} }));
    throw new Error("boom");
  });
  output = captureOutput();
});
afterEach(() => output.clear());
afterAll(() => {
  output.restore();
  delete process.env.POWERTOOLS_METRICS_DISABLED;
});

function emfRecords() {
  return output.entries().filter((entry) => "_aws" in entry);
}

describe("the request's metrics", () => {
  it("are one EMF record with route, status, key id and the DynamoDB work", async () => {
    const headers = { Authorization: `Bearer ${KEY}` };
    const response = await invoke(handler, { method: "GET", headers, requestId: "gw-metrics-1" });
    expect(response.statusCode).toBe(200);
    const records = emfRecords();
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({
      route: "companies-hello",
      status: "200",
      service: "partner-directory",
      keyId: KEY_ID,
      requestId: "gw-metrics-1",
      ReadCapacityUnits: 3,
      DynamoDbCalls: 2,
    });
    expect(typeof record?.DynamoDbLatency).toBe("number");
    const emf = record?._aws as
      | { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] }
      | undefined;
    const [directive] = emf?.CloudWatchMetrics ?? [];
    expect(directive?.Namespace).toBe("PartnerDirectory");
    expect(directive?.Dimensions).toEqual([["service", "route", "status"]]);
    expect(asked).toEqual(["TOTAL", "TOTAL"]);
    expect(output.text()).not.toContain(KEY);
  });

  it("tell the final status of a failed request, with what it read before failing", async () => {
    expect((await invoke(failing, { method: "GET" })).statusCode).toBe(500);
    const [record, ...more] = emfRecords();
    expect(more).toHaveLength(0);
    expect(record).toMatchObject({ status: "500", ReadCapacityUnits: 1.5, DynamoDbCalls: 1 });
  });
});

describe("a metrics record that cannot be made", () => {
  it("costs the request nothing: its answer goes out, and the failure is logged", async () => {
    const { default: middy } = await import("@middy/core");
    const { requestMetrics } = await import("../../lib/observability/metrics.js");
    const { logger } = await import("../../lib/observability/logger.js");
    logger.setLogLevel("INFO");
    const answered = middy(async () => ({ statusCode: 200, body: "{}" })).use(
      requestMetrics(() => {
        throw new TypeError("no outcome");
      }),
    );
    const response = await answered(gatewayEvent(), lambdaContext()).finally(() =>
      logger.setLogLevel("SILENT"),
    );
    expect(response).toEqual({ statusCode: 200, body: "{}" });
    expect(output.entries()).toContainEqual(
      expect.objectContaining({ message: "metrics record not published", errorName: "TypeError" }),
    );
    expect(emfRecords()).toEqual([]);
  });
});
