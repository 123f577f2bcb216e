/**
 * Keys kept in a local keys file (the file `npm start` reads with KEYS_FILE). A local keys file
 * holds plain keys by its format; it is for laptops and tests only.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hashApiKey } from "../keys/api-key.js";
import type { KeyTarget } from "../keys/key-admin.js";
import { DEFAULT_THROTTLE_TIER, THROTTLE_TIERS } from "../stages.js";
import { keyIdFromHash, parseKeysFile } from "./keys-file.js";

type KeyEntry = Record<string, unknown> & { key: string };

function readEntries(path: string): KeyEntry[] {
  if (!existsSync(path)) return [];
  // Validates the whole file (and names the bad record) before anything is changed.
  parseKeysFile(readFileSync(path, "utf8"), path);
  return (JSON.parse(readFileSync(path, "utf8")) as { keys: KeyEntry[] }).keys;
}

function writeEntries(path: string, keys: KeyEntry[]): void {
  writeFileSync(path, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
}

export function keysFileTarget(path: string): KeyTarget {
  return {
    async create(record, plainKey) {
      const entries = readEntries(path);
      const defaultThrottle = THROTTLE_TIERS[DEFAULT_THROTTLE_TIER];
      const usesDefault =
        record.throttle.rateLimit === defaultThrottle.rateLimit &&
        record.throttle.burstLimit === defaultThrottle.burstLimit &&
        record.throttle.dailyQuota === undefined;
      entries.push({
        key: plainKey,
        partner: record.partner,
        operations: record.operations,
        companies: record.companies,
        ...(usesDefault ? {} : { throttle: record.throttle }),
      });
      writeEntries(path, entries);
      return { ...record, keyId: keyIdFromHash(record.keyHash), usageKey: keyIdFromHash(record.keyHash) };
    },
    async list() {
      return existsSync(path) ? parseKeysFile(readFileSync(path, "utf8"), path).records : [];
    },
    async revoke(keyId, at) {
      const entries = readEntries(path);
      const entry = entries.find((candidate) => keyIdFromHash(hashApiKey(candidate.key)) === keyId);
      if (!entry) return undefined;
      entry.status = "revoked";
      writeEntries(path, entries);
      const record = parseKeysFile(readFileSync(path, "utf8"), path).records.find((r) => r.keyId === keyId);
      return record ? { ...record, revokedAt: at.toISOString() } : undefined;
    },
  };
}
