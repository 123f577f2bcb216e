/**
 * The local server as a partner meets it: real dynalite, the real authorizer and handlers behind
 * the local gateway, over HTTP. One engine per file: handlers read their environment at import.
 */
import { generateApiKey } from "../../lib/keys/api-key.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import type { LocalService } from "../../lib/local/service.js";
import { expectContractResponse } from "../support/contract.js";

const ALL = ["persons.search", "employees.search", "companies.hello"];
const KEYS = {
  // Live: prod (below) refuses test keys.
  full: generateApiKey("live"),
  helloOnly: generateApiKey("test"),
  searchOnly: generateApiKey("live"),
  slow: generateApiKey("test"),
  revoked: generateApiKey("test"),
};
const { records } = parseKeysFile(
  JSON.stringify({
    keys: [
      { key: KEYS.full, partner: "Full", operations: ALL, companies: ["acme", "beta"] },
      { key: KEYS.helloOnly, partner: "Hello", operations: ["companies.hello"], companies: ["acme"] },
      { key: KEYS.searchOnly, partner: "Search", operations: ["persons.search"], companies: ["acme"] },
      {
        key: KEYS.slow,
        partner: "Slow",
        operations: ALL,
        companies: ["acme"],
        throttle: { rateLimit: 1, burstLimit: 2 },
      },
      { key: KEYS.revoked, partner: "Gone", operations: ALL, companies: ["acme"], status: "revoked" },
    ],
  }),
  "test keys",
);

let engine: Engine;
let local: LocalService;
let prod: LocalService;
/** As `npm start` runs on a terminal: a short line per request. */
let terminal: LocalService;
const output: string[] = [];
let restoreStdout: () => void;

beforeAll(async () => {
  // This file checks the logs: the logger must start at INFO (it returns to its initial level on
  // every invocation), so the service, and with it the logger, is loaded only now.
  process.env.POWERTOOLS_LOG_LEVEL = "INFO";
  const { startLocalService } = await import("../../lib/local/service.js");
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((written: string | Uint8Array) => {
    output.push(String(written));
    return true;
  }) as typeof process.stdout.write;
  restoreStdout = () => {
    process.stdout.write = write;
  };
  engine = await startDynalite();
  local = await startLocalService({ port: 0, stage: "local", keys: records, engine });
  prod = await startLocalService({ port: 0, stage: "prod", keys: records, engine });
  terminal = await startLocalService({ port: 0, stage: "local", keys: records, engine, requestLog: "lines" });
});

afterAll(async () => {
  restoreStdout();
  await local.stop();
  await prod.stop();
  await terminal.stop();
  await engine.stop();
});

async function request(service: LocalService, path: string, init: RequestInit & { key?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("authorization", `Bearer ${init.key}`);
  const response = await fetch(`${service.url}${path}`, { ...init, headers });
  const seen = { status: response.status, headers: response.headers, body: await response.text() };
  expectContractResponse({
    method: init.method ?? "GET",
    path: new URL(path, service.url).pathname,
    ...seen,
  });
  return seen;
}
const hello = (company: string, key?: string) =>
  request(local, `/v1/companies/${company}/hello`, key ? { key } : {});

describe("the greeting route over HTTP", () => {
  it("answers 200 with the greeting, as JSON, with x-request-id", async () => {
    const response = await hello("acme", KEYS.full);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ message: "Hello from the Partner Directory Search Service" });
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ["no Authorization header", undefined, 401, "invalid_api_key"],
    [
      "a key with a bad checksum",
      `${KEYS.full.slice(0, -1)}${KEYS.full.endsWith("z") ? "y" : "z"}`,
      401,
      "invalid_api_key",
    ],
    ["an unknown well-formed key", generateApiKey("live"), 401, "invalid_api_key"],
    ["a revoked key", KEYS.revoked, 401, "invalid_api_key"],
    ["a key without companies.hello", KEYS.searchOnly, 403, "forbidden"],
  ])("answers %s with %i", async (_, key, status, error) => {
    const response = await hello("acme", key);
    expect(response.status).toBe(status);
    expect(JSON.parse(response.body)).toEqual({ error });
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers 403 for a company the key may not read, and 400 for a malformed id", async () => {
    expect(await hello("beta", KEYS.helloOnly)).toMatchObject({ status: 403, body: '{"error":"forbidden"}' });
    for (const bad of ["a%20b", "x".repeat(129), "%C3%A9"]) {
      expect(await hello(bad, KEYS.full)).toMatchObject({
        status: 400,
        body: '{"error":"invalid_company_id"}',
      });
    }
    expect(await request(local, "/v1/companies//hello", { key: KEYS.full })).toMatchObject({ status: 400 });
  });

  it("answers unknown routes 404 and other methods 405, with x-request-id", async () => {
    const unknown = await request(local, "/v1/nothing", { key: KEYS.full });
    expect(unknown).toMatchObject({ status: 404, body: '{"error":"not_found"}' });
    expect(unknown.headers.get("x-request-id")).toBeTruthy();
    const wrongMethod = await request(local, "/v1/companies/acme/hello", { method: "POST", key: KEYS.full });
    expect(wrongMethod).toMatchObject({ status: 405, body: '{"error":"method_not_allowed"}' });
    expect(wrongMethod.headers.get("x-request-id")).toBeTruthy();
  });

  it("throttles per key with 429 and Retry-After, leaving other keys alone", async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 4; i++) {
      const response = await hello("acme", KEYS.slow);
      statuses.push(response.status);
      if (response.status === 429) {
        retryAfter = response.headers.get("retry-after");
        expect(JSON.parse(response.body)).toEqual({ error: "rate_limited" });
      }
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await hello("acme", KEYS.full)).status).toBe(200);
  });
});

describe("stages", () => {
  it("serves the draft search routes locally", async () => {
    const response = await request(local, "/v1/persons/search", { method: "POST", key: KEYS.full });
    expect(response.status).toBe(200);
  });

  it("does not serve them in prod (404), but still greets", async () => {
    for (const path of ["/v1/persons/search", "/v1/employees/search"]) {
      expect(await request(prod, path, { method: "POST", key: KEYS.full })).toMatchObject({
        status: 404,
        body: '{"error":"not_found"}',
      });
    }
    expect((await request(prod, "/v1/companies/acme/hello", { key: KEYS.full })).status).toBe(200);
  });

  it("answers GET / without a key, pointing to the reference page and the OpenAPI document", async () => {
    const response = await fetch(`${local.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const root = (await response.json()) as { docs: string; openapi: string };
    expect(root).toMatchObject({ docs: "/docs", openapi: "/openapi.json" });
    for (const path of [root.docs, root.openapi])
      expect((await fetch(`${local.url}${path}`)).status).toBe(200);
  });

  it("serves the OpenAPI document without a key", async () => {
    const response = await request(local, "/openapi.json");
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ openapi: "3.1.0" });
  });

  it("describes the server as it runs: its own URL and port, and only the routes its stage serves", async () => {
    type Served = {
      servers: { url: string }[];
      paths: Record<string, Record<string, { servers?: unknown }>>;
      tags: { name: string }[];
    };
    const served = async (service: LocalService) =>
      JSON.parse((await request(service, "/openapi.json")).body) as Served;
    const [inProd, inLocal] = [await served(prod), await served(local)];

    expect(inProd.servers.map((server) => server.url)).toEqual([prod.url]);
    expect(Object.keys(inProd.paths).sort()).toEqual(["/v1/companies/{companyId}/hello", "/v1/key"]);
    expect(inProd.tags.map((tag) => tag.name)).toEqual(["Greeting"]);

    expect(inLocal.servers.map((server) => server.url)).toEqual([local.url]);
    expect(Object.keys(inLocal.paths).sort()).toEqual(
      ["/v1/companies/{companyId}/hello", "/v1/employees/search", "/v1/key", "/v1/persons/search"].sort(),
    );
    // No operation names a server of its own, which would win over this one.
    for (const document of [inProd, inLocal])
      for (const pathItem of Object.values(document.paths))
        for (const operation of Object.values(pathItem)) expect(operation.servers).toBeUndefined();
  });

  it("serves the API reference page and the installed Scalar bundle without a key", async () => {
    // Not partner routes (no contract body): checked here directly; test/reference-page renders it.
    const page = await fetch(`${local.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // Public static documents choose their caching (docs/decisions.md); none may be sniffed.
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const script = (await page.text()).match(
      /<script src="(\/docs\/scalar\.js\?v=[0-9a-f]{16})"><\/script>/,
    )?.[1];
    expect(script).toBeDefined();
    const bundle = await fetch(`${local.url}${script}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(bundle.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(bundle.headers.get("x-content-type-options")).toBe("nosniff");
    expect(bundle.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await bundle.text()).toMatch(/createApiReference/);
  });
});

describe("logs", () => {
  it("on a terminal are one short line per request, with its route's template and no JSON access line", async () => {
    const answered = await fetch(`${terminal.url}/v1/companies/acme/hello`, {
      headers: { authorization: `Bearer ${KEYS.full}` },
    });
    const unknown = await fetch(`${terminal.url}/no/such/path`);
    const printed = output.join("").split("\n");
    const id = (response: Response) => response.headers.get("x-request-id") ?? "";
    expect(printed).toContainEqual(
      expect.stringMatching(
        new RegExp(`^GET /v1/companies/\\{companyId\\}/hello 200 \\d+ ms ${id(answered)}$`),
      ),
    );
    expect(printed).toContainEqual(
      expect.stringMatching(new RegExp(`^GET \\(no route\\) 404 \\d+ ms ${id(unknown)}$`)),
    );
    expect(printed.filter((line) => line.includes(id(answered)) && line.includes('"api access"'))).toEqual(
      [],
    );
  });

  it("are JSON lines with request ids and key ids, and never contain a key", () => {
    const lines = output
      .join("")
      .split("\n")
      .filter((line) => line.startsWith("{"));
    expect(lines.length).toBeGreaterThan(10);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      entries.some((entry) => entry.message === "request completed" && entry.keyId && entry.requestId),
    ).toBe(true);
    const everything = output.join("");
    for (const key of Object.values(KEYS)) {
      expect(everything).not.toContain(key);
      expect(everything).not.toContain(key.slice(8, 40));
    }
  });
});
