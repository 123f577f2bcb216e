/**
 * The request bodies of both searches: strict (an unknown field is refused, so a misspelt filter
 * never widens a search), every rule of the contract, values normalized once here.
 */
import { z } from "zod";
import { instantKey } from "../directory/instant-key.js";
import { normalizePhone } from "../directory/phone.js";
import { EXTERNAL_ID_SYSTEMS } from "../directory/vocabulary.js";

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

const phone = z.string().transform((value, ctx) => {
  const normalized = normalizePhone(value);
  if (normalized.ok) return normalized.digits;
  ctx.addIssue({ code: "custom", message: normalized.reason });
  return z.NEVER;
});

const createdBound = z.iso.datetime({ offset: true });

const filterFields = {
  phone: phone.optional(),
  firstName: z.string().min(1).optional(),
  lastName: z.string().min(1).optional(),
  personId: z
    .guid()
    .transform((id) => id.toLowerCase())
    .optional(),
  externalIdSystems: z.array(z.enum(EXTERNAL_ID_SYSTEMS)).optional(),
  createdFrom: createdBound.optional(),
  createdBefore: createdBound.optional(),
  limit: z.int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  offset: z.int().min(0).default(0),
};

export const personsSearchRequestSchema = z.strictObject({
  companyId: z.string().min(1).optional(),
  ...filterFields,
});

export const employeesSearchRequestSchema = z.strictObject({
  companyId: z.string().min(1),
  ...filterFields,
});

export type PersonsSearchRequest = z.output<typeof personsSearchRequestSchema>;
export type EmployeesSearchRequest = z.output<typeof employeesSearchRequestSchema>;

/** The created bounds as instant keys, comparable with stored keys. */
export function createdRange(request: {
  createdFrom?: string | undefined;
  createdBefore?: string | undefined;
}): {
  from?: string;
  before?: string;
} {
  return {
    ...(request.createdFrom ? { from: instantKey(request.createdFrom) } : {}),
    ...(request.createdBefore ? { before: instantKey(request.createdBefore) } : {}),
  };
}
