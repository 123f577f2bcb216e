/** Validates the parsed body with a strict Zod schema and replaces it with the parsed value. */
import type { MiddlewareObj } from "@middy/core";
import type { APIGatewayProxyEvent } from "aws-lambda";
import type { z } from "zod";
import { InvalidInputError } from "../errors.js";
import { describeZodError } from "../validation-message.js";

export function validateBody(schema: z.ZodType): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: ({ event }) => {
      const result = schema.safeParse(event.body, { reportInput: true });
      if (!result.success) throw new InvalidInputError(describeZodError(result.error));
      (event as { body: unknown }).body = result.data;
    },
  };
}
