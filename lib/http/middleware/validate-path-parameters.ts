/**
 * Validates API Gateway's `pathParameters` (`{}` when it sends none) with the route's schema and
 * replaces them with the parsed value; refused parameters get the route's own answer (the greeting
 * answers `invalid_company_id`).
 */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent } from "aws-lambda";
import { safeParse } from "zod/mini";
import type * as core from "zod/v4/core";
import type { PathParametersContract } from "../../routes.js";

/** The parameters as the handler gets them; throws the contract's refusal. */
export function parsePathParameters<Contract extends PathParametersContract>(
  contract: Contract,
  pathParameters: APIGatewayProxyEvent["pathParameters"],
): core.output<Contract["schema"]> {
  const result = safeParse(contract.schema, pathParameters ?? {});
  if (!result.success) throw contract.refusal();
  return result.data as core.output<Contract["schema"]>;
}

export function validatePathParameters(
  contract: PathParametersContract,
): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: ({ event }) => {
      event.pathParameters = parsePathParameters(contract, event.pathParameters) as Record<string, string>;
    },
  };
}
