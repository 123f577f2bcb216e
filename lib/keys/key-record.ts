/** The stored form of a partner key: its hash and what it may do, never the key itself. */
import { z } from "zod";
import { OPERATIONS } from "../routes.js";

export const throttleSchema = z.strictObject({
  rateLimit: z.number().positive(),
  burstLimit: z.int().positive(),
  dailyQuota: z.int().positive().optional(),
});

export const keyRecordSchema = z.strictObject({
  keyId: z.string().regex(/^key_[0-9A-Za-z]{16}$/),
  keyHash: z.string().regex(/^[0-9a-f]{64}$/),
  partner: z.string().min(1),
  operations: z.array(z.enum(OPERATIONS)),
  companies: z.array(z.string().min(1)),
  throttle: throttleSchema,
  /** Throttle tier name when the throttle comes from a tier (deployed stages use usage plans). */
  tier: z.string().optional(),
  /** The API Gateway usage-key value the authorizer returns as `usageIdentifierKey`: internal, never the partner's key. */
  usageKey: z.string().min(1),
  /** Id of the API Gateway API key holding `usageKey`, on deployed stages (to disable it on revoke). */
  usageKeyId: z.string().min(1).optional(),
  status: z.enum(["active", "revoked"]),
  createdAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().optional(),
});

export type KeyRecord = z.infer<typeof keyRecordSchema>;
