/**
 * Secrets: the main HTTP scenarios run with generated canary keys while stdout,
 * stderr and the console are captured; no key, nor its 32-character random body, may appear in
 * any log line, response body or response header. The authorizer's final comparison must be
 * `crypto.timingSafeEqual`: node:crypto is replaced by a spying copy before the service is loaded,
 * so the check observes the real authorizer on real requests (no source reading).
 */
import * as realCrypto from "node:crypto";
import { jest } from "@jest/globals";
import { API_KEY_BODY_LENGTH, generateApiKey } from "../../lib/keys/api-key.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import type { LocalService } from "../../lib/local/service.js";
import { MAX_TEXT_LENGTH } from "../../lib/search/request-schemas.js";
import { type RawRequest, type RawResponse, send } from "../support/raw-http.js";

const timingSafeEqual = jest.fn(realCrypto.timingSafeEqual);
jest.unstable_mockModule("node:crypto", () => ({ ...realCrypto, default: realCrypto, timingSafeEqual }));

const ALL = ["persons.search", "employees.search", "companies.hello"];
const FAST = { rateLimit: 10_000, burstLimit: 10_000 };
const KEYS = {
  full: generateApiKey("test"),
  live: generateApiKey("live"),
  helloOnly: generateApiKey("test"),
  searchOnly: generateApiKey("live"),
  slow: generateApiKey("test"),
  revoked: generateApiKey("live"),
  unknown: generateApiKey("test"),
};
const { records } = parseKeysFile(
  JSON.stringify({
    keys: [
      { key: KEYS.full, partner: "Full", operations: ALL, companies: ["acme", "beta"], throttle: FAST },
      { key: KEYS.live, partner: "Live", operations: ALL, companies: ["acme"], throttle: FAST },
      {
        key: KEYS.helloOnly,
        partner: "Hello",
        operations: ["companies.hello"],
        companies: ["acme"],
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
  "canary keys",
);
/** A one-character change in the checksum, and one in the random body: mistyped keys that still carry the secret. */
const badCheck = (key: string) => `${key.slice(0, -1)}${key.endsWith("0") ? "1" : "0"}`;
const badBody = (key: string) => `${key.slice(0, 12)}${key[12] === "0" ? "1" : "0"}${key.slice(13)}`;
/** The random part of a key: after `pd_test_` / `pd_live_`, before the 6-character check. */
const randomPart = (key: string) => key.slice(8, 8 + API_KEY_BODY_LENGTH);

const output: string[] = [];
const restore: (() => void)[] = [];
let engine: Engine;
let service: LocalService;
let port: number;

function capture(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = ((written: string | Uint8Array) => {
      output.push(typeof written === "string" ? written : Buffer.from(written).toString("utf8"));
      return true;
    }) as typeof stream.write;
    restore.push(() => {
      stream.write = write;
    });
  }
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const spy = jest.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      output.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" "));
    });
    restore.push(() => spy.mockRestore());
  }
}

beforeAll(async () => {
  // The most talkative level: a key in a debug line is a leak too. Set before the logger loads.
  process.env.POWERTOOLS_LOG_LEVEL = "DEBUG";
  const { startLocalService } = await import("../../lib/local/service.js");
  capture();
  engine = await startDynalite();
  service = await startLocalService({ port: 0, stage: "local", keys: records, engine });
  port = Number(new URL(service.url).port);
});

afterAll(async () => {
  for (const undo of restore.splice(0)) undo();
  await service.stop();
  await engine.stop();
});

const responses: RawResponse[] = [];

async function call(
  method: string,
  path: string,
  authorization: string[],
  body = "",
  extra: [string, string][] = [],
): Promise<RawResponse> {
  const raw: RawRequest = {
    method,
    path,
    headers: [
      ...authorization.map((value): [string, string] => ["authorization", value]),
      ["content-type", "application/json"],
      ...extra,
    ],
    body: Buffer.from(body),
  };
  const response = await send(port, raw);
  responses.push(response);
  return response;
}
const bearer = (key: string) => [`Bearer ${key}`];
const hello = (key: string[], company = "acme") => call("GET", `/v1/companies/${company}/hello`, key);
const persons = (key: string[], body = "") => call("POST", "/v1/persons/search", key, body);
const employees = (key: string[], body = "") => call("POST", "/v1/employees/search", key, body);

describe("the main scenarios with canary keys", () => {
  it("greeting: 200, 401 (missing, bad checksum, bad body, unknown, revoked, malformed), 403, 429", async () => {
    expect((await hello(bearer(KEYS.full))).status).toBe(200);
    expect((await hello([`bearer   ${KEYS.live}  `])).status).toBe(200);
    expect((await hello([])).status).toBe(401);
    for (const key of [KEYS.full, KEYS.live]) {
      expect((await hello(bearer(badCheck(key)))).status).toBe(401);
      expect((await hello(bearer(badBody(key)))).status).toBe(401);
      expect((await hello([`Bearer ${key} ${key}`])).status).toBe(401);
      expect((await hello([`Basic ${key}`])).status).toBe(401);
      expect((await hello([key])).status).toBe(401);
    }
    expect((await hello(bearer(KEYS.unknown))).status).toBe(401);
    expect((await hello(bearer(KEYS.revoked))).status).toBe(401);
    expect((await hello(bearer(KEYS.searchOnly))).status).toBe(403);
    expect((await hello(bearer(KEYS.helloOnly), "beta")).status).toBe(403);
    const slow = [
      await hello(bearer(KEYS.slow)),
      await hello(bearer(KEYS.slow)),
      await hello(bearer(KEYS.slow)),
    ];
    expect(slow.map((r) => r.status)).toContain(429);
  });

  it("both searches: 200, 400, 403 (operation and company), 401", async () => {
    expect((await persons(bearer(KEYS.full))).status).toBe(200);
    expect((await persons(bearer(KEYS.full), '{"companyId":"acme","limit":0}')).status).toBe(400);
    expect((await persons(bearer(KEYS.full), '{"nope":1}')).status).toBe(400);
    expect((await persons(bearer(KEYS.full), "{not json")).status).toBe(400);
    expect((await persons(bearer(KEYS.live), '{"companyId":"beta"}')).status).toBe(403);
    expect((await persons(bearer(KEYS.helloOnly))).status).toBe(403);
    expect((await persons(bearer(badCheck(KEYS.searchOnly)))).status).toBe(401);
    expect((await employees(bearer(KEYS.full), '{"companyId":"acme"}')).status).toBe(200);
    expect((await employees(bearer(KEYS.full), "{}")).status).toBe(400);
    expect((await employees(bearer(KEYS.full), '{"companyId":"acme","phone":"12"}')).status).toBe(400);
    expect((await employees(bearer(KEYS.live), '{"companyId":"beta"}')).status).toBe(403);
    expect((await employees(bearer(KEYS.searchOnly), '{"companyId":"acme"}')).status).toBe(403);
    expect((await employees(bearer(KEYS.revoked), '{"companyId":"acme"}')).status).toBe(401);
    expect((await employees(bearer(badBody(KEYS.full)), '{"companyId":"acme"}')).status).toBe(401);
  });

  it("keys sent as company ids: in the greeting path and in both search bodies", async () => {
    for (const key of [KEYS.full, KEYS.live, KEYS.unknown]) {
      expect((await hello(bearer(KEYS.full), key)).status).toBe(403);
      expect((await hello(bearer(KEYS.full), `acme${key}`)).status).toBe(403);
      expect((await hello(bearer(KEYS.full), encodeURIComponent(`${key} x`))).status).toBe(400);
      expect((await persons(bearer(KEYS.full), JSON.stringify({ companyId: key }))).status).toBe(403);
      expect((await employees(bearer(KEYS.full), JSON.stringify({ companyId: `${key}/x` }))).status).toBe(
        403,
      );
      expect((await employees(bearer(KEYS.full), JSON.stringify({ companyId: key, limit: 0 }))).status).toBe(
        400,
      );
      // A key in the path of a wrong method or of no route at all.
      expect((await call("POST", `/v1/companies/${key}/hello`, bearer(KEYS.full))).status).toBe(405);
      expect((await call("GET", `/v1/${key}`, bearer(KEYS.full))).status).toBe(404);
    }
  });

  it("two Authorization headers, and a key in another header", async () => {
    expect((await hello([`Bearer ${KEYS.full}`, `Bearer ${badCheck(KEYS.live)}`])).status).toBe(401);
    expect((await hello([`Bearer ${badCheck(KEYS.live)}`, `Bearer ${KEYS.full}`])).status).toBe(401);
    const other = await call("GET", "/v1/companies/acme/hello", [], "", [["x-api-key", KEYS.full]]);
    expect(other.status).toBe(401);
  });
});

describe("caller text in the logs", () => {
  /** The log output one request adds: it is written before the response is sent. */
  async function loggedBy(request: () => Promise<RawResponse>): Promise<{ status: number; logged: string }> {
    const before = output.length;
    const { status } = await request();
    return { status, logged: output.slice(before).join("") };
  }
  const MiB = 1_048_576;
  /** A body of exactly 1 MiB (the largest accepted) made of one long companyId. */
  const companyOfMiB = (extra: Record<string, unknown> = {}) => {
    const overhead = JSON.stringify({ ...extra, companyId: "" }).length;
    return JSON.stringify({ ...extra, companyId: "c".repeat(MiB - overhead) });
  };

  it.each([
    ["persons search, a 1 MiB companyId", () => persons(bearer(KEYS.full), companyOfMiB()), 400],
    ["employees search, a 1 MiB companyId", () => employees(bearer(KEYS.full), companyOfMiB()), 400],
    [
      "employees search, the longest companyId",
      () => employees(bearer(KEYS.full), JSON.stringify({ companyId: "c".repeat(MAX_TEXT_LENGTH) })),
      403,
    ],
    [
      "employees search, a 1 MiB companyId and a bad limit",
      () => employees(bearer(KEYS.full), companyOfMiB({ limit: 0 })),
      400,
    ],
    ["the greeting, a 15 kB company id", () => hello(bearer(KEYS.full), "c".repeat(15_000)), 400],
    ["no route, a 15 kB path", () => call("GET", `/${"p".repeat(15_000)}`, bearer(KEYS.full)), 404],
  ])("%s: logs a few short lines, not the caller's text", async (_, request, status) => {
    const { status: answered, logged } = await loggedBy(request);
    expect(answered).toBe(status);
    expect(logged).toMatch(/"requestId"/);
    // At DEBUG: the authorizer's line, the function's lines and the access log, each short.
    expect(Buffer.byteLength(logged)).toBeLessThan(4_096);
    expect(logged).not.toMatch(/c{201}|p{201}/);
  });
});

describe("secrets", () => {
  const canaries = Object.values(KEYS).flatMap((key) => [key, randomPart(key)]);

  it("the scenarios ran and logged (so an empty capture cannot pass)", () => {
    expect(responses.length).toBeGreaterThan(30);
    const lines = output
      .join("")
      .split("\n")
      .filter((line) => line.startsWith("{"));
    expect(lines.length).toBeGreaterThan(responses.length);
    expect(lines.some((line) => line.includes("key refused"))).toBe(true);
  });

  it("no key and no key body in any log line, response body or response header", () => {
    const logs = output.join("");
    const bodies = responses.map((r) => r.body).join("\n");
    const headers = responses.flatMap((r) => r.rawHeaders).join("\n");
    for (const canary of canaries) {
      expect(logs).not.toContain(canary);
      expect(bodies).not.toContain(canary);
      expect(headers).not.toContain(canary);
    }
    // Nothing that merely looks like a key (a prefix a scanner would flag) was echoed either.
    expect(`${logs}${bodies}${headers}`).not.toMatch(/pd_(live|test)_[0-9A-Za-z]{8}/);
  });

  it("the authorizer compares the stored and computed hashes with crypto.timingSafeEqual", () => {
    // Every authorizer run for a well-formed key that exists in the keys table reaches the
    // comparison; the gateway keeps an answer per key for a second, so each key runs it once at least.
    expect(timingSafeEqual.mock.calls.length).toBeGreaterThanOrEqual(Object.keys(KEYS).length - 1);
    for (const [stored, computed] of timingSafeEqual.mock.calls) {
      expect(stored).toHaveLength(32); // SHA-256 bytes
      expect(computed).toHaveLength(32);
    }
  });
});
