/** Keys kept in a keys table; on a deployed stage each key also gets an API Gateway usage key. */
import type { KeysRepository } from "../store/keys-repository.js";
import type { KeyTarget } from "./key-admin.js";
import type { KeyRecord } from "./key-record.js";

/** The usage plans side of a deployed stage (API Gateway API keys, internal values). */
export interface UsageKeyRegistrar {
  /** Creates an enabled usage key in the usage plan of the record's tier. */
  register(record: KeyRecord): Promise<{ usageKeyId: string; usageKey: string }>;
  disable(usageKeyId: string): Promise<void>;
}

export function tableKeyTarget(repository: KeysRepository, registrar?: UsageKeyRegistrar): KeyTarget {
  return {
    async create(record) {
      const stored = registrar ? { ...record, ...(await registrar.register(record)) } : record;
      await repository.put(stored);
      return stored;
    },
    list: () => repository.list(),
    async revoke(keyId, at) {
      const revoked = await repository.revoke(keyId, at);
      // Disabling the usage key makes API Gateway refuse the key at once, even while the
      // authorizer's cached Allow policy for it has not expired.
      if (revoked?.usageKeyId && registrar) await registrar.disable(revoked.usageKeyId);
      return revoked;
    },
  };
}
