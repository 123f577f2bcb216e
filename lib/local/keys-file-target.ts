/**
 * Keys kept in a local keys file (the file `npm start` reads with KEYS_FILE). A local keys file
 * holds plain keys by its format; it is for laptops and tests only.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hashApiKey } from "../keys/api-key.js";
import type { KeyTarget, ListedKey } from "../keys/key-admin.js";
import { keyIdFromHash, parseKeysFile } from "./keys-file.js";

type KeyEntry = Record<string, unknown> & { key: string };

/** A missing file is an error except to `create`, which makes it. */
function requireFile(path: string): void {
  if (!existsSync(path)) throw new Error(`no keys file ${path} (keys create makes one)`);
}

function readEntries(path: string, missing: "new file" | "error" = "error"): KeyEntry[] {
  if (missing === "new file" && !existsSync(path)) return [];
  requireFile(path);
  // Validates the whole file (and names the bad record) before anything is changed.
  parseKeysFile(readFileSync(path, "utf8"), path);
  return (JSON.parse(readFileSync(path, "utf8")) as { keys: KeyEntry[] }).keys;
}

function writeEntries(path: string, keys: KeyEntry[]): void {
  writeFileSync(path, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
}

/** The file's keys as listed: an entry that states no creation time (hand-written) lists none. */
function listEntries(path: string): ListedKey[] {
  requireFile(path);
  const text = readFileSync(path, "utf8");
  const { records } = parseKeysFile(text, path);
  const entries = (JSON.parse(text) as { keys: KeyEntry[] }).keys;
  return records.map((record, index) => {
    if (entries[index]?.createdAt !== undefined) return record;
    const { createdAt: _loadTime, ...undated } = record;
    return undated;
  });
}

/** Changes a key that is not revoked (`what`: what changes, for the refusal); the key as listed after. */
async function changeActive(
  path: string,
  keyId: string,
  what: string,
  change: (entry: KeyEntry) => void,
): Promise<ListedKey | undefined> {
  const entries = readEntries(path);
  const entry = entries.find((candidate) => keyIdFromHash(hashApiKey(candidate.key)) === keyId);
  if (!entry) return undefined;
  if (entry.status === "revoked")
    throw new Error(`key ${keyId} is revoked: only an active key changes ${what}`);
  change(entry);
  writeEntries(path, entries);
  return listEntries(path).find((r) => r.keyId === keyId);
}

export function keysFileTarget(path: string): KeyTarget {
  return {
    async create(record, plainKey) {
      const entries = readEntries(path, "new file");
      entries.push({
        key: plainKey,
        partner: record.partner,
        operations: record.operations,
        companies: record.companies,
        ...(record.tier ? { tier: record.tier } : { throttle: record.throttle }),
        createdAt: record.createdAt,
      });
      writeEntries(path, entries);
      return { ...record, keyId: keyIdFromHash(record.keyHash), usageKey: keyIdFromHash(record.keyHash) };
    },
    list: async () => listEntries(path),
    async revoke(keyId, at) {
      const entries = readEntries(path);
      const entry = entries.find((candidate) => keyIdFromHash(hashApiKey(candidate.key)) === keyId);
      if (!entry) return undefined;
      entry.status = "revoked";
      writeEntries(path, entries);
      const record = listEntries(path).find((r) => r.keyId === keyId);
      return record ? { ...record, revokedAt: at.toISOString() } : undefined;
    },
    setTier: (keyId, tier) =>
      changeActive(path, keyId, "tier", (entry) => {
        entry.tier = tier;
        delete entry.throttle;
      }),
    setCompanies: (keyId, companies) =>
      changeActive(path, keyId, "companies", (entry) => {
        entry.companies = [...companies];
      }),
  };
}
