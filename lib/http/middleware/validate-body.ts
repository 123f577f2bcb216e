/** Validates the parsed body with a strict Zod schema and replaces it with the parsed value. */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent } from "aws-lambda";
import { safeParse } from "zod/mini";
import type * as core from "zod/v4/core";
import { InvalidInputError } from "../errors.js";
import { describeZodError } from "../validation-message.js";

interface ValidateBodyOptions {
  /** The route's body schema (lib/routes.ts); a refused body is `invalid_input` naming the field. */
  readonly schema: core.$ZodType;
}

export function validateBody({ schema }: ValidateBodyOptions): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: ({ event }) => {
      const result = safeParse(schema, event.body, { reportInput: true });
      if (!result.success) throw new InvalidInputError(describeZodError(result.error));
      (event as { body: unknown }).body = result.data;
    },
  };
}
