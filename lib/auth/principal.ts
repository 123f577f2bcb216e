/**
 * The caller as the authorizer described it. API Gateway caches the authorizer's Allow policy per
 * key for every route, so each handler decides operation and company permission itself from this
 * context; a cached policy is never trusted for a per-route decision.
 */
import type { APIGatewayProxyEvent } from "aws-lambda";
import { z } from "zod";
import { ForbiddenError } from "../http/errors.js";
import { OPERATIONS, type Operation } from "../routes.js";

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

const jsonStringArray = z.string().transform((text, ctx) => {
  const parsed = z.array(z.string()).safeParse(JSON.parse(text));
  if (!parsed.success) {
    ctx.addIssue({ code: "custom", message: "not a JSON array of strings" });
    return z.NEVER;
  }
  return parsed.data;
});

const contextSchema = z.object({
  keyId: z.string().min(1),
  partner: z.string(),
  operations: jsonStringArray,
  companies: jsonStringArray,
});

/**
 * Reads the principal from the authorizer context. Without a valid context the gateway is
 * misconfigured: that is a server error, never an anonymous caller.
 */
export function principalFromEvent(event: Pick<APIGatewayProxyEvent, "requestContext">): Principal {
  const parsed = contextSchema.safeParse(event.requestContext?.authorizer ?? undefined);
  if (!parsed.success) throw new Error("request has no valid authorizer context");
  const { keyId, partner, operations, companies } = parsed.data;
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
