/**
 * `GET /v1/key` over HTTP in the sandbox stage (a release stage): the real authorizer and handler
 * behind the local gateway. Any valid key is answered with itself, and with nothing of any other
 * key; every other caller gets 401.
 */
import { generateApiKey, hashApiKey } from "../../lib/keys/api-key.js";
import { keyDescriptionSchema } from "../../lib/keys/describe-key.js";
import type { KeyRecord } from "../../lib/keys/key-record.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import { type LocalService, startLocalService } from "../../lib/local/service.js";
import { THROTTLE_TIERS } from "../../lib/stages.js";
import { type Answer, expectServiceHeaders, send } from "../support/http-client.js";

const KEYS = {
  north: generateApiKey("live"),
  south: generateApiKey("test"),
  bare: generateApiKey("test"),
  revoked: generateApiKey("live"),
};
const { records } = parseKeysFile(
  JSON.stringify({
    keys: [
      {
        key: KEYS.north,
        partner: "Northwind Payroll",
        operations: ["companies.hello", "persons.search"],
        companies: ["north-care", "alpine-homes", "north-care"],
        tier: "premium",
      },
      {
        key: KEYS.south,
        partner: "Southern Benefits",
        operations: ["employees.search"],
        companies: ["south-clinic", "bayou-nursing"],
        throttle: { rateLimit: 500, burstLimit: 500, dailyQuota: 90_000 },
      },
      { key: KEYS.bare, partner: "Bare Key", operations: [], companies: [], tier: "trial" },
      {
        key: KEYS.revoked,
        partner: "Gone Partner",
        operations: ["companies.hello"],
        companies: ["gone-company"],
        status: "revoked",
      },
    ],
  }),
  "key route test keys",
);
const recordOf = (partner: string): KeyRecord => {
  const record = records.find((candidate) => candidate.partner === partner);
  if (!record) throw new Error(`no key of ${partner}`);
  return record;
};
const NORTH = recordOf("Northwind Payroll");
const SOUTH = recordOf("Southern Benefits");

let service: LocalService;
beforeAll(async () => {
  service = await startLocalService({ port: 0, stage: "sandbox", keys: records });
});
afterAll(async () => {
  await service?.stop();
});

const describeKey = (key: string) => send(service.url, "/v1/key", { key });

function expectError(answer: Answer, status: number, error: string): void {
  expect([answer.status, answer.json]).toEqual([status, { error }]);
  expectServiceHeaders(answer);
}

/** Everything of a key that could identify it or its partner's data. */
function traces(record: KeyRecord, key: string): string[] {
  return [record.keyId, record.partner, record.keyHash, record.usageKey, key, ...record.companies];
}

describe("GET /v1/key in sandbox", () => {
  it("answers a tiered key with itself: id, partner, operations, companies sorted, its tier's throttle", async () => {
    const answer = await describeKey(KEYS.north);
    expect(answer.status).toBe(200);
    expectServiceHeaders(answer);
    expect(answer.json).toEqual({
      keyId: NORTH.keyId,
      partner: "Northwind Payroll",
      operations: ["companies.hello", "persons.search"],
      companies: ["alpine-homes", "north-care"],
      tier: "premium",
      throttle: {
        rate: THROTTLE_TIERS.premium.rateLimit,
        burst: THROTTLE_TIERS.premium.burstLimit,
        quota: null,
      },
    });
    expect(keyDescriptionSchema.safeParse(answer.json).success).toBe(true);
  });

  it("answers a key with a throttle of its own with that throttle and no tier", async () => {
    const answer = await describeKey(KEYS.south);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      keyId: SOUTH.keyId,
      tier: null,
      throttle: { rate: 500, burst: 500, quota: { limit: 90_000, period: "day" } },
    });
  });

  it("answers a key that holds no operation and no company (it needs neither), with a daily quota", async () => {
    const answer = await describeKey(KEYS.bare);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      partner: "Bare Key",
      operations: [],
      companies: [],
      tier: "trial",
      throttle: { quota: { limit: THROTTLE_TIERS.trial.dailyQuota, period: "day" } },
    });
  });

  it("isolation: shows each key only itself, answer after answer, and nothing of the other", async () => {
    const keys = [
      [NORTH, KEYS.north, SOUTH, KEYS.south],
      [SOUTH, KEYS.south, NORTH, KEYS.north],
    ] as const;
    for (let round = 0; round < 2; round++) {
      for (const [own, key, other, otherKey] of keys) {
        const answer = await describeKey(key);
        expect(answer.status).toBe(200);
        expect(answer.json).toMatchObject({
          keyId: own.keyId,
          partner: own.partner,
          companies: [...new Set(own.companies)].sort(),
        });
        for (const trace of traces(other, otherKey)) expect(answer.text).not.toContain(trace);
        // Its own id, never the key or anything it is stored or throttled by.
        for (const secret of [key, hashApiKey(key), own.keyHash]) expect(answer.text).not.toContain(secret);
      }
    }
  });

  it.each([
    ["no Authorization header", { authorization: undefined }],
    ["a Basic header", { authorization: `Basic ${KEYS.north}` }],
    ["a bad checksum", { key: `${KEYS.north.slice(0, -1)}${KEYS.north.endsWith("0") ? "1" : "0"}` }],
    ["an unknown well-formed key", { key: generateApiKey("live") }],
    ["a revoked key", { key: KEYS.revoked }],
  ])("answers 401 invalid_api_key, and nothing of any key, for %s", async (_, auth) => {
    const answer = await send(service.url, "/v1/key", auth);
    expectError(answer, 401, "invalid_api_key");
    expect(answer.headers.get("www-authenticate")).toBe("Bearer");
    for (const record of records) expect(answer.text).not.toContain(record.keyId);
  });

  it("answers 405 to another method and 404 beside the path", async () => {
    for (const method of ["POST", "PUT", "DELETE"]) {
      expectError(await send(service.url, "/v1/key", { method, key: KEYS.north }), 405, "method_not_allowed");
    }
    for (const path of ["/v1/keys", "/v1/key/", `/v1/key/${NORTH.keyId}`]) {
      expectError(await send(service.url, path, { key: KEYS.north }), 404, "not_found");
    }
  });
});
