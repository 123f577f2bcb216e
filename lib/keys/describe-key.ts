/**
 * `GET /v1/key`'s use case: the calling key as the service sees it. A partner cannot otherwise
 * learn which companies its key may read (a company outside them answers 403 whether or not it
 * exists). Built from the authorizer's context alone: the answer is what the authorizer decided for
 * this request, and the function reads no table.
 */
import * as z from "zod/mini";
import { OPERATIONS } from "../auth/operations.js";
import type { Principal } from "../auth/principal.js";
import { component, describe } from "../directory/api-schema.js";
import { isThrottleTier, THROTTLE_TIER_NAMES, THROTTLE_TIERS, type Throttle } from "../stages.js";
import { KEY_ID_PATTERN } from "./key-record.js";

const quotaSchema = z.strictObject({
  limit: describe(z.int().check(z.positive()), "Requests a period"),
  period: describe(z.enum(["day"]), "A UTC day"),
});

const throttleSchema = z.strictObject({
  rate: describe(z.number().check(z.positive()), "Steady requests a second"),
  burst: describe(z.int().check(z.positive()), "Requests at once"),
  quota: describe(z.nullable(quotaSchema), "null: no quota"),
});

export const keyDescriptionSchema = component(
  z.strictObject({
    keyId: describe(z.string().check(z.regex(KEY_ID_PATTERN)), "Safe to log and quote; never the key"),
    partner: describe(z.string(), "Whom the key was issued to"),
    operations: describe(z.array(z.enum(OPERATIONS)), "Operations it may call, sorted"),
    companies: describe(z.array(z.string()), "Companies it may read, sorted; any other: 403"),
    tier: describe(z.nullable(z.enum(THROTTLE_TIER_NAMES)), "null: a throttle of its own"),
    throttle: describe(throttleSchema, "Its tier's, or its own"),
  }),
  "KeyDescription",
  "The calling key: what it may do and how often",
);

export type KeyDescription = z.infer<typeof keyDescriptionSchema>;

function throttleAnswer(throttle: Throttle): KeyDescription["throttle"] {
  return {
    rate: throttle.rateLimit,
    burst: throttle.burstLimit,
    quota: throttle.dailyQuota === undefined ? null : { limit: throttle.dailyQuota, period: "day" },
  };
}

export function describeKey(principal: Principal): KeyDescription {
  // Absent only from an authorizer answer cached from before the context carried it: a fault, not a key.
  if (!principal.throttle) throw new Error("authorizer context has no throttle");
  const { tier, limits } = principal.throttle;
  // A tier's numbers come from the tier definitions that configure the usage plans, not from the
  // copy the record took when the key joined it; a tier no longer defined is not named.
  const known = tier !== undefined && isThrottleTier(tier) ? tier : undefined;
  return {
    keyId: principal.keyId,
    partner: principal.partner,
    operations: [...principal.operations].sort(),
    companies: [...principal.companies].sort(),
    tier: known ?? null,
    throttle: throttleAnswer(known ? THROTTLE_TIERS[known] : limits),
  };
}
