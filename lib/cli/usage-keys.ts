/**
 * The usage plans of a deployed stage in API Gateway (the UsagePlanGateway port). Each partner key
 * gets its own API key, named `<stage>-<keyId>`, whose value is random and internal (the authorizer
 * returns it as `usageIdentifierKey`); it is never the partner's key. A tier's plan id is read from
 * the stage's SSM parameter.
 */
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetApiKeysCommand,
  GetUsagePlanKeysCommand,
  UpdateApiKeyCommand,
} from "@aws-sdk/client-api-gateway";
import type { GatewayKey, UsagePlanGateway } from "../keys/usage-plan-gateway.js";
import { type DeployedStage, stageParameterNames } from "../stages.js";
import { readStageParameter } from "./stage-resources.js";

/** What the adapter needs of the SDK client (an APIGatewayClient; a fake in tests). */
export interface ApiGatewaySender {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's commands share no narrower public type.
  send(command: any): Promise<any>;
}

const named = (error: unknown, name: string) => (error as Error).name === name;

/** Runs a call whose "already done" answer is the error `doneWhen`. */
async function idempotent(call: () => Promise<unknown>, doneWhen: string): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (!named(error, doneWhen)) throw error;
  }
}

/** Every page of a GetApiKeys or GetUsagePlanKeys listing. */
async function allItems<T>(page: (position?: string) => Promise<{ items?: T[]; position?: string }>) {
  const items: T[] = [];
  let position: string | undefined;
  do {
    const answer = await page(position);
    items.push(...(answer.items ?? []));
    position = answer.position;
  } while (position);
  return items;
}

// One adapter object of a few lines per port method: longer than 60 lines in all, but each method
// reads alone, and splitting it would scatter the port's implementation.
export function apiGatewayUsageKeys(
  stage: DeployedStage,
  client: ApiGatewaySender = new APIGatewayClient({}),
  planIdOf: (tier: string) => Promise<string> = (tier) =>
    readStageParameter(stageParameterNames.usagePlan(stage, tier)),
): UsagePlanGateway {
  const planIds = new Map<string, Promise<string>>();
  const planId = (tier: string) => {
    if (!planIds.has(tier)) planIds.set(tier, planIdOf(tier));
    return planIds.get(tier) as Promise<string>;
  };
  const planKeys = async (tier: string) => {
    const usagePlanId = await planId(tier);
    const keys = await allItems<{ id?: string }>((position) =>
      client.send(new GetUsagePlanKeysCommand({ usagePlanId, position, limit: 500 })),
    );
    return keys.flatMap((key) => (key.id ? [key.id] : []));
  };
  const setEnabled = (id: string, enabled: boolean) =>
    client.send(
      new UpdateApiKeyCommand({
        apiKey: id,
        patchOperations: [{ op: "replace", path: "/enabled", value: String(enabled) }],
      }),
    );
  const prefix = `${stage}-`;
  return {
    keyName: (keyId) => `${prefix}${keyId}`,
    async createKey({ name, description, value }) {
      const created = await client.send(new CreateApiKeyCommand({ name, description, enabled: true, value }));
      if (!created.id) throw new Error("API Gateway returned no id for the new API key");
      return created.id;
    },
    // A key that is gone is disabled enough.
    disableKey: (id) => idempotent(() => setEnabled(id, false), "NotFoundException"),
    enableKey: (id) => setEnabled(id, true),
    deleteKey: (id) =>
      idempotent(() => client.send(new DeleteApiKeyCommand({ apiKey: id })), "NotFoundException"),
    async listKeys() {
      const keys = await allItems<{ id?: string; name?: string; enabled?: boolean }>((position) =>
        client.send(new GetApiKeysCommand({ nameQuery: prefix, position, limit: 500 })),
      );
      // nameQuery matches a prefix; check it again, so another stage's keys never count as ours.
      return keys.flatMap((key): GatewayKey[] =>
        key.id && key.name?.startsWith(prefix)
          ? [{ id: key.id, name: key.name, enabled: key.enabled ?? false }]
          : [],
      );
    },
    async addToPlan(tier, id) {
      const usagePlanId = await planId(tier);
      try {
        await client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: id, keyType: "API_KEY" }));
      } catch (error) {
        // Conflict is also the answer for a key in another plan on the same API stage: done only if
        // the key is in this plan.
        if (!named(error, "ConflictException") || !(await planKeys(tier)).includes(id)) throw error;
      }
    },
    async removeFromPlan(tier, id) {
      const usagePlanId = await planId(tier);
      await idempotent(
        () => client.send(new DeleteUsagePlanKeyCommand({ usagePlanId, keyId: id })),
        "NotFoundException",
      );
    },
    planKeys,
  };
}
