/**
 * The authorizer's decision for an `Authorization` header value. The format and checksum are
 * checked before any lookup, so a mistyped or made-up key never reaches the keys table.
 */
import { timingSafeEqual } from "node:crypto";
import {
  bearerToken,
  hashApiKey,
  isWellFormedApiKey,
  keyEnvironmentAllowed,
  keyEnvironmentOf,
} from "../keys/api-key.js";
import type { KeyRecord } from "../keys/key-record.js";

export type AuthorizeOutcome =
  | { readonly allowed: true; readonly record: KeyRecord }
  | {
      readonly allowed: false;
      readonly reason: "missing" | "malformed" | "test_key_on_prod" | "unknown" | "revoked";
      readonly keyId?: string;
    };

export interface AuthorizeDependencies {
  findByHash(keyHash: string): Promise<KeyRecord | undefined>;
}

/**
 * The decision for a header on `stage` (the function's STAGE): well-formed, of an environment the
 * stage takes (no test key on prod), known and active.
 */

export async function authorizeHeader(
  header: string | undefined,
  { findByHash }: AuthorizeDependencies,
  stage: string | undefined,
): Promise<AuthorizeOutcome> {
  const token = bearerToken(header);
  if (token === undefined) return { allowed: false, reason: header ? "malformed" : "missing" };
  if (!isWellFormedApiKey(token)) return { allowed: false, reason: "malformed" };
  const environment = keyEnvironmentOf(token);
  if (environment === undefined || !keyEnvironmentAllowed(environment, stage)) {
    return { allowed: false, reason: "test_key_on_prod" };
  }

  const keyHash = hashApiKey(token);
  const record = await findByHash(keyHash);
  // The lookup is by hash; the constant-time comparison keeps the final check free of timing signal.
  if (!record || !timingSafeEqual(Buffer.from(record.keyHash, "hex"), Buffer.from(keyHash, "hex"))) {
    return { allowed: false, reason: "unknown" };
  }
  if (record.status !== "active") return { allowed: false, reason: "revoked", keyId: record.keyId };
  return { allowed: true, record };
}
