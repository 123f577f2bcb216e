/**
 * Reads the caller from the authorizer context and refuses a key without the route's operation
 * (a route without one takes any valid key: the authorizer has already refused the others).
 * The principal it puts on the context is typed: a handler after it (middy's `.use().handler()`)
 * gets `context.principal` as a Principal, with no check of its own.
 */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import type { Operation } from "../../auth/operations.js";
import { type Principal, principalFromEvent, requireOperation } from "../../auth/principal.js";

export interface AuthorizedContext extends Context {
  /** The caller, allowed the route's operation (if it has one). */
  principal: Principal;
}

interface AuthorizeOperationOptions {
  /** The operation the key must be granted; null: none. */
  readonly operation: Operation | null;
}

export function authorizeOperation({
  operation,
}: AuthorizeOperationOptions): MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  AuthorizedContext
> {
  return {
    before: (request) => {
      const principal = principalFromEvent(request.event);
      if (operation !== null) requireOperation(principal, operation);
      request.context.principal = principal;
    },
  };
}
