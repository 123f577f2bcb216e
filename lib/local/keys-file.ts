/**
 * Reads a local keys file (`{ "keys": [...] }`, see docs) into key records. Plain keys are hashed
 * here and dropped; a bad record is refused with its index and field, never with the key text.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { OPERATIONS } from "../auth/operations.js";
import { describeZodError } from "../http/validation-message.js";
import { BASE62_ALPHABET, hashApiKey, isWellFormedApiKey } from "../keys/api-key.js";
import type { KeyRecord } from "../keys/key-record.js";
import { DEFAULT_THROTTLE_TIER, THROTTLE_TIER_NAMES, THROTTLE_TIERS } from "../stages.js";

const keyEntrySchema = z.strictObject({
  key: z.string().refine(isWellFormedApiKey, {
    message: "not a well-formed partner key (pd_live_… or pd_test_… with a valid checksum)",
  }),
  partner: z.string().min(1),
  operations: z.array(z.enum(OPERATIONS)),
  companies: z.array(z.string().min(1)),
  throttle: z
    .strictObject({
      rateLimit: z.number().positive(),
      burstLimit: z.int().positive(),
      dailyQuota: z.int().positive().optional(),
    })
    .optional(),
  /** A throttle tier instead of `throttle` (default: DEFAULT_THROTTLE_TIER when neither is given). */
  tier: z.enum(THROTTLE_TIER_NAMES).optional(),
  /** Optional, to try a revoked key locally. */
  status: z.enum(["active", "revoked"]).optional(),
  /** When the key was issued; `npm run keys` writes it. */
  createdAt: z.iso.datetime().optional(),
});

const keysFileSchema = z.strictObject({
  keys: z.array(
    keyEntrySchema.refine((entry) => entry.tier === undefined || entry.throttle === undefined, {
      message: "give tier or throttle, not both",
      path: ["tier"],
    }),
  ),
});

export class KeysFileError extends Error {}

/** A stable id for a key loaded from a file, derived one-way from its hash so logs stay comparable. */
export function keyIdFromHash(keyHash: string): string {
  const digest = createHash("sha256").update(`key-id:${keyHash}`).digest();
  const chars = [...digest.subarray(0, 16)].map((byte) => BASE62_ALPHABET.charAt(byte % 62));
  return `key_${chars.join("")}`;
}

export interface LoadedKeys {
  records: KeyRecord[];
  /** key id → partner and plain key, only for the demo banner of a local run. */
  plainKeys: Map<string, string>;
}

/** `loadedAt` stands for the creation time of entries that state none (hand-written ones). */
export function parseKeysFile(text: string, source: string, loadedAt = new Date()): LoadedKeys {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new KeysFileError(`keys file ${source}: not valid JSON`);
  }
  // Issues name the path (keys[2].key) and the rule, never the value: a key must not be printed.
  const parsed = keysFileSchema.safeParse(json, { reportInput: true });
  if (!parsed.success) throw new KeysFileError(`keys file ${source}: ${describeZodError(parsed.error)}`);

  const records: KeyRecord[] = [];
  const plainKeys = new Map<string, string>();
  const seen = new Set<string>();
  parsed.data.keys.forEach((entry, index) => {
    const keyHash = hashApiKey(entry.key);
    if (seen.has(keyHash))
      throw new KeysFileError(`keys file ${source}: keys[${index}].key: the same key appears twice`);
    seen.add(keyHash);
    const keyId = keyIdFromHash(keyHash);
    records.push({
      keyId,
      keyHash,
      partner: entry.partner,
      operations: entry.operations,
      companies: entry.companies,
      ...(entry.throttle
        ? { throttle: entry.throttle }
        : {
            throttle: THROTTLE_TIERS[entry.tier ?? DEFAULT_THROTTLE_TIER],
            tier: entry.tier ?? DEFAULT_THROTTLE_TIER,
          }),
      usageKey: keyId,
      status: entry.status ?? "active",
      createdAt: entry.createdAt ?? loadedAt.toISOString(),
    });
    plainKeys.set(keyId, entry.key);
  });
  return { records, plainKeys };
}
