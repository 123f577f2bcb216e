/**
 * Parses a JSON object body with @middy/http-json-body-parser and turns its failures into
 * `invalid_input`. An absent or empty body counts as `{}`: persons search may omit it, and for
 * employees search the schema then names the missing `companyId`.
 */
import type { MiddlewareObj } from "@middy/core";
import httpJsonBodyParser from "@middy/http-json-body-parser";
import type { APIGatewayProxyEvent } from "aws-lambda";
import { InvalidInputError } from "../errors.js";

type ParserError = Error & { statusCode?: number; cause?: { data?: unknown } };

function parserFailureMessage(error: ParserError): string {
  if (error.statusCode === 415) return "content-type must be application/json";
  if (error.message === "Forbidden key in JSON body") {
    return `request body contains the forbidden key "${String(error.cause?.data)}"`;
  }
  return "request body is not valid JSON";
}

interface JsonBodyOptions {
  /** What an absent or empty body counts as (default: a fresh `{}`). */
  readonly emptyBody?: () => unknown;
}

export function jsonBody({
  emptyBody = () => ({}),
}: JsonBodyOptions = {}): MiddlewareObj<APIGatewayProxyEvent> {
  const parser = httpJsonBodyParser();
  return {
    before: async (request) => {
      const { event } = request;
      if (event.body == null || event.body === "") {
        (event as { body: unknown }).body = emptyBody();
        return;
      }
      try {
        await parser.before?.(request);
      } catch (error) {
        const failure = error as ParserError;
        if (typeof failure.statusCode === "number" && failure.statusCode < 500) {
          throw new InvalidInputError(parserFailureMessage(failure));
        }
        throw error;
      }
      const body: unknown = event.body;
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        throw new InvalidInputError("request body must be a JSON object");
      }
    },
  };
}
