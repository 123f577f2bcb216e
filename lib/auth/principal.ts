/**
 * The caller as the authorizer described it. API Gateway caches the authorizer's Allow policy per
 * key for every route, so each handler decides operation and company permission itself from this
 * context; a cached policy is never trusted for a per-route decision.
 */
import type { APIGatewayProxyEvent } from "aws-lambda";
import * as z from "zod/mini";
import { ForbiddenError } from "../http/errors.js";
import { throttleSchema } from "../keys/key-record.js";
import type { Throttle } from "../stages.js";
import { OPERATIONS, type Operation } from "./operations.js";

export interface Principal {
  readonly keyId: string;
  readonly partner: string;
  readonly operations: ReadonlySet<Operation>;
  readonly companies: ReadonlySet<string>;
  /**
   * The key's throttle as its record holds it. Absent only from an authorizer answer that API
   * Gateway cached before the context carried it (for its TTL after a deploy): routes that do not
   * need it must not fail for it.
   */
  readonly throttle?: KeyThrottle;
}

interface KeyThrottle {
  /** The key's throttle tier; undefined for a key with a throttle of its own (local keys files). */
  readonly tier: string | undefined;
  /** The record's throttle: its tier's, copied when the key joined it, or its own. */
  readonly limits: Throttle;
}

/**
 * Authorizer context values must be strings, numbers or booleans: lists and the throttle travel as
 * JSON, a key without a tier as `tier: ""`. Never the key's hash or usage key.
 */
export interface AuthorizerContext {
  [name: string]: string;
  keyId: string;
  /** As logs show it (callerText): API Gateway's access log quotes it as it is. */
  partner: string;
  operations: string;
  companies: string;
  tier: string;
  throttle: string;
}

/** From the key record the authorizer accepted (only these fields of it). */
export function toAuthorizerContext(record: {
  keyId: string;
  partner: string;
  operations: readonly Operation[];
  companies: readonly string[];
  tier?: string | undefined;
  throttle: Throttle;
}): AuthorizerContext {
  return {
    keyId: record.keyId,
    partner: record.partner,
    operations: JSON.stringify(record.operations),
    companies: JSON.stringify(record.companies),
    tier: record.tier ?? "",
    throttle: JSON.stringify(record.throttle),
  };
}

const contextSchema = z.object({
  keyId: z.string().check(z.minLength(1)),
  partner: z.string(),
  operations: z.string(),
  companies: z.string(),
  tier: z.optional(z.string()),
  throttle: z.optional(z.string()),
});
const stringArray = z.array(z.string());

/** Lists travel as JSON text in the context; anything else means a misconfigured gateway. */
function jsonStringList(text: string): string[] {
  const parsed = stringArray.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error("authorizer context list is not a JSON array of strings");
  return parsed.data;
}

/** A key without a tier travels as `tier: ""`. */
function keyThrottle(tier: string | undefined, throttle: string): KeyThrottle {
  const parsed = throttleSchema.safeParse(JSON.parse(throttle));
  if (!parsed.success) throw new Error("authorizer context throttle is not a key's throttle");
  return { tier: tier || undefined, limits: parsed.data };
}

/**
 * Reads the principal from the authorizer context. Without a valid context the gateway is
 * misconfigured: that is a server error, never an anonymous caller.
 */
export function principalFromEvent(event: Pick<APIGatewayProxyEvent, "requestContext">): Principal {
  const parsed = contextSchema.safeParse(event.requestContext?.authorizer ?? undefined);
  if (!parsed.success) throw new Error("request has no valid authorizer context");
  const { keyId, partner, tier, throttle } = parsed.data;
  const operations = jsonStringList(parsed.data.operations);
  const companies = jsonStringList(parsed.data.companies);
  const known = new Set<string>(OPERATIONS);
  return {
    keyId,
    partner,
    operations: new Set(operations.filter((op): op is Operation => known.has(op))),
    companies: new Set(companies),
    ...(throttle === undefined ? {} : { throttle: keyThrottle(tier, throttle) }),
  };
}

export function requireOperation(principal: Principal, operation: Operation): void {
  if (!principal.operations.has(operation)) {
    throw new ForbiddenError(`key ${principal.keyId} may not call ${operation}`);
  }
}

export function requireCompany(principal: Principal, companyId: string): void {
  if (!principal.companies.has(companyId)) {
    throw new ForbiddenError(`key ${principal.keyId} may not read company ${companyId}`);
  }
}
