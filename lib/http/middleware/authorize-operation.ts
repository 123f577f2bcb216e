/** Reads the caller from the authorizer context and refuses a key without the route's operation. */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { principalFromEvent, requireOperation } from "../../auth/principal.js";
import type { Operation } from "../../auth/operations.js";
import type { HttpContext } from "../context.js";

export function authorizeOperation(
  operation: Operation,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> {
  return {
    before: (request) => {
      const principal = principalFromEvent(request.event);
      requireOperation(principal, operation);
      request.context.principal = principal;
    },
  };
}
