/**
 * Random and hostile requests through the local server: whatever arrives, the answer is a
 * documented status with a contract-valid body and no internals, and the tables stay unchanged.
 * Raw node:http so that invalid UTF-8, duplicate keys and odd headers reach the server as sent.
 */
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import fc from "fast-check";
import { parseDataFile } from "../../lib/directory/source.js";
import { generateApiKey } from "../../lib/keys/api-key.js";
import { DEMO_DATA_FILE } from "../../lib/local/config.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import { LOCAL_TABLE_NAMES, type LocalService, startLocalService } from "../../lib/local/service.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { expectContractResponse } from "../support/contract.js";

const KEY = generateApiKey("test");
const NARROW_KEY = generateApiKey("test");
const RECORDS = parseKeysFile(
  JSON.stringify({
    keys: [
      {
        key: KEY,
        partner: "Fuzz",
        operations: ["persons.search", "employees.search", "companies.hello"],
        companies: ["acme-home-care", "bluebird-health"],
        throttle: { rateLimit: 10_000, burstLimit: 10_000 },
      },
      {
        key: NARROW_KEY,
        partner: "Narrow",
        operations: ["companies.hello"],
        companies: ["acme-home-care"],
        throttle: { rateLimit: 10_000, burstLimit: 10_000 },
      },
    ],
  }),
  "fuzz keys",
).records;

let engine: Engine;
let service: LocalService;
let port: number;

beforeAll(async () => {
  engine = await startDynalite();
  const data = parseDataFile(readFileSync(DEMO_DATA_FILE, "utf8"));
  service = await startLocalService({ port: 0, stage: "local", keys: RECORDS, data, engine });
  port = Number(new URL(service.url).port);
}, 60_000);

afterAll(async () => {
  await service.stop();
  await engine.stop();
});

async function snapshot(): Promise<string> {
  const documents = documentClientFor(engine.client());
  const tables: unknown[] = [];
  for (const table of Object.values(LOCAL_TABLE_NAMES)) {
    const { Items = [] } = await documents.send(new ScanCommand({ TableName: table }));
    tables.push(Items.map((item) => JSON.stringify(item)).sort());
  }
  return JSON.stringify(tables);
}

interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

function send(raw: RawRequest): Promise<{ status: number; headers: Headers; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: raw.method,
        path: raw.path,
        headers: { ...raw.headers, "content-length": raw.body.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === "string") headers.set(name, value);
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString("utf8") });
        });
      },
    );
    req.on("error", reject);
    req.end(raw.body);
  });
}

const MIB = 1_048_576;
const paddedObject = (bytes: number) => Buffer.from(`{"firstName":"${"a".repeat(bytes - 16)}"}`);
const hostileBodies: fc.Arbitrary<Buffer> = fc.oneof(
  fc.jsonValue().map((value) => Buffer.from(JSON.stringify(value) ?? "")),
  fc
    .dictionary(
      fc.constantFrom(
        "companyId",
        "firstName",
        "lastName",
        "phone",
        "personId",
        "limit",
        "offset",
        "externalIdSystems",
        "createdFrom",
        "createdBefore",
        "x",
      ),
      fc.jsonValue(),
    )
    .map((value) => Buffer.from(JSON.stringify(value))),
  fc
    .constantFrom(
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '{"companyId":"acme-home-care","limit":1,"limit":"x"}',
      '{"companyId":"acme-home-care","companyId":"bluebird-health"}',
      '{"firstName":"\\u0000\\ud800"}',
      '{"phone":"٥٥٥١٢٣٤٥٦٧"}',
      '{"lastName":"Ｓｍｉｔｈ","externalIdSystems":["payroll_system","payroll_system"]}',
      "[".repeat(5_000) + "]".repeat(5_000),
      `{"a":${'{"a":'.repeat(3_000)}1${"}".repeat(3_000)}}`,
      "",
      "null",
      "{",
    )
    .map((text) => Buffer.from(text)),
  fc.constant(
    Buffer.from([
      0x7b, 0x22, 0x66, 0x69, 0x72, 0x73, 0x74, 0x4e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3,
      0x28, 0x22, 0x7d,
    ]),
  ),
  fc.constantFrom(MIB - 1, MIB, MIB + 1, 2 * MIB).map(paddedObject),
);

const paths = fc.oneof(
  fc.constantFrom(
    "/v1/persons/search",
    "/v1/employees/search",
    "/v1/companies/acme-home-care/hello",
    "/v1/companies/bluebird-health/hello",
  ),
  fc.string({ maxLength: 40 }).map((id) => `/v1/companies/${encodeURIComponent(id)}/hello`),
  fc.constantFrom(
    "/",
    "/v1",
    "/v1/persons",
    "/v1/persons/search/",
    "/v2/persons/search",
    "/v1/companies/%ZZ/hello",
    "/v1/companies/../hello",
    "/openapi.json/x",
    `/v1/companies/${"a".repeat(300)}/hello`,
  ),
);

const authorization = fc.oneof(
  fc.constantFrom(
    `Bearer ${KEY}`,
    `Bearer ${KEY}`,
    `bearer ${NARROW_KEY}`,
    `Bearer ${KEY.slice(0, -1)}x`,
    "Bearer",
    "Basic dXNlcjpwYXNz",
    "Bearer pd_live_",
    `Bearer ${"A".repeat(5_000)}`,
  ),
  fc.string({ maxLength: 60 }).filter((value) => /^[\x20-\x7e]*$/.test(value)),
);

const anything: fc.Arbitrary<RawRequest> = fc.record({
  method: fc.constantFrom("GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"),
  path: paths,
  headers: fc.record(
    {
      authorization,
      "content-type": fc.constantFrom(
        "application/json",
        "application/json; charset=utf-8",
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/jsonx",
      ),
    },
    { requiredKeys: [] },
  ),
  body: hostileBodies,
});

/** Right method, path, key and content type: the body alone is hostile, so the handlers answer. */
const wellAddressed: fc.Arbitrary<RawRequest> = fc
  .record({
    route: fc.constantFrom(
      { method: "POST", path: "/v1/persons/search" },
      { method: "POST", path: "/v1/employees/search" },
      { method: "GET", path: "/v1/companies/acme-home-care/hello" },
    ),
    body: fc.oneof(
      hostileBodies,
      fc
        .constantFrom(
          "{}",
          '{"companyId":"acme-home-care"}',
          '{"lastName":"a","limit":3}',
          '{"companyId":"acme-home-care","offset":5}',
          '{"phone":"(713) 555-7808"}',
        )
        .map((text) => Buffer.from(text)),
    ),
  })
  .map(({ route, body }) => ({
    ...route,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body,
  }));

const requests = fc.oneof(anything, wellAddressed);

const INTERNALS =
  /stack|\bat \S+ \(|node_modules|\.ts:\d|dynamodb|exception|ResourceNotFound|directory|pd_(live|test)_/i;

describe("hostile requests", () => {
  it("never get a 500, a stack or an internal name, only documented answers; nothing changes", async () => {
    const before = await snapshot();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requests, async (raw) => {
        const response = await send(raw);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect([200, 400, 401, 403, 404, 405, 429]).toContain(response.status);
        // The path as the server resolves it (`..` and `.` segments collapse, as URLs do).
        expectContractResponse({
          method: raw.method,
          path: new URL(raw.path, "http://local").pathname,
          ...response,
        });
        if (response.status !== 200) expect(response.body).not.toMatch(INTERNALS);
      }),
      { numRuns: 250 },
    );
    expect(await snapshot()).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The run reached the handlers, not only the gateway's refusals.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(5);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(5);
  }, 120_000);
});
