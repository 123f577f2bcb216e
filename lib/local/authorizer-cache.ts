/**
 * API Gateway's authorizer cache, as the local gateway keeps it: the TOKEN authorizer's answer per
 * API and `Authorization` value, for a TTL (infra: `authorizerCacheTtlSeconds`). A burst on one
 * key therefore invokes the authorizer once, not once a request, as on AWS; concurrent requests
 * with one token share the invocation under way. Only answers are kept: a refusal (`Unauthorized`)
 * or a failure is asked again by the next request.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from "aws-lambda";

type Authorizer = (event: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

interface CachedAnswer {
  readonly answer: Promise<APIGatewayAuthorizerResult>;
  /** Monotonic milliseconds after which it is asked again; Infinity while the invocation runs. */
  expiresAt: number;
}

export interface AuthorizerCacheOptions {
  /** 0 leaves every request to the authorizer. */
  readonly ttlMs: number;
  /** How many tokens are kept; the oldest goes first. */
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
  const entries = new Map<string, CachedAnswer>();
  return (api, event) => {
    const key = `${api}\n${event.authorizationToken}`;
    const cached = entries.get(key);
    if (cached && clock() < cached.expiresAt) return cached.answer;
    if (cached) entries.delete(key);
    const entry: CachedAnswer = { answer: authorizer(event), expiresAt: Number.POSITIVE_INFINITY };
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    entry.answer.then(
      () => {
        entry.expiresAt = clock() + ttlMs;
      },
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return entry.answer;
  };
}
