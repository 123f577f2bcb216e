/** The local gateway's authorizer cache, as API Gateway keeps one: per API and token, for a TTL. */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from "aws-lambda";
import { cachedAuthorizer } from "../../lib/local/authorizer-cache.js";

const event = (token: string): APIGatewayTokenAuthorizerEvent => ({
  type: "TOKEN",
  authorizationToken: token,
  methodArn: "arn:aws:execute-api:local:0:api/test/GET/x",
});

function counting(answer: (token: string) => Promise<APIGatewayAuthorizerResult>) {
  const calls: string[] = [];
  const authorizer = (e: APIGatewayTokenAuthorizerEvent) => {
    calls.push(e.authorizationToken);
    return answer(e.authorizationToken);
  };
  return { calls, authorizer };
}

const allow = async (token: string) =>
  ({
    principalId: token,
    policyDocument: { Version: "2012-10-17", Statement: [] },
  }) as APIGatewayAuthorizerResult;

describe("cachedAuthorizer", () => {
  it("asks once for a burst of one token, and keeps the answer for the TTL", async () => {
    // lru-cache counts age from a start above 0, as performance.now() always is.
    let now = 5_000;
    const { calls, authorizer } = counting(allow);
    const cached = cachedAuthorizer(authorizer, { ttlMs: 1_000, clock: () => now });
    const answers = await Promise.all(Array.from({ length: 500 }, () => cached("search", event("a"))));
    expect(calls).toEqual(["a"]);
    expect(new Set(answers.map((answer) => answer.principalId))).toEqual(new Set(["a"]));
    now = 6_000;
    await cached("search", event("a"));
    expect(calls).toHaveLength(1);
    now = 6_001;
    await cached("search", event("a"));
    expect(calls).toHaveLength(2);
  });

  it("keeps tokens and APIs apart", async () => {
    const { calls, authorizer } = counting(allow);
    const cached = cachedAuthorizer(authorizer, { ttlMs: 1_000, clock: () => 5_000 });
    await Promise.all([
      cached("search", event("a")),
      cached("search", event("b")),
      cached("greeting", event("a")),
    ]);
    expect(calls.sort()).toEqual(["a", "a", "b"]);
  });

  it("shares a refusal with the requests waiting on it, then asks again", async () => {
    const { calls, authorizer } = counting(async () => {
      throw new Error("Unauthorized");
    });
    const cached = cachedAuthorizer(authorizer, { ttlMs: 1_000, clock: () => 5_000 });
    const outcomes = await Promise.allSettled([cached("s", event("x")), cached("s", event("x"))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    expect(calls).toHaveLength(1);
    await expect(cached("s", event("x"))).rejects.toThrow("Unauthorized");
    expect(calls).toHaveLength(2);
  });

  it("asks every time with a TTL of 0, and keeps at most maxEntries tokens", async () => {
    const none = counting(allow);
    const uncached = cachedAuthorizer(none.authorizer, { ttlMs: 0 });
    await uncached("s", event("a"));
    await uncached("s", event("a"));
    expect(none.calls).toHaveLength(2);
    const some = counting(allow);
    const bounded = cachedAuthorizer(some.authorizer, { ttlMs: 1_000, maxEntries: 2, clock: () => 5_000 });
    for (const token of ["a", "b", "c", "a"]) await bounded("s", event(token));
    expect(some.calls).toEqual(["a", "b", "c", "a"]);
  });
});
