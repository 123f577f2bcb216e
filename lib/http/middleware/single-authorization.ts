/**
 * Refuses a request that sent more than one `Authorization` header, whatever their case and order,
 * with 401 `invalid_api_key`: a request has one identity. API Gateway authorizes one of the values
 * and hands the function all of them in `multiValueHeaders`, so this is where the extra ones are
 * seen (the local gateway refuses them before its authorizer runs, too). Before the header
 * normalizer, which would fold differently cased names into one.
 */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent } from "aws-lambda";
import { InvalidApiKeyError } from "../errors.js";

/** How many `Authorization` values the event carries, across every spelling of the name. */
function authorizationCount(event: Pick<APIGatewayProxyEvent, "multiValueHeaders">): number {
  let count = 0;
  for (const [name, values] of Object.entries(event.multiValueHeaders ?? {}))
    if (name.toLowerCase() === "authorization") count += values?.length ?? 0;
  return count;
}

export function singleAuthorization(): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: ({ event }) => {
      if (authorizationCount(event) > 1) throw new InvalidApiKeyError();
    },
  };
}
