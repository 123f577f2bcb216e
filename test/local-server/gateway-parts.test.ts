import { generateApiKey } from "../../lib/keys/api-key.js";
import { localConfigFromEnv } from "../../lib/local/config.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import { routeMatcher } from "../../lib/local/route-match.js";
import { UsagePlanThrottler } from "../../lib/local/token-bucket.js";
import { ROUTES, routesForStage } from "../../lib/routes.js";

describe("UsagePlanThrottler", () => {
  it("lets a burst through, then refills at the rate", () => {
    let now = Date.parse("2026-01-01T12:00:00Z");
    const throttler = new UsagePlanThrottler(() => now);
    const throttle = { rateLimit: 2, burstLimit: 3 };
    for (let i = 0; i < 3; i++) expect(throttler.take("k", throttle)).toEqual({ allowed: true });
    expect(throttler.take("k", throttle)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now += 500; // one token back at 2/s
    expect(throttler.take("k", throttle)).toEqual({ allowed: true });
    expect(throttler.take("k", throttle).allowed).toBe(false);
    // Other keys have buckets of their own.
    expect(throttler.take("other", throttle)).toEqual({ allowed: true });
  });

  it("says how long to wait at a slow rate", () => {
    const now = 0;
    const throttler = new UsagePlanThrottler(() => now);
    const throttle = { rateLimit: 0.1, burstLimit: 1 };
    expect(throttler.take("k", throttle).allowed).toBe(true);
    expect(throttler.take("k", throttle)).toEqual({ allowed: false, retryAfterSeconds: 10 });
  });

  it("enforces a daily quota until the next UTC day", () => {
    let now = Date.parse("2026-01-01T23:59:00Z");
    const throttler = new UsagePlanThrottler(() => now);
    const throttle = { rateLimit: 100, burstLimit: 100, dailyQuota: 2 };
    expect(throttler.take("k", throttle).allowed).toBe(true);
    expect(throttler.take("k", throttle).allowed).toBe(true);
    expect(throttler.take("k", throttle)).toEqual({ allowed: false, retryAfterSeconds: 60 });
    now = Date.parse("2026-01-02T00:00:01Z");
    expect(throttler.take("k", throttle).allowed).toBe(true);
  });
});

describe("routeMatcher", () => {
  const match = routeMatcher(ROUTES);

  it("finds a route and decodes its path parameters", () => {
    expect(match("GET", "/v1/companies/acme%2Dx/hello")).toMatchObject({
      kind: "route",
      route: { id: "companies-hello" },
      pathParameters: { companyId: "acme-x" },
    });
    expect(match("GET", "/v1/companies//hello")).toMatchObject({
      kind: "route",
      pathParameters: { companyId: "" },
    });
  });

  it("tells an unknown path (404) from a wrong method (405)", () => {
    expect(match("GET", "/v1/persons/search")).toEqual({ kind: "method_not_allowed" });
    expect(match("DELETE", "/v1/companies/acme/hello")).toEqual({ kind: "method_not_allowed" });
    expect(match("POST", "/v1/persons/search/")).toEqual({ kind: "not_found" });
    expect(match("GET", "/v2/companies/acme/hello")).toEqual({ kind: "not_found" });
  });

  it("leaves the draft routes out in sandbox and prod", () => {
    for (const stage of ["sandbox", "prod"]) {
      expect(routeMatcher(routesForStage(stage))("POST", "/v1/persons/search")).toEqual({
        kind: "not_found",
      });
    }
    expect(routeMatcher(routesForStage("dev"))("POST", "/v1/persons/search").kind).toBe("route");
  });
});

describe("parseKeysFile", () => {
  const key = generateApiKey("test");
  const entry = { key, partner: "Acme", operations: ["companies.hello"], companies: ["acme"] };

  it("hashes the keys and keeps no plain key in the records", () => {
    const { records } = parseKeysFile(JSON.stringify({ keys: [entry] }), "keys.json");
    expect(records).toHaveLength(1);
    expect(JSON.stringify(records)).not.toContain(key);
    expect(records[0]).toMatchObject({
      partner: "Acme",
      status: "active",
      throttle: { rateLimit: 10, burstLimit: 20 },
    });
  });

  it("gives a key loaded twice the same key id", () => {
    const first = parseKeysFile(JSON.stringify({ keys: [entry] }), "a").records[0];
    const second = parseKeysFile(JSON.stringify({ keys: [entry] }), "b").records[0];
    expect(first?.keyId).toBe(second?.keyId);
  });

  it.each([
    [
      { ...entry, key: `${key.slice(0, -1)}0` === key ? `${key.slice(0, -1)}1` : `${key.slice(0, -1)}0` },
      "keys[0].key: not a well-formed partner key",
    ],
    [{ ...entry, operations: ["delete.everything"] }, "keys[0].operations[0]: unsupported value"],
    [{ ...entry, partner: "" }, "keys[0].partner: must be at least 1 character"],
    [{ ...entry, extra: true }, 'unknown field "keys[0].extra"'],
  ])("refuses a bad record naming it, never printing the key", (bad, message) => {
    expect(() => parseKeysFile(JSON.stringify({ keys: [bad] }), "keys.json")).toThrow(message);
    try {
      parseKeysFile(JSON.stringify({ keys: [bad] }), "keys.json");
    } catch (error) {
      expect(String(error)).not.toContain(key.slice(8, 40));
    }
  });

  it("refuses the same key twice and invalid JSON", () => {
    expect(() => parseKeysFile(JSON.stringify({ keys: [entry, entry] }), "f")).toThrow(
      "keys[1].key: the same key appears twice",
    );
    expect(() => parseKeysFile("{", "f")).toThrow("keys file f: not valid JSON");
  });
});

describe("localConfigFromEnv", () => {
  it("defaults to port 3000, stage local, dynalite and the demo files", () => {
    expect(localConfigFromEnv({})).toMatchObject({
      port: 3000,
      stage: "local",
      engine: "dynalite",
      usingDemoKeys: true,
    });
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ STAGE: "staging" }, "STAGE"],
    [{ DYNAMODB_ENGINE: "mysql" }, "DYNAMODB_ENGINE"],
  ])("refuses %j naming the variable", (env, name) => {
    expect(() => localConfigFromEnv(env)).toThrow(name);
  });
});
