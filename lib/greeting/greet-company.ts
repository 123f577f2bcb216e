/** The greeting route's use case: a fixed greeting for a company the key may read. */

import * as z from "zod/mini";
import { type Principal, requireCompany } from "../auth/principal.js";
import { isCompanyId } from "../directory/company-id.js";

export const GREETING_MESSAGE = "Hello from the Partner Directory Search Service";

export const greetingSchema = z
  .strictObject({
    message: z
      .string()
      .register(z.globalRegistry, { description: "A fixed greeting.", example: GREETING_MESSAGE }),
  })
  .register(z.globalRegistry, { id: "Greeting" });

export type Greeting = z.infer<typeof greetingSchema>;

/**
 * The greeting's path: one well-formed company id (lib/directory/company-id.ts). The route table
 * binds it to the route, whose pipeline refuses a malformed id before this use case runs.
 */
export const greetingPathSchema = z.object({
  companyId: z.string().check(z.refine(isCompanyId)).register(z.globalRegistry, {
    description: "Company id: 1-128 of letters, digits, `-`, `_`, `.`",
    example: "acme-home-care",
  }),
});

/** `companyId` is well-formed (the route's path schema); whether the key may read it is checked here. */
export function greetCompany(principal: Principal, companyId: string): Greeting {
  requireCompany(principal, companyId);
  return { message: GREETING_MESSAGE };
}
