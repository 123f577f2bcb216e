/** The greeting route's use case: a fixed greeting for a company the key may read. */

import * as z from "zod/mini";
import { type Principal, requireCompany } from "../auth/principal.js";
import { isCompanyId } from "../directory/company-id.js";
import { InvalidCompanyIdError } from "../http/errors.js";

export const GREETING_MESSAGE = "Hello from the Partner Directory Search Service";

export const greetingSchema = z
  .strictObject({
    message: z
      .string()
      .register(z.globalRegistry, { description: "A fixed greeting.", example: GREETING_MESSAGE }),
  })
  .register(z.globalRegistry, { id: "Greeting" });

export type Greeting = z.infer<typeof greetingSchema>;

/** A malformed id is refused before the permission check: it names no company at all. */
export function greetCompany(principal: Principal, companyId: string | undefined): Greeting {
  if (companyId === undefined || !isCompanyId(companyId)) throw new InvalidCompanyIdError();
  requireCompany(principal, companyId);
  return { message: GREETING_MESSAGE };
}
