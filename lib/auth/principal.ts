/**
 * The caller as the authorizer described it. API Gateway caches the authorizer's Allow policy per
 * key for every route, so each handler decides operation and company permission itself from this
 * context; a cached policy is never trusted for a per-route decision.
 */
import type { APIGatewayProxyEvent } from "aws-lambda";
import * as z from "zod/mini";
import { ForbiddenError } from "../http/errors.js";
import { OPERATIONS, type Operation } from "./operations.js";

export interface Principal {
  readonly keyId: string;
  readonly partner: string;
  readonly operations: ReadonlySet<Operation>;
  readonly companies: ReadonlySet<string>;
}

/** Authorizer context values must be strings, numbers or booleans: lists travel as JSON. */
export interface AuthorizerContext {
  [name: string]: string;
  keyId: string;
  partner: string;
  operations: string;
  companies: string;
}

export function toAuthorizerContext(principal: {
  keyId: string;
  partner: string;
  operations: readonly Operation[];
  companies: readonly string[];
}): AuthorizerContext {
  return {
    keyId: principal.keyId,
    partner: principal.partner,
    operations: JSON.stringify(principal.operations),
    companies: JSON.stringify(principal.companies),
  };
}

const contextSchema = z.object({
  keyId: z.string().check(z.minLength(1)),
  partner: z.string(),
  operations: z.string(),
  companies: z.string(),
});
const stringArray = z.array(z.string());

/** Lists travel as JSON text in the context; anything else means a misconfigured gateway. */
function jsonStringList(text: string): string[] {
  const parsed = stringArray.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error("authorizer context list is not a JSON array of strings");
  return parsed.data;
}

/**
 * Reads the principal from the authorizer context. Without a valid context the gateway is
 * misconfigured: that is a server error, never an anonymous caller.
 */
export function principalFromEvent(event: Pick<APIGatewayProxyEvent, "requestContext">): Principal {
  const parsed = contextSchema.safeParse(event.requestContext?.authorizer ?? undefined);
  if (!parsed.success) throw new Error("request has no valid authorizer context");
  const { keyId, partner } = parsed.data;
  const operations = jsonStringList(parsed.data.operations);
  const companies = jsonStringList(parsed.data.companies);
  const known = new Set<string>(OPERATIONS);
  return {
    keyId,
    partner,
    operations: new Set(operations.filter((op): op is Operation => known.has(op))),
    companies: new Set(companies),
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
