/**
 * Draft search routes by stage, over HTTP: served in `local`, absent (404) in `prod`; prod refuses
 * test keys. Both services
 * share one dynalite: handlers read their environment once, at import, as on Lambda.
 */
import { generateApiKey } from "../../lib/keys/api-key.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import { type LocalService, startLocalService } from "../../lib/local/service.js";
import { expectServiceHeaders, send } from "../support/http-client.js";

// A live key: prod refuses test keys.
const KEY = generateApiKey("live");
const TEST_KEY = generateApiKey("test");
const { records } = parseKeysFile(
  JSON.stringify({
    keys: [
      {
        key: KEY,
        partner: "Stages",
        operations: ["persons.search", "employees.search", "companies.hello"],
        companies: ["acme"],
        throttle: { rateLimit: 1_000, burstLimit: 1_000 },
      },
      {
        key: TEST_KEY,
        partner: "Stages (test key)",
        operations: ["companies.hello"],
        companies: ["acme"],
        throttle: { rateLimit: 1_000, burstLimit: 1_000 },
      },
    ],
  }),
  "stages test keys",
);

let engine: Engine;
let local: LocalService;
let prod: LocalService;
beforeAll(async () => {
  engine = await startDynalite();
  local = await startLocalService({ port: 0, stage: "local", keys: records, engine });
  prod = await startLocalService({ port: 0, stage: "prod", keys: records, engine });
});
afterAll(async () => {
  await local?.stop();
  await prod?.stop();
  await engine?.stop();
});

const search = (service: LocalService, path: string, body: string) =>
  send(service.url, path, { method: "POST", key: KEY, body, contentType: "application/json" });

const SEARCHES: [string, string][] = [
  ["/v1/persons/search", "{}"],
  ["/v1/employees/search", '{"companyId":"acme"}'],
];

describe("stage local", () => {
  it.each(SEARCHES)("serves POST %s (not a 404)", async (path, body) => {
    const answer = await search(local, path, body);
    expect(answer.status).not.toBe(404);
    expect(answer.status).toBeLessThan(500);
    expect(answer.json).not.toEqual({ error: "not_found" });
    expectServiceHeaders(answer);
  });

  it("answers another method on a search path 405", async () => {
    const answer = await send(local.url, "/v1/persons/search", { key: KEY });
    expect([answer.status, answer.json]).toEqual([405, { error: "method_not_allowed" }]);
  });
});

describe("stage prod", () => {
  it.each(SEARCHES)("answers POST %s 404 not_found", async (path, body) => {
    const answer = await search(prod, path, body);
    expect([answer.status, answer.json]).toEqual([404, { error: "not_found" }]);
    expectServiceHeaders(answer);
  });

  it("still greets", async () => {
    const answer = await send(prod.url, "/v1/companies/acme/hello", { key: KEY });
    expect(answer.status).toBe(200);
    expectServiceHeaders(answer);
  });

  it("refuses a test key 401 invalid_api_key, which local accepts", async () => {
    const answer = await send(prod.url, "/v1/companies/acme/hello", { key: TEST_KEY });
    expect([answer.status, answer.json]).toEqual([401, { error: "invalid_api_key" }]);
    expect((await send(local.url, "/v1/companies/acme/hello", { key: TEST_KEY })).status).toBe(200);
  });
});
