/**
 * The headers of every answer of the local server, over HTTP: `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff` on all of them (the functions' and the gateway's own),
 * `WWW-Authenticate: Bearer` on 401, `Allow` on 405.
 */
import { generateApiKey } from "../../lib/keys/api-key.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import type { LocalService } from "../../lib/local/service.js";
import { expectStandardHeaders } from "../support/contract.js";

const ALL = ["persons.search", "employees.search", "companies.hello"];
const FAST = { rateLimit: 10_000, burstLimit: 10_000 };
const KEYS = {
  full: generateApiKey("test"),
  helloOnly: generateApiKey("test"),
  slow: generateApiKey("live"),
};
const { records } = parseKeysFile(
  JSON.stringify({
    keys: [
      { key: KEYS.full, partner: "Full", operations: ALL, companies: ["acme"], throttle: FAST },
      {
        key: KEYS.helloOnly,
        partner: "Hello",
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
    ],
  }),
  "header test keys",
);

let engine: Engine;
let service: LocalService;

beforeAll(async () => {
  const { startLocalService } = await import("../../lib/local/service.js");
  engine = await startDynalite();
  // A clock that never moves: the slow key's one token is spent for good, so its 429 is certain.
  service = await startLocalService({ port: 0, stage: "local", keys: records, engine, now: () => 0 });
}, 30_000);

afterAll(async () => {
  await service.stop();
  await engine.stop();
});

async function call(
  method: string,
  path: string,
  init: { key?: string; authorization?: string; body?: string } = {},
) {
  const headers = new Headers({ "content-type": "application/json" });
  const authorization = init.authorization ?? (init.key ? `Bearer ${init.key}` : undefined);
  if (authorization) headers.set("authorization", authorization);
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers,
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

const HELLO = "/v1/companies/acme/hello";

describe("every answer over HTTP", () => {
  it.each([
    ["the greeting", "GET", HELLO, 200, { key: KEYS.full }],
    ["persons search", "POST", "/v1/persons/search", 200, { key: KEYS.full, body: "{}" }],
    [
      "employees search",
      "POST",
      "/v1/employees/search",
      200,
      { key: KEYS.full, body: '{"companyId":"acme"}' },
    ],
    ["the OpenAPI document", "GET", "/openapi.json", 200, {}],
    ["a malformed company id", "GET", "/v1/companies/a%20b/hello", 400, { key: KEYS.full }],
    ["an invalid body", "POST", "/v1/persons/search", 400, { key: KEYS.full, body: '{"limit":0}' }],
    ["no key", "GET", HELLO, 401, {}],
    ["an unknown key", "GET", HELLO, 401, { key: generateApiKey("live") }],
    ["another scheme", "GET", HELLO, 401, { authorization: `Basic ${KEYS.full}` }],
    ["an operation the key lacks", "POST", "/v1/persons/search", 403, { key: KEYS.helloOnly, body: "{}" }],
    ["a company the key may not read", "GET", "/v1/companies/beta/hello", 403, { key: KEYS.full }],
    ["no such route", "GET", "/v1/nothing", 404, { key: KEYS.full }],
    ["the greeting's path, POST", "POST", HELLO, 405, { key: KEYS.full }],
    ["a search path, GET", "GET", "/v1/persons/search", 405, { key: KEYS.full }],
    ["the OpenAPI document, DELETE", "DELETE", "/openapi.json", 405, {}],
  ] as const)(
    "%s (%s %s) answers %i: no-store, nosniff and the status's own headers",
    async (_, method, path, status, init: { key?: string; authorization?: string; body?: string }) => {
      const response = await call(method, path, init);
      expect(response.status).toBe(status);
      expectStandardHeaders(status, response.headers);
    },
  );

  it("429 too, with Retry-After", async () => {
    expect((await call("GET", HELLO, { key: KEYS.slow })).status).toBe(200);
    const limited = await call("GET", HELLO, { key: KEYS.slow });
    expect(limited.status).toBe(429);
    expectStandardHeaders(429, limited.headers);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("401 names the Bearer scheme", async () => {
    expect((await call("GET", HELLO)).headers.get("www-authenticate")).toBe("Bearer");
  });

  it("405 names exactly the methods the path serves", async () => {
    expect((await call("PUT", HELLO)).headers.get("allow")).toBe("GET");
    expect((await call("GET", "/v1/employees/search")).headers.get("allow")).toBe("POST");
    expect((await call("POST", "/openapi.json")).headers.get("allow")).toBe("GET, HEAD");
  });
});
