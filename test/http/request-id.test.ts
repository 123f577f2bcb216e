import type { APIGatewayProxyResult } from "aws-lambda";
import { RateLimitedError } from "../../lib/http/errors.js";
import { echoRoute, plainRoute } from "./echo-route.js";
import { type EventOptions, header, invoke, UUID } from "./harness.js";

const failing = plainRoute(async () => {
  throw new Error("boom");
});
const limited = plainRoute(async () => {
  throw new RateLimitedError(2);
});
const { handler: echo } = echoRoute();

type Scenario = [
  name: string,
  status: number,
  run: (options: EventOptions) => Promise<APIGatewayProxyResult>,
];
const SCENARIOS: Scenario[] = [
  ["success", 200, (o) => invoke(echo, o)],
  ["body too large", 400, (o) => invoke(echo, { ...o, body: `"${"x".repeat(1_048_576)}"` })],
  ["invalid JSON", 400, (o) => invoke(echo, { ...o, body: "{" })],
  ["wrong content type", 400, (o) => invoke(echo, { ...o, headers: { "content-type": "text/plain" } })],
  ["schema violation", 400, (o) => invoke(echo, { ...o, body: '{"limit":0}' })],
  ["operation not granted", 403, (o) => invoke(echo, { ...o, operations: [] })],
  ["rate limited", 429, (o) => invoke(limited, { ...o, method: "GET" })],
  ["handler failure", 500, (o) => invoke(failing, { ...o, method: "GET" })],
  ["no authorizer context", 500, (o) => invoke(echo, { ...o, authorizer: null })],
];

describe("x-request-id", () => {
  it.each(SCENARIOS)("is API Gateway's request id on %s (%i)", async (_, status, run) => {
    const response = await run({ requestId: "c0ffee00-gw-request-id" });
    expect(response.statusCode).toBe(status);
    expect(header(response, "x-request-id")).toBe("c0ffee00-gw-request-id");
  });

  it.each(SCENARIOS)("is a fresh UUID without one, on %s (%i)", async (_, status, run) => {
    const first = await run({});
    const second = await run({ requestId: "" });
    expect(first.statusCode).toBe(status);
    expect(second.statusCode).toBe(status);
    expect(header(first, "x-request-id")).toMatch(UUID);
    expect(header(second, "x-request-id")).toMatch(UUID);
    expect(header(first, "x-request-id")).not.toBe(header(second, "x-request-id"));
  });

  it.each(SCENARIOS)("comes with no-store and nosniff on %s (%i)", async (_, status, run) => {
    const response = await run({});
    expect(response.statusCode).toBe(status);
    expect(header(response, "cache-control")).toBe("no-store");
    expect(header(response, "x-content-type-options")).toBe("nosniff");
  });

  it("is the id the handler sees", async () => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, { requestId: "gw-1" });
    expect(calls[0]?.requestId).toBe("gw-1");
    const anonymous = await invoke(handler, {});
    expect(calls[1]?.requestId).toBe(header(anonymous, "x-request-id"));
    expect(header(response, "x-request-id")).toBe("gw-1");
  });
});
