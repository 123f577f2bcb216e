/**
 * The request bodies of both searches: strict (an unknown field is refused, so a misspelt filter
 * never widens a search), every rule of the contract, values normalized once here. Zod Mini keeps
 * the Lambda bundles small; the OpenAPI document is generated from these same schemas.
 */
import * as z from "zod/mini";
import { ceilingKey, MIN_INSTANT_KEY } from "../directory/instant-key.js";
import { normalizeName } from "../directory/name.js";
import { normalizePhone } from "../directory/phone.js";
import { EXTERNAL_ID_SYSTEMS } from "../directory/vocabulary.js";

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/**
 * The longest `companyId`, `firstName` or `lastName`, in UTF-16 code units (a character outside
 * the Basic Multilingual Plane counts 2). Checked first, and aborting, so nothing else reads a
 * longer value: normalization and gram splitting only ever see a bounded text.
 */
export const MAX_TEXT_LENGTH = 256;
/** The longest `phone` as sent (10 or 11 digits with punctuation fit easily). */
export const MAX_PHONE_LENGTH = 64;
/**
 * The longest name filter after NFKC and lower-casing. NFKC can expand a character up to 18-fold
 * (U+FDFA), so MAX_TEXT_LENGTH alone would allow 4,608; this keeps the gram split of a name short.
 */
export const MAX_NORMALIZED_NAME_LENGTH = 1_024;

/** Text must be well-formed UTF-16: a lone surrogate has no UTF-8 form, so it could not be matched. */
const wellFormed = z.refine<string>((value) => value.isWellFormed(), {
  error: "must be well-formed Unicode (it holds a lone surrogate)",
  abort: true,
});

/** Non-empty, well-formed text of at most `max` code units; the length is checked before anything else. */
const boundedText = (max: number) =>
  z.string().check(z.minLength(1), z.maxLength(max, { abort: true }), wellFormed);

const name = boundedText(MAX_TEXT_LENGTH).check(
  z.refine((value) => normalizeName(value).length <= MAX_NORMALIZED_NAME_LENGTH, {
    error: `must be at most ${MAX_NORMALIZED_NAME_LENGTH} characters after Unicode NFKC and lower-casing`,
  }),
);

const phone = z.pipe(
  z.string().check(
    z.maxLength(MAX_PHONE_LENGTH, { abort: true }),
    wellFormed,
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

type ExternalIdSystem = (typeof EXTERNAL_ID_SYSTEMS)[number];

function firstRepeated(systems: readonly ExternalIdSystem[]): ExternalIdSystem | undefined {
  const seen = new Set<ExternalIdSystem>();
  for (const system of systems) {
    if (seen.has(system)) return system;
    seen.add(system);
  }
  return undefined;
}

/**
 * Each system at most once, so the list is never longer than the vocabulary: a repeat selects
 * nothing more, and a 1 MiB list of one system would be read for every external ID returned. Zod
 * runs the refinement only once every item is a known system, so the one it names is one of them.
 */
const externalIdSystems = z.array(z.enum(EXTERNAL_ID_SYSTEMS)).check(
  z.refine((systems) => firstRepeated(systems) === undefined, {
    error: (issue) =>
      `must name each system at most once (${JSON.stringify(firstRepeated(issue.input as ExternalIdSystem[]))} is repeated)`,
  }),
  z.meta({ uniqueItems: true, maxItems: EXTERNAL_ID_SYSTEMS.length }),
);

const filterFields = {
  phone: z.optional(phone),
  firstName: z.optional(name),
  lastName: z.optional(name),
  personId: z.optional(
    z.pipe(
      z.guid(),
      z.transform((id: string) => id.toLowerCase()),
    ),
  ),
  externalIdSystems: z.optional(externalIdSystems),
  createdFrom: z.optional(createdBound),
  createdBefore: z.optional(createdBound),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(MAX_LIMIT)), DEFAULT_LIMIT),
  offset: z._default(z.int().check(z.minimum(0)), 0),
};

export const personsSearchRequestSchema = z.strictObject({
  companyId: z.optional(boundedText(MAX_TEXT_LENGTH)),
  ...filterFields,
});

export const employeesSearchRequestSchema = z.strictObject({
  companyId: boundedText(MAX_TEXT_LENGTH),
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
