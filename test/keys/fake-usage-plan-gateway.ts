/**
 * An in-memory API Gateway for the keys CLI's stage paths: API keys and one usage plan per tier,
 * with API Gateway's rules that matter here (a key in at most one of the plans, which share their
 * API stages; deleting a key takes it out of its plan), and failure injection per method.
 */
import type { GatewayKey, UsagePlanGateway } from "../../lib/keys/usage-plan-gateway.js";
import { THROTTLE_TIER_NAMES } from "../../lib/stages.js";

export type GatewayMethod = Exclude<keyof UsagePlanGateway, "keyName">;

interface StoredKey extends GatewayKey {
  value: string;
}

const apiGatewayError = (name: string, message: string) => Object.assign(new Error(message), { name });

/** Across fakes, like API Gateway's: a revoked record of an earlier test never names a later key. */
let created = 0;

export function fakeUsagePlanGateway(stage = "prod") {
  const keys = new Map<string, StoredKey>();
  const plans = new Map<string, Set<string>>(THROTTLE_TIER_NAMES.map((tier) => [tier, new Set()]));
  /** Methods that fail (with an injected error) until removed from the set. */
  const failing = new Set<GatewayMethod>();

  const guard = (method: GatewayMethod) => {
    if (failing.has(method)) throw new Error(`injected failure of ${method}`);
  };
  const planOf = (tier: string) => {
    const plan = plans.get(tier);
    if (!plan) throw apiGatewayError("NotFoundException", `no usage plan for tier ${tier}`);
    return plan;
  };

  const gateway: UsagePlanGateway = {
    keyName: (keyId) => `${stage}-${keyId}`,
    async createKey({ name, value }) {
      guard("createKey");
      created += 1;
      const id = `apikey${created}`;
      keys.set(id, { id, name, value, enabled: true });
      return id;
    },
    async disableKey(id) {
      guard("disableKey");
      const key = keys.get(id);
      if (key) keys.set(id, { ...key, enabled: false });
    },
    async enableKey(id) {
      guard("enableKey");
      const key = keys.get(id);
      if (!key) throw apiGatewayError("NotFoundException", `no API key ${id}`);
      keys.set(id, { ...key, enabled: true });
    },
    async deleteKey(id) {
      guard("deleteKey");
      keys.delete(id);
      for (const plan of plans.values()) plan.delete(id);
    },
    async listKeys() {
      guard("listKeys");
      return [...keys.values()].map(({ id, name, enabled }) => ({ id, name, enabled }));
    },
    async addToPlan(tier, id) {
      guard("addToPlan");
      const plan = planOf(tier);
      if (!keys.has(id)) throw apiGatewayError("NotFoundException", `no API key ${id}`);
      const other = [...plans].find(([name, members]) => name !== tier && members.has(id));
      if (other)
        throw apiGatewayError("ConflictException", `${id} is in plan ${other[0]} on the same API stage`);
      plan.add(id);
    },
    async removeFromPlan(tier, id) {
      guard("removeFromPlan");
      planOf(tier).delete(id);
    },
    async planKeys(tier) {
      guard("planKeys");
      return [...planOf(tier)];
    },
  };

  return {
    gateway,
    keys,
    failing,
    /** The tiers whose plan holds the API key. */
    plansOf: (id: string) => [...plans].filter(([, members]) => members.has(id)).map(([tier]) => tier),
  };
}
