/**
 * The greeting API over HTTP in the sandbox stage: real dynalite, the real authorizer and handler
 * behind the local gateway. One service for the whole file (handlers read their environment at import).
 */
import { generateApiKey } from "../../lib/keys/api-key.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import { type LocalService, startLocalService } from "../../lib/local/service.js";
import { type Answer, expectServiceHeaders, send } from "../support/http-client.js";

const ALL = ["persons.search", "employees.search", "companies.hello"];
const FAST = { rateLimit: 1_000, burstLimit: 1_000 };
const LONGEST_ID = "L".repeat(128);
const KEYS = {
  full: generateApiKey("test"),
  searchOnly: generateApiKey("live"),
  acmeOnly: generateApiKey("test"),
  slow: generateApiKey("test"),
  revoked: generateApiKey("live"),
};
const { records } = parseKeysFile(
  JSON.stringify({
    keys: [
      {
        key: KEYS.full,
        partner: "Full",
        operations: ALL,
        companies: ["acme", "beta", LONGEST_ID],
        throttle: FAST,
      },
      {
        key: KEYS.searchOnly,
        partner: "Search",
        operations: ["persons.search"],
        companies: ["acme"],
        throttle: FAST,
      },
      {
        key: KEYS.acmeOnly,
        partner: "Acme",
        operations: ["companies.hello"],
        companies: ["acme"],
        throttle: FAST,
      },
      {
        key: KEYS.slow,
        partner: "Slow",
        operations: ALL,
        companies: ["acme"],
        throttle: { rateLimit: 1, burstLimit: 1 },
      },
      {
        key: KEYS.revoked,
        partner: "Gone",
        operations: ALL,
        companies: ["acme"],
        status: "revoked",
        throttle: FAST,
      },
    ],
  }),
  "greeting test keys",
);

let service: LocalService;
beforeAll(async () => {
  // A frozen clock: token buckets never refill, so throttling is exact.
  service = await startLocalService({
    port: 0,
    stage: "sandbox",
    keys: records,
    now: () => 1_767_225_600_000,
  });
});
afterAll(async () => {
  await service?.stop();
});

const hello = (companyId: string, key?: string) =>
  send(service.url, `/v1/companies/${companyId}/hello`, key ? { key } : {});

function expectError(answer: Answer, status: number, error: string): void {
  expect([answer.status, answer.json]).toEqual([status, { error }]);
  expectServiceHeaders(answer);
}

describe("GET /v1/companies/{companyId}/hello in sandbox", () => {
  it("answers 200 with the greeting", async () => {
    const answer = await hello("acme", KEYS.full);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ message: "Hello from the Partner Directory Search Service" });
    expectServiceHeaders(answer);
  });

  it.each([["a%20b"], ["a".repeat(129)], ["%C3%A9"], ["a%2Fb"], ["100%25"], [""]])(
    "answers 400 invalid_company_id for %j",
    async (companyId) => {
      expectError(await hello(companyId, KEYS.full), 400, "invalid_company_id");
    },
  );

  it("greets a 128-character id the key may read, and refuses (403) one it may not", async () => {
    const answer = await hello(LONGEST_ID, KEYS.full);
    expect(answer.status).toBe(200);
    expectServiceHeaders(answer);
    expectError(await hello("M".repeat(128), KEYS.full), 403, "forbidden");
  });

  it.each([
    ["no Authorization header", { authorization: undefined }],
    ["a Basic header", { authorization: `Basic ${KEYS.full}` }],
    ["a bad checksum", { key: `${KEYS.full.slice(0, -1)}${KEYS.full.endsWith("0") ? "1" : "0"}` }],
    ["an unknown well-formed key", { key: generateApiKey("test") }],
    ["a revoked key", { key: KEYS.revoked }],
  ])("answers 401 invalid_api_key for %s", async (_, auth) => {
    expectError(await send(service.url, "/v1/companies/acme/hello", auth), 401, "invalid_api_key");
  });

  it("answers 403 forbidden for a key without companies.hello", async () => {
    expectError(await hello("acme", KEYS.searchOnly), 403, "forbidden");
  });

  it("answers 403 forbidden for a company the key was not granted", async () => {
    expectError(await hello("beta", KEYS.acmeOnly), 403, "forbidden");
    expect((await hello("beta", KEYS.full)).status).toBe(200);
  });

  it("answers 404 not_found for an unknown path", async () => {
    for (const path of [
      "/v1",
      "/v1/companies/acme",
      "/v1/companies/acme/hello/",
      "/v2/companies/acme/hello",
    ]) {
      expectError(await send(service.url, path, { key: KEYS.full }), 404, "not_found");
    }
  });

  it("answers 405 method_not_allowed for another method on the greeting path", async () => {
    for (const method of ["POST", "PUT", "DELETE"]) {
      expectError(
        await send(service.url, "/v1/companies/acme/hello", { method, key: KEYS.full }),
        405,
        "method_not_allowed",
      );
    }
  });

  it("answers 429 rate_limited with Retry-After once a key's burst is spent, other keys unaffected", async () => {
    expect((await hello("acme", KEYS.slow)).status).toBe(200);
    const limited = await hello("acme", KEYS.slow);
    expectError(limited, 429, "rate_limited");
    expect(limited.headers.get("retry-after")).toBe("1");
    expect((await hello("acme", KEYS.full)).status).toBe(200);
  });
});

describe("the search routes in sandbox", () => {
  it.each([
    ["POST", "/v1/persons/search"],
    ["POST", "/v1/employees/search"],
    ["GET", "/v1/persons/search"],
  ])("%s %s answers 404 not_found, even with a valid key", async (method, path) => {
    const answer = await send(service.url, path, {
      method,
      key: KEYS.full,
      ...(method === "POST" ? { body: '{"companyId":"acme"}', contentType: "application/json" } : {}),
    });
    expectError(answer, 404, "not_found");
  });
});
