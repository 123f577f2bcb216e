import { requireCompany } from "../../lib/auth/principal.js";
import { RateLimitedError } from "../../lib/http/errors.js";
import { generateApiKey } from "../../lib/keys/api-key.js";
import { logger } from "../../lib/observability/logger.js";
import { echoRoute, plainRoute } from "./echo-route.js";
import { type EventOptions, header, invoke, KEY_ID } from "./harness.js";
import { captureLogsPerTest } from "./output-capture.js";

const KEY = generateApiKey("live");
const headers = {
  "Content-Type": "application/json",
  Authorization: `Bearer ${KEY}`,
  "User-Agent": "partner-client/1.0",
};

const output = captureLogsPerTest(logger);

const { handler: echo } = echoRoute();
const failing = plainRoute(async () => {
  throw new Error("ConditionalCheckFailed on table pds-prod-keys");
});
const limited = plainRoute(async () => {
  throw new RateLimitedError(1);
});
const huge = plainRoute(async () => "x".repeat(6_300_000));

type Run = (options: EventOptions) => ReturnType<typeof invoke>;
const SEARCH = "persons-search";
const HELLO = "companies-hello";
const SCENARIOS: [name: string, status: number, route: string, run: Run][] = [
  ["success", 200, SEARCH, (o) => invoke(echo, o)],
  ["invalid JSON", 400, SEARCH, (o) => invoke(echo, { ...o, body: "{" })],
  ["operation not granted", 403, SEARCH, (o) => invoke(echo, { ...o, operations: ["companies.hello"] })],
  ["rate limited", 429, HELLO, (o) => invoke(limited, { ...o, method: "GET" })],
  ["handler failure", 500, HELLO, (o) => invoke(failing, { ...o, method: "GET" })],
  ["response too large", 500, HELLO, (o) => invoke(huge, { ...o, method: "GET" })],
];

function completions() {
  return output.entries().filter((entry) => entry.message === "request completed");
}

describe("the access log", () => {
  it.each(SCENARIOS)("has one line per request on %s (%i)", async (_, status, route, run) => {
    const response = await run({ headers, requestId: "gw-req-42" });
    expect(response.statusCode).toBe(status);
    const lines = completions();
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ requestId: "gw-req-42", route, status, keyId: KEY_ID });
    // The route's template, never the path as sent (caller text).
    expect(line?.resourcePath).toBe(
      route === SEARCH ? "/v1/persons/search" : "/v1/companies/{companyId}/hello",
    );
    expect(line).not.toHaveProperty("path");
    expect(typeof line?.durationMs).toBe("number");
    expect(Number(line?.durationMs)).toBeGreaterThanOrEqual(0);
    expect(header(response, "x-request-id")).toBe(line?.requestId);
  });

  it("carries the generated request id when API Gateway gave none", async () => {
    const response = await invoke(echo, { headers });
    expect(completions()[0]?.requestId).toBe(header(response, "x-request-id"));
  });

  it("has no keyId, but still a line, when the authorizer context is missing", async () => {
    const response = await invoke(echo, { headers, authorizer: null, requestId: "gw-no-ctx" });
    expect(response.statusCode).toBe(500);
    const [line] = completions();
    expect(line).toMatchObject({ requestId: "gw-no-ctx", status: 500 });
    expect(line?.keyId).toBeUndefined();
  });

  it("logs the size of a response too large for Lambda, with the request id", async () => {
    await invoke(huge, { headers, method: "GET", requestId: "gw-huge" });
    const tooLarge = output.entries().find((entry) => entry.message === "response too large for Lambda");
    expect(tooLarge).toMatchObject({ requestId: "gw-huge", limitBytes: 6_291_456 });
    expect(Number(tooLarge?.responseBytes)).toBeGreaterThan(6_291_456);
  });

  it("quotes a company id refused as forbidden redacted and cut", async () => {
    // A search body's companyId has no length limit; the route refuses it only by permission. The
    // cut (200 characters) falls inside the key's body: what is left of it is redacted all the same.
    const asking = (companyId: string) =>
      plainRoute(async ({ principal }) => requireCompany(principal, companyId));
    const other = generateApiKey("test");
    const get = { headers, method: "GET" };
    expect((await invoke(asking(other), get)).statusCode).toBe(403);
    expect((await invoke(asking(`${"a".repeat(120)}${other}${"b".repeat(1_048_000)}`), get)).statusCode).toBe(
      403,
    );
    const reasons = output.entries().filter((entry) => entry.message === "request forbidden");
    expect(reasons.map((entry) => entry.reason)).toEqual([
      `key ${KEY_ID} may not read company pd_…[redacted]`,
      expect.stringMatching(
        /^key key_\w+ may not read company a{120}pd_…\[redacted\]…\[cut: \d+ characters in all\]$/,
      ),
    ]);
    // Not even the part of the body before the cut.
    expect(output.text()).not.toContain(other.slice(8, 20));
    // Four lines (two refusals, two completions), none quoting the megabyte the caller sent.
    const lines = output.text().trim().split("\n");
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line.length).toBeLessThan(800);
  });

  it("never contains the API key or the Authorization header, on any outcome", async () => {
    for (const [, , , run] of SCENARIOS) await run({ headers });
    // A key in the body (a partner pasting it in the wrong place) must not reach the logs either.
    await invoke(echo, { headers, body: JSON.stringify({ note: KEY }) });
    await invoke(echo, { headers, body: `{"${KEY}":1}` });
    const text = output.text();
    expect(completions()).toHaveLength(SCENARIOS.length + 2);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(8, 40));
    expect(text).not.toMatch(/bearer/i);
    expect(text).not.toMatch(/authorization/i);
  });
});
