/**
 * Issuing and revoking partner keys, wherever they live: a local keys file, a keys table on a local
 * engine, or a deployed stage (keys table plus an API Gateway usage key in the tier's usage plan);
 * moving a key to another tier.
 */

import type { Operation } from "../auth/operations.js";
import type { Throttle } from "../stages.js";
import { generateApiKey, generateKeyId, hashApiKey, type KeyEnvironment } from "./api-key.js";
import type { KeyRecord } from "./key-record.js";
import { requirePartnerName } from "./partner-name.js";

export interface NewKeyRequest {
  partner: string;
  operations: Operation[];
  companies: string[];
  throttle: Throttle;
  tier?: string;
  environment: KeyEnvironment;
}

/** A key as listed: a keys file may not know when a hand-written key was created. */
export type ListedKey = Omit<KeyRecord, "createdAt"> & { createdAt?: string };

/**
 * Where keys are kept. `create` receives the plain key only to hand it to a local keys file, and
 * returns the record as stored (a target may assign its own key id or usage key).
 */
export interface KeyTarget {
  create(record: KeyRecord, plainKey: string): Promise<KeyRecord>;
  list(): Promise<ListedKey[]>;
  revoke(keyId: string, at: Date): Promise<ListedKey | undefined>;
  /**
   * Moves an active key to another throttle tier (refused for a pending or revoked key); returns
   * the key as updated, or undefined when no key has that id.
   */
  setTier(keyId: string, tier: string, throttle: Throttle): Promise<ListedKey | undefined>;
  /**
   * Sets the companies an active key may read (refused for a pending or revoked key); returns the
   * key as updated, or undefined when no key has that id.
   */
  setCompanies(keyId: string, companies: readonly string[]): Promise<ListedKey | undefined>;
}

export interface IssuedKey {
  /** Shown once to the operator; stored nowhere but where the partner keeps it. */
  plainKey: string;
  record: KeyRecord;
}

/** A new key for the request, kept in `target`; a bad partner name is refused first (PartnerNameError). */
export async function issueKey(
  request: NewKeyRequest,
  target: KeyTarget,
  now: Date = new Date(),
): Promise<IssuedKey> {
  requirePartnerName(request.partner);
  const plainKey = generateApiKey(request.environment);
  const keyHash = hashApiKey(plainKey);
  const keyId = generateKeyId();
  const record: KeyRecord = {
    keyId,
    keyHash,
    partner: request.partner,
    operations: request.operations,
    companies: request.companies,
    throttle: request.throttle,
    ...(request.tier ? { tier: request.tier } : {}),
    usageKey: keyId,
    status: "active",
    createdAt: now.toISOString(),
  };
  return { plainKey, record: await target.create(record, plainKey) };
}

/** The fields of a key record an operator may see: everything but the hash. */
export function describeKey(record: ListedKey): Record<string, unknown> {
  const { keyHash: _hash, usageKey: _usageKey, ...visible } = record;
  return visible;
}
