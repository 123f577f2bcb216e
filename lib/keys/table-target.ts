/**
 * Keys kept in a keys table; on a deployed stage each key also gets an API Gateway API key in its
 * tier's usage plan. Every multi-step change is ordered so that a failure at any step leaves a
 * state `keys reconcile --fix` (lib/keys/reconcile.ts) repairs, and no key outside the table's
 * knowledge: the table record is written first.
 */
import { randomBytes } from "node:crypto";
import type { KeysRepository } from "../store/keys-repository.js";
import type { KeyTarget } from "./key-admin.js";
import type { KeyRecord } from "./key-record.js";
import type { UsagePlanGateway } from "./usage-plan-gateway.js";

const REPAIR_HINT = "run `npm run keys -- reconcile --fix --stage <stage>` to repair";

/** Runs one step of a multi-step change; a failure names the step and how to repair. */
async function step<T>(keyId: string, what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new Error(`${keyId}: ${what} failed (${(error as Error).message}); ${REPAIR_HINT}`);
  }
}

/**
 * Create on a stage: 1. the record, `pending` (the authorizer refuses it); 2. the API key, named
 * after the key id; 3. into the tier's plan; 4. the record `active`. A failure leaves a pending
 * record, perhaps with an API key found by its name: reconcile revokes the record and deletes the
 * key (nobody ever saw the partner key: it is printed only after step 4).
 */
async function createOnStage(
  repository: KeysRepository,
  gateway: UsagePlanGateway,
  record: KeyRecord,
): Promise<KeyRecord> {
  const { tier, keyId } = record;
  if (!tier) throw new Error("keys on a deployed stage need a throttle tier (--tier)");
  // Internal and random: the value the authorizer returns as `usageIdentifierKey`.
  const pending: KeyRecord = {
    ...record,
    usageKey: randomBytes(30).toString("base64url"),
    status: "pending",
  };
  await repository.put(pending);
  const usageKeyId = await step(keyId, "creating its API Gateway key", () =>
    gateway.createKey({
      name: gateway.keyName(keyId),
      description: `usage key of partner key ${keyId} (${record.partner})`,
      value: pending.usageKey,
    }),
  );
  await step(keyId, `adding its API Gateway key to the ${tier} plan`, () =>
    gateway.addToPlan(tier, usageKeyId),
  );
  const active = await step(keyId, "activating its record", () =>
    repository.update(keyId, "pending", { status: "active", usageKeyId }).catch(async (error: unknown) => {
      // Revoked while it was created: its API key goes too, or it would stay enabled in a plan.
      if ((await repository.findById(keyId))?.status !== "revoked") throw error;
      await gateway.deleteKey(usageKeyId);
      throw new Error("the key was revoked while it was created; its API Gateway key is deleted");
    }),
  );
  if (!active) throw new Error(`${keyId}: its record disappeared while it was created; ${REPAIR_HINT}`);
  return active;
}

/** The id of the record's API key: as recorded, or (pending record) found by its name. */
async function apiKeyIdOf(gateway: UsagePlanGateway, record: KeyRecord): Promise<string | undefined> {
  if (record.usageKeyId) return record.usageKeyId;
  const name = gateway.keyName(record.keyId);
  return (await gateway.listKeys()).find((key) => key.name === name)?.id;
}

export function tableKeyTarget(repository: KeysRepository, gateway?: UsagePlanGateway): KeyTarget {
  return {
    async create(record) {
      if (gateway) return createOnStage(repository, gateway, record);
      await repository.put(record);
      return record;
    },
    list: () => repository.list(),
    /**
     * 1. the record `revoked`; 2. its API key disabled; 3. deleted (out of every plan, and off the
     * 10,000-per-region quota). Disabling first makes API Gateway refuse the key at once, even
     * while the authorizer's cached Allow policy for it lives. Revoking again repeats 2 and 3.
     */
    async revoke(keyId, at) {
      const revoked = await repository.revoke(keyId, at);
      if (!revoked || !gateway) return revoked;
      const usageKeyId = await step(keyId, "finding its API Gateway key", () => apiKeyIdOf(gateway, revoked));
      if (usageKeyId === undefined) return revoked;
      await step(keyId, "disabling its API Gateway key", () => gateway.disableKey(usageKeyId));
      await step(keyId, "deleting its API Gateway key", () => gateway.deleteKey(usageKeyId));
      return revoked;
    },
    /**
     * 1. the record's tier; 2. the API key out of the old tier's plan; 3. into the new one's. Not the
     * other way round: API Gateway refuses a key in two plans that share an API stage. Between 2 and
     * 3 (one API call) the key is in no plan and API Gateway refuses it.
     */
    async setTier(keyId, tier, throttle) {
      const current = await repository.findById(keyId);
      if (!current) return undefined;
      if (current.status !== "active")
        throw new Error(`key ${keyId} is ${current.status}: only an active key changes tier`);
      if (current.tier === tier) return current;
      const updated = await repository.update(keyId, "active", { tier, throttle });
      const { usageKeyId } = current;
      if (!gateway || !usageKeyId) return updated;
      const from = current.tier;
      if (from)
        await step(keyId, `removing its API Gateway key from the ${from} plan`, () =>
          gateway.removeFromPlan(from, usageKeyId),
        );
      await step(keyId, `adding its API Gateway key to the ${tier} plan`, () =>
        gateway.addToPlan(tier, usageKeyId),
      );
      return updated;
    },
    async setCompanies(keyId, companies) {
      const current = await repository.findById(keyId);
      if (!current) return undefined;
      if (current.status !== "active")
        throw new Error(`key ${keyId} is ${current.status}: only an active key changes companies`);
      return repository.update(keyId, "active", { companies: [...companies] });
    },
  };
}
