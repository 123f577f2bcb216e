/**
 * The request bodies of both searches: strict (an unknown field is refused, so a misspelt filter
 * never widens a search), every rule of the contract, values normalized once here. Zod Mini keeps
 * the Lambda bundles small; the OpenAPI document is generated from these same schemas.
 */
import * as z from "zod/mini";
import { ceilingKey, MIN_INSTANT_KEY } from "../directory/instant-key.js";
import { normalizePhone } from "../directory/phone.js";
import { EXTERNAL_ID_SYSTEMS } from "../directory/vocabulary.js";

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

const phone = z.pipe(
  z.string().check(
    z.refine((value) => normalizePhone(value).ok, {
      error: (issue) => {
        const normalized = typeof issue.input === "string" ? normalizePhone(issue.input) : undefined;
        return normalized && !normalized.ok ? normalized.reason : "must be a phone number";
      },
    }),
  ),
  z.transform((value: string) => {
    const normalized = normalizePhone(value);
    return normalized.ok ? normalized.digits : value;
  }),
);

const createdBound = z.iso.datetime({ offset: true });

const filterFields = {
  phone: z.optional(phone),
  firstName: z.optional(z.string().check(z.minLength(1))),
  lastName: z.optional(z.string().check(z.minLength(1))),
  personId: z.optional(
    z.pipe(
      z.guid(),
      z.transform((id: string) => id.toLowerCase()),
    ),
  ),
  externalIdSystems: z.optional(z.array(z.enum(EXTERNAL_ID_SYSTEMS))),
  createdFrom: z.optional(createdBound),
  createdBefore: z.optional(createdBound),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(MAX_LIMIT)), DEFAULT_LIMIT),
  offset: z._default(z.int().check(z.minimum(0)), 0),
};

export const personsSearchRequestSchema = z.strictObject({
  companyId: z.optional(z.string().check(z.minLength(1))),
  ...filterFields,
});

export const employeesSearchRequestSchema = z.strictObject({
  companyId: z.string().check(z.minLength(1)),
  ...filterFields,
});

export type PersonsSearchRequest = z.output<typeof personsSearchRequestSchema>;
export type EmployeesSearchRequest = z.output<typeof employeesSearchRequestSchema>;

/**
 * The created bounds as instant keys, comparable with stored keys: `from` inclusive, `before`
 * exclusive, each its bound rounded up to the nanosecond (`ceilingKey`, which keeps the meaning of
 * both). A bound past year 9999 (UTC) leaves no `createdFrom` match and no `createdBefore` limit.
 */
export function createdRange(request: {
  createdFrom?: string | undefined;
  createdBefore?: string | undefined;
}): {
  from?: string;
  before?: string;
} {
  const from = request.createdFrom === undefined ? undefined : ceilingKey(request.createdFrom);
  // [MIN, MIN) holds no instant, as nothing is created at or after a `createdFrom` past every key.
  if (request.createdFrom !== undefined && from === undefined)
    return { from: MIN_INSTANT_KEY, before: MIN_INSTANT_KEY };
  const before = request.createdBefore === undefined ? undefined : ceilingKey(request.createdBefore);
  return { ...(from === undefined ? {} : { from }), ...(before === undefined ? {} : { before }) };
}
