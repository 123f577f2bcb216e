/** `GET /v1/key`'s use case, from the principal the pipeline reads out of the authorizer context. */
import type { APIGatewayProxyEvent } from "aws-lambda";
import { parse } from "zod/mini";
import type { Operation } from "../../lib/auth/operations.js";
import { principalFromEvent, toAuthorizerContext } from "../../lib/auth/principal.js";
import { ApiError } from "../../lib/http/errors.js";
import { describeKey, keyDescriptionSchema } from "../../lib/keys/describe-key.js";
import { THROTTLE_TIERS, type Throttle } from "../../lib/stages.js";

interface KeyFields {
  keyId?: string;
  partner?: string;
  operations?: Operation[];
  companies?: string[];
  tier?: string | undefined;
  throttle?: Throttle;
}

/** The principal of a key, the way the authorizer hands it over (its context, read back). */
function principalOf(fields: KeyFields = {}) {
  const context = toAuthorizerContext({
    keyId: "key_DescribeDescrib1",
    partner: "Describe Ltd",
    operations: ["companies.hello"],
    companies: ["acme"],
    throttle: { rateLimit: 10, burstLimit: 20 },
    ...fields,
  });
  return principalFromEvent({
    requestContext: { authorizer: context } as unknown as APIGatewayProxyEvent["requestContext"],
  });
}

describe("describeKey", () => {
  it("answers the key's id, partner, operations and companies, both lists sorted, in the route's schema", () => {
    const answer = describeKey(
      principalOf({
        operations: ["persons.search", "companies.hello", "employees.search"],
        companies: ["zeta", "Acme", "beta", "acme", "beta"],
        tier: "standard",
      }),
    );
    expect(answer).toEqual({
      keyId: "key_DescribeDescrib1",
      partner: "Describe Ltd",
      operations: ["companies.hello", "employees.search", "persons.search"],
      companies: ["Acme", "acme", "beta", "zeta"],
      tier: "standard",
      throttle: { rate: 10, burst: 20, quota: null },
    });
    expect(parse(keyDescriptionSchema, answer)).toEqual(answer);
  });

  it("answers a key with no operation and no company (this route needs neither)", () => {
    const answer = describeKey(principalOf({ operations: [], companies: [] }));
    expect(answer).toMatchObject({ operations: [], companies: [] });
    expect(parse(keyDescriptionSchema, answer)).toEqual(answer);
  });

  it.each(Object.entries(THROTTLE_TIERS))(
    "takes tier %s's throttle from the tier definitions the usage plans are made of, not the record's copy",
    (tier, throttle) => {
      const stale = { rateLimit: 999, burstLimit: 999, dailyQuota: 1 };
      const answer = describeKey(principalOf({ tier, throttle: stale }));
      const dailyQuota = "dailyQuota" in throttle ? throttle.dailyQuota : undefined;
      expect(answer.tier).toBe(tier);
      expect(answer.throttle).toEqual({
        rate: throttle.rateLimit,
        burst: throttle.burstLimit,
        quota: dailyQuota === undefined ? null : { limit: dailyQuota, period: "day" },
      });
    },
  );

  it("answers a key with a throttle of its own: no tier, its own rate, burst and daily quota", () => {
    const answer = describeKey(
      principalOf({ tier: undefined, throttle: { rateLimit: 0.5, burstLimit: 3, dailyQuota: 40 } }),
    );
    expect(answer.tier).toBeNull();
    expect(answer.throttle).toEqual({ rate: 0.5, burst: 3, quota: { limit: 40, period: "day" } });
    expect(parse(keyDescriptionSchema, answer)).toEqual(answer);
  });

  it("names no tier that is not defined, and gives the record's throttle for it", () => {
    const answer = describeKey(principalOf({ tier: "platinum", throttle: { rateLimit: 7, burstLimit: 8 } }));
    expect(answer.tier).toBeNull();
    expect(answer.throttle).toEqual({ rate: 7, burst: 8, quota: null });
  });

  it("fails as a server fault (never a contract error) on a context without the throttle", () => {
    const { keyId, partner, operations, companies } = principalOf();
    let caught: unknown;
    try {
      describeKey({ keyId, partner, operations, companies });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect(caught).not.toBeInstanceOf(ApiError);
  });
});

describe("keyDescriptionSchema", () => {
  const valid = describeKey(principalOf());
  it.each([
    ["an extra field", { ...valid, keyHash: "f".repeat(64) }],
    ["a key instead of a key id", { ...valid, keyId: "pd_test_0123456789" }],
    ["an unknown operation", { ...valid, operations: ["admin"] }],
    ["an unknown tier", { ...valid, tier: "platinum" }],
    [
      "a quota of another period",
      { ...valid, throttle: { ...valid.throttle, quota: { limit: 1, period: "month" } } },
    ],
  ])("refuses %s", (_, answer) => {
    expect(keyDescriptionSchema.safeParse(answer).success).toBe(false);
  });
});
