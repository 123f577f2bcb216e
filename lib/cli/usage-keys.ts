/**
 * API Gateway usage keys for a deployed stage. Each partner key gets its own API key whose value
 * is random and internal (the authorizer returns it as `usageIdentifierKey`); it is never the
 * partner's key. It is added to the usage plan of the key's throttle tier.
 */
import { randomBytes } from "node:crypto";
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  UpdateApiKeyCommand,
} from "@aws-sdk/client-api-gateway";
import type { UsageKeyRegistrar } from "../keys/table-target.js";
import { type DeployedStage, stageParameterNames } from "../stages.js";
import { readStageParameter } from "./stage-resources.js";

export function apiGatewayUsageKeys(
  stage: DeployedStage,
  client = new APIGatewayClient({}),
): UsageKeyRegistrar {
  return {
    async register(record) {
      if (!record.tier) throw new Error("keys on a deployed stage need a throttle tier (--tier)");
      const usagePlanId = await readStageParameter(stageParameterNames.usagePlan(stage, record.tier));
      const usageKey = randomBytes(30).toString("base64url");
      const created = await client.send(
        new CreateApiKeyCommand({
          name: `${stage}-${record.keyId}`,
          description: `usage key of partner key ${record.keyId} (${record.partner})`,
          enabled: true,
          value: usageKey,
        }),
      );
      if (!created.id) throw new Error("API Gateway returned no id for the new API key");
      await client.send(
        new CreateUsagePlanKeyCommand({ usagePlanId, keyId: created.id, keyType: "API_KEY" }),
      );
      return { usageKeyId: created.id, usageKey };
    },
    async disable(usageKeyId) {
      await client.send(
        new UpdateApiKeyCommand({
          apiKey: usageKeyId,
          patchOperations: [{ op: "replace", path: "/enabled", value: "false" }],
        }),
      );
    },
  };
}
