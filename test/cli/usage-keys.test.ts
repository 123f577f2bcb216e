/**
 * The API Gateway side of the keys CLI, against a fake SDK client: which calls it makes, the
 * pages it reads, and which API Gateway errors mean "already done" (so every step can run again).
 */
import { apiGatewayUsageKeys } from "../../lib/cli/usage-keys.js";

type Answer = (input: Record<string, unknown>) => unknown;

const apiGatewayError = (name: string) => Object.assign(new Error(name), { name });

/** A client answering each command (by class name) with `answers`; records every call. */
function fakeClient(answers: Record<string, Answer>) {
  const calls: { command: string; input: Record<string, unknown> }[] = [];
  return {
    calls,
    async send(command: { constructor: { name: string }; input: Record<string, unknown> }) {
      const name = command.constructor.name;
      calls.push({ command: name, input: command.input });
      const answer = answers[name];
      if (!answer) throw new Error(`unexpected ${name}`);
      return answer(command.input);
    },
  };
}

const planIds = { trial: "plan-t", standard: "plan-s", premium: "plan-p" } as Record<string, string>;
const planIdOf = async (tier: string) => planIds[tier] ?? "unknown";

describe("API Gateway usage keys", () => {
  it("creates an enabled key with the internal value, named after the stage and key id", async () => {
    const client = fakeClient({ CreateApiKeyCommand: () => ({ id: "k1" }) });
    const gateway = apiGatewayUsageKeys("prod", client, planIdOf);
    const name = gateway.keyName("key_0123456789abcdef");
    expect(name).toBe("prod-key_0123456789abcdef");
    expect(await gateway.createKey({ name, description: "d", value: "internal" })).toBe("k1");
    expect(client.calls[0]?.input).toEqual({ name, description: "d", enabled: true, value: "internal" });
  });

  it("treats a key already gone as disabled and deleted, and fails on anything else", async () => {
    let error = apiGatewayError("NotFoundException");
    const client = fakeClient({
      UpdateApiKeyCommand: () => Promise.reject(error),
      DeleteApiKeyCommand: () => Promise.reject(error),
    });
    const gateway = apiGatewayUsageKeys("prod", client, planIdOf);
    await gateway.disableKey("k1");
    await gateway.deleteKey("k1");
    // Enabling a key that is gone is no success.
    await expect(gateway.enableKey("k1")).rejects.toThrow("NotFoundException");
    error = apiGatewayError("TooManyRequestsException");
    await expect(gateway.deleteKey("k1")).rejects.toThrow("TooManyRequestsException");
    await expect(gateway.disableKey("k1")).rejects.toThrow("TooManyRequestsException");
    expect(client.calls[0]?.input).toEqual({
      apiKey: "k1",
      patchOperations: [{ op: "replace", path: "/enabled", value: "false" }],
    });
    expect(client.calls[2]?.input).toEqual({
      apiKey: "k1",
      patchOperations: [{ op: "replace", path: "/enabled", value: "true" }],
    });
  });

  it("accepts a conflict only when the key is already in that plan", async () => {
    const members: Record<string, string[]> = { "plan-s": ["k1"], "plan-p": [] };
    const client = fakeClient({
      CreateUsagePlanKeyCommand: () => Promise.reject(apiGatewayError("ConflictException")),
      GetUsagePlanKeysCommand: ({ usagePlanId }) => ({
        items: (members[String(usagePlanId)] ?? []).map((id) => ({ id })),
      }),
      DeleteUsagePlanKeyCommand: () => Promise.reject(apiGatewayError("NotFoundException")),
    });
    const gateway = apiGatewayUsageKeys("prod", client, planIdOf);
    await gateway.addToPlan("standard", "k1");
    // In another plan on the same API stage: API Gateway's conflict is a real refusal.
    await expect(gateway.addToPlan("premium", "k1")).rejects.toThrow("ConflictException");
    await gateway.removeFromPlan("premium", "k1");
    expect(client.calls.filter((c) => c.command === "CreateUsagePlanKeyCommand").map((c) => c.input)).toEqual(
      [
        { usagePlanId: "plan-s", keyId: "k1", keyType: "API_KEY" },
        { usagePlanId: "plan-p", keyId: "k1", keyType: "API_KEY" },
      ],
    );
  });

  it("reads every page, and lists only this stage's keys", async () => {
    const pages: Record<string, unknown> = {
      first: { items: [{ id: "a", name: "prod-key_a", enabled: true }], position: "p2" },
      p2: {
        items: [
          { id: "b", name: "prod-key_b" },
          { id: "c", name: "production-other" },
        ],
      },
    };
    const client = fakeClient({
      GetApiKeysCommand: ({ position }) => pages[String(position ?? "first")],
      GetUsagePlanKeysCommand: ({ position }) =>
        position ? { items: [{ id: "y" }] } : { items: [{ id: "x" }], position: "next" },
    });
    let reads = 0;
    const gateway = apiGatewayUsageKeys("prod", client, async (tier) => {
      reads += 1;
      return planIdOf(tier);
    });
    expect(await gateway.listKeys()).toEqual([
      { id: "a", name: "prod-key_a", enabled: true },
      { id: "b", name: "prod-key_b", enabled: false },
    ]);
    expect(client.calls[0]?.input).toMatchObject({ nameQuery: "prod-" });
    expect(await gateway.planKeys("trial")).toEqual(["x", "y"]);
    expect(await gateway.planKeys("trial")).toEqual(["x", "y"]);
    expect(reads).toBe(1);
  });
});
