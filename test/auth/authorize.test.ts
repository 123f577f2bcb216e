import { authorizeHeader } from "../../lib/auth/authorize.js";
import { allowPolicy, wildcardResource } from "../../lib/auth/policy.js";
import {
  principalFromEvent,
  requireCompany,
  requireOperation,
  toAuthorizerContext,
} from "../../lib/auth/principal.js";
import { GREETING_MESSAGE, greetCompany } from "../../lib/greeting/greet-company.js";
import { ForbiddenError, InvalidCompanyIdError } from "../../lib/http/errors.js";
import { generateApiKey, hashApiKey } from "../../lib/keys/api-key.js";
import type { KeyRecord } from "../../lib/keys/key-record.js";
import { proxyEvent } from "../support/events.js";

const KEY = generateApiKey("test");
const RECORD: KeyRecord = {
  keyId: "key_AAAAAAAAAAAAAAAA",
  keyHash: hashApiKey(KEY),
  partner: "Acme",
  operations: ["companies.hello"],
  companies: ["acme"],
  throttle: { rateLimit: 10, burstLimit: 20 },
  usageKey: "usage-1",
  status: "active",
  createdAt: "2026-01-01T00:00:00.000Z",
};

function keysTable(records: KeyRecord[]) {
  const lookups: string[] = [];
  return {
    lookups,
    findByHash: async (hash: string) => {
      lookups.push(hash);
      return records.find((record) => record.keyHash === hash);
    },
  };
}

describe("authorizeHeader", () => {
  it("allows an active key and returns its record", async () => {
    const table = keysTable([RECORD]);
    expect(await authorizeHeader(`Bearer ${KEY}`, table)).toEqual({ allowed: true, record: RECORD });
    expect(table.lookups).toEqual([RECORD.keyHash]);
  });

  it.each([
    ["missing", undefined, "missing"],
    ["empty", "", "missing"],
    ["another scheme", `Basic ${KEY}`, "malformed"],
    ["no key", "Bearer", "malformed"],
    ["a bad checksum", `Bearer ${KEY.slice(0, -1)}${KEY.endsWith("A") ? "B" : "A"}`, "malformed"],
    ["a made-up key", "Bearer pd_test_abc", "malformed"],
  ])("refuses %s without any lookup", async (_, header, reason) => {
    const table = keysTable([RECORD]);
    expect(await authorizeHeader(header, table)).toEqual({ allowed: false, reason });
    expect(table.lookups).toEqual([]);
  });

  it("refuses a well-formed key that is not in the table", async () => {
    const table = keysTable([RECORD]);
    expect(await authorizeHeader(`Bearer ${generateApiKey("live")}`, table)).toEqual({
      allowed: false,
      reason: "unknown",
    });
    expect(table.lookups).toHaveLength(1);
  });

  it("refuses a revoked key, naming it by id only", async () => {
    const outcome = await authorizeHeader(`Bearer ${KEY}`, keysTable([{ ...RECORD, status: "revoked" }]));
    expect(outcome).toEqual({ allowed: false, reason: "revoked", keyId: RECORD.keyId });
    expect(JSON.stringify(outcome)).not.toContain(KEY);
  });
});

describe("the policy", () => {
  const arn = "arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/v1/companies/acme/hello";

  it("allows every route of the API stage, so a cached policy serves any route", () => {
    expect(wildcardResource(arn)).toBe("arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*");
    const policy = allowPolicy(arn, toAuthorizerContext(RECORD), RECORD.usageKey);
    expect(policy).toMatchObject({
      principalId: RECORD.keyId,
      usageIdentifierKey: "usage-1",
      policyDocument: { Statement: [{ Effect: "Allow", Action: "execute-api:Invoke" }] },
      context: {
        keyId: RECORD.keyId,
        partner: "Acme",
        operations: '["companies.hello"]',
        companies: '["acme"]',
      },
    });
  });

  it("refuses a method ARN that is not an execute-api ARN", () => {
    expect(() => wildcardResource("nonsense")).toThrow();
  });
});

describe("the principal", () => {
  it("reads operations and companies from the authorizer context", () => {
    const principal = principalFromEvent(
      proxyEvent({ operations: ["persons.search"], companies: ["a", "b"] }),
    );
    expect([...principal.operations]).toEqual(["persons.search"]);
    expect([...principal.companies]).toEqual(["a", "b"]);
    expect(() => requireOperation(principal, "persons.search")).not.toThrow();
    expect(() => requireOperation(principal, "employees.search")).toThrow(ForbiddenError);
    expect(() => requireCompany(principal, "b")).not.toThrow();
    expect(() => requireCompany(principal, "c")).toThrow(ForbiddenError);
  });

  it("refuses a missing or garbled context", () => {
    expect(() => principalFromEvent(proxyEvent({ authorized: false }))).toThrow();
    const garbled = proxyEvent();
    (garbled.requestContext.authorizer as Record<string, unknown>).companies = "not json]";
    expect(() => principalFromEvent(garbled)).toThrow();
  });
});

describe("greetCompany", () => {
  const principal = principalFromEvent(proxyEvent({ companies: ["acme", "a".repeat(128)] }));

  it("greets a company the key may read", () => {
    expect(greetCompany(principal, "acme")).toEqual({ message: GREETING_MESSAGE });
    expect(greetCompany(principal, "a".repeat(128))).toEqual({ message: GREETING_MESSAGE });
  });

  it.each([
    ["empty", ""],
    ["129 characters", "a".repeat(129)],
    ["a space", "ac me"],
    ["a slash", "a/b"],
    ["unicode", "acmé"],
    ["percent", "a%20b"],
    ["missing", undefined],
  ])("refuses a malformed id (%s) with invalid_company_id", (_, companyId) => {
    expect(() => greetCompany(principal, companyId)).toThrow(InvalidCompanyIdError);
  });

  it("refuses a well-formed company the key may not read", () => {
    expect(() => greetCompany(principal, "other")).toThrow(ForbiddenError);
  });
});
