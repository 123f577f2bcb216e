/**
 * API Gateway's authorizer cache, as the local gateway keeps it: the TOKEN authorizer's answer per
 * API and `Authorization` value, for a TTL (infra: `authorizerCacheTtlSeconds`). A burst on one
 * key therefore invokes the authorizer once, not once a request, as on AWS; concurrent requests
 * with one token share the invocation under way (lru-cache's `fetch`). Only answers are kept: a
 * refusal (`Unauthorized`) or a failure is asked again by the next request.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from "aws-lambda";
import { LRUCache } from "lru-cache";

type Authorizer = (event: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export interface AuthorizerCacheOptions {
  /** 0 leaves every request to the authorizer. */
  readonly ttlMs: number;
  /** How many tokens are kept; the least recently used goes first. */
  readonly maxEntries?: number;
  /** Milliseconds, monotonic. */
  readonly clock?: () => number;
}

/** `authorizer`, answering from the cache by `(api, token)` while the answer is fresh. */
export function cachedAuthorizer(
  authorizer: Authorizer,
  { ttlMs, maxEntries = 10_000, clock = () => performance.now() }: AuthorizerCacheOptions,
): (api: string, event: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult> {
  if (ttlMs <= 0) return (_, event) => authorizer(event);
  const cache = new LRUCache<string, APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent>({
    max: maxEntries,
    ttl: ttlMs,
    ttlResolution: 0,
    perf: { now: clock },
    fetchMethod: (_key, _stale, { context }) => authorizer(context),
  });
  return async (api, event) => {
    const answer = await cache.fetch(`${api}\n${event.authorizationToken}`, { context: event });
    if (answer === undefined) throw new Error("the authorizer gave no answer");
    return answer;
  };
}
