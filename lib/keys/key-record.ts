/** The stored form of a partner key: its hash and what it may do, never the key itself. */
import * as z from "zod/mini";
import { OPERATIONS } from "../auth/operations.js";

/** A key's own throttle (lib/stages.ts `Throttle`); the authorizer context carries it too. */
export const throttleSchema = z.strictObject({
  rateLimit: z.number().check(z.positive()),
  burstLimit: z.int().check(z.positive()),
  dailyQuota: z.optional(z.int().check(z.positive())),
});

/** A key id: `key_` and 16 base62 characters (lib/keys/api-key.ts `generateKeyId`). */
export const KEY_ID_PATTERN = /^key_[0-9A-Za-z]{16}$/;

export const keyRecordSchema = z.strictObject({
  keyId: z.string().check(z.regex(KEY_ID_PATTERN)),
  keyHash: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  partner: z.string().check(z.minLength(1)),
  operations: z.array(z.enum(OPERATIONS)),
  companies: z.array(z.string().check(z.minLength(1))),
  throttle: throttleSchema,
  /** Throttle tier name when the throttle comes from a tier (deployed stages use usage plans). */
  tier: z.optional(z.string()),
  /** The API Gateway usage-key value the authorizer returns as `usageIdentifierKey`: internal, never the partner's key. */
  usageKey: z.string().check(z.minLength(1)),
  /** Id of the API Gateway API key holding `usageKey`, on deployed stages (to disable it on revoke). */
  usageKeyId: z.optional(z.string().check(z.minLength(1))),
  /**
   * `pending` while `keys create` on a deployed stage has stored the record but not yet finished
   * its API Gateway key: the authorizer refuses it, and `keys reconcile --fix` revokes one left
   * behind by a failed create (its key was never shown to anyone).
   */
  status: z.enum(["pending", "active", "revoked"]),
  createdAt: z.iso.datetime(),
  revokedAt: z.optional(z.iso.datetime()),
});

export type KeyRecord = z.infer<typeof keyRecordSchema>;
export type KeyStatus = KeyRecord["status"];
