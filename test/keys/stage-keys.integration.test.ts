/**
 * The keys lifecycle on a deployed stage, against a keys table on each local engine and an
 * in-memory API Gateway: create, revoke and set-tier, a failure injected at each of their steps,
 * and `reconcile` finding and repairing what each failure (or a hand edit) left.
 */
import { issueKey, type KeyTarget, type NewKeyRequest } from "../../lib/keys/key-admin.js";
import type { KeyRecord } from "../../lib/keys/key-record.js";
import { findDiscrepancies, PENDING_GRACE_MS, reportAndRepair } from "../../lib/keys/reconcile.js";
import { tableKeyTarget } from "../../lib/keys/table-target.js";
import { THROTTLE_TIER_NAMES, THROTTLE_TIERS } from "../../lib/stages.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { type KeysRepository, keysRepository } from "../../lib/store/keys-repository.js";
import { describeEachEngine } from "../support/engines.js";
import { fakeUsagePlanGateway, type GatewayMethod } from "./fake-usage-plan-gateway.js";

const REQUEST: NewKeyRequest = {
  partner: "Acme",
  operations: ["companies.hello"],
  companies: ["acme-home-care"],
  throttle: THROTTLE_TIERS.standard,
  tier: "standard",
  environment: "live",
};

/** A target that stores nothing: only the record `issueKey` builds is wanted. */
const UNSTORED: KeyTarget = {
  create: async (record) => record,
  list: async () => [],
  revoke: async () => undefined,
  setTier: async () => undefined,
  setCompanies: async () => undefined,
};

type RepositoryMethod = keyof KeysRepository;

/** The repository, with the named methods failing until removed from `failing`. */
function failingRepository(repository: KeysRepository) {
  const failing = new Set<RepositoryMethod>();
  const wrapped = Object.fromEntries(
    Object.entries(repository).map(([name, method]) => [
      name,
      (...args: unknown[]) => {
        if (failing.has(name as RepositoryMethod)) throw new Error(`injected failure of ${name}`);
        return (method as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as KeysRepository;
  return { repository: wrapped, failing };
}

describeEachEngine("keys on a deployed stage", (getEngine) => {
  let table: KeysRepository;
  let fake: ReturnType<typeof fakeUsagePlanGateway>;
  let injected: ReturnType<typeof failingRepository>;
  let target: KeyTarget;

  beforeEach(async () => {
    const { client, tables } = getEngine();
    table = keysRepository(documentClientFor(client), tables.keys);
    // Each test starts from an empty table (the suite shares one).
    for (const record of await table.list()) await table.revoke(record.keyId, new Date());
    fake = fakeUsagePlanGateway();
    injected = failingRepository(table);
    target = tableKeyTarget(injected.repository, fake.gateway);
  });

  const active = async () => (await table.list()).filter((record) => record.status !== "revoked");
  /** Reconcile as an operator would, after the pending grace period. */
  const reconcile = async (fix: boolean) => {
    const later = new Date(Date.now() + PENDING_GRACE_MS + 1_000);
    const found = await findDiscrepancies(table, fake.gateway, THROTTLE_TIER_NAMES, later);
    const lines: string[] = [];
    const left = await reportAndRepair(found, { fix, print: (line) => lines.push(line) });
    return { found, lines, left };
  };
  const expectClean = async () => expect((await reconcile(false)).lines).toEqual([]);

  it("is clean after create, set-tier and revoke that succeed", async () => {
    const { record } = await issueKey(REQUEST, target);
    await expectClean();
    await target.setTier(record.keyId, "premium", THROTTLE_TIERS.premium);
    expect(fake.plansOf(record.usageKeyId ?? "")).toEqual(["premium"]);
    expect(await table.findById(record.keyId)).toMatchObject({
      tier: "premium",
      throttle: THROTTLE_TIERS.premium,
    });
    await expectClean();
    await target.revoke(record.keyId, new Date());
    expect(fake.keys.size).toBe(0);
    await expectClean();
  });

  describe.each<[string, () => void]>([
    ["writing the pending record", () => injected.failing.add("put")],
    ["creating the API key", () => fake.failing.add("createKey")],
    ["adding it to the plan", () => fake.failing.add("addToPlan")],
    ["activating the record", () => injected.failing.add("update")],
  ])("create failing at %s", (_step, inject) => {
    it("shows no key, and reconcile --fix revokes the pending record and deletes its API key", async () => {
      inject();
      await expect(issueKey(REQUEST, target)).rejects.toThrow(/injected failure/);
      const { found, left } = await reconcile(true);
      expect(left).toBe(0);
      for (const { problem } of found) expect(problem).toMatch(/^pending since/);
      expect(await active()).toEqual([]);
      expect(fake.keys.size).toBe(0);
      await expectClean();
    });
  });

  it("reports a pending record younger than the grace period without touching it", async () => {
    fake.failing.add("addToPlan");
    await expect(issueKey(REQUEST, target)).rejects.toThrow(/reconcile --fix/);
    const found = await findDiscrepancies(table, fake.gateway, THROTTLE_TIER_NAMES, new Date());
    expect(found).toEqual([expect.objectContaining({ problem: expect.stringMatching(/create may still/) })]);
    expect(found[0]?.repair).toBeUndefined();
    expect(fake.keys.size).toBe(1);
  });

  it("revoke failing to write the record changes nothing", async () => {
    const { record } = await issueKey(REQUEST, target);
    injected.failing.add("revoke");
    await expect(target.revoke(record.keyId, new Date())).rejects.toThrow(/injected failure/);
    expect((await table.findById(record.keyId))?.status).toBe("active");
    await expectClean();
  });

  describe.each<GatewayMethod>(["listKeys", "disableKey", "deleteKey"])("revoke failing at %s", (method) => {
    it("leaves a revoked record whose API key reconcile --fix deletes", async () => {
      // listKeys finds the API key of a pending record (a create that failed after making it).
      if (method === "listKeys") injected.failing.add("update");
      const record = await issueKey(
        { ...REQUEST, tier: "trial", throttle: THROTTLE_TIERS.trial },
        target,
      ).then(
        (issued) => issued.record,
        async () => (await active())[0] as KeyRecord,
      );
      injected.failing.clear();
      fake.failing.add(method);
      await expect(target.revoke(record.keyId, new Date())).rejects.toThrow(/reconcile --fix/);
      fake.failing.delete(method);
      expect((await table.findById(record.keyId))?.status).toBe("revoked");
      const { found, left } = await reconcile(true);
      expect(found.map((d) => d.problem)).toEqual([expect.stringMatching(/^revoked, but its API key/)]);
      expect(left).toBe(0);
      expect(fake.keys.size).toBe(0);
      await expectClean();
    });
  });

  it("revoking again finishes a revoke that failed", async () => {
    const { record } = await issueKey(REQUEST, target);
    fake.failing.add("deleteKey");
    await expect(target.revoke(record.keyId, new Date())).rejects.toThrow();
    fake.failing.clear();
    await target.revoke(record.keyId, new Date());
    expect(fake.keys.size).toBe(0);
  });

  describe.each<[string, () => void, string[]]>([
    ["writing the record", () => injected.failing.add("update"), ["standard"]],
    ["leaving the old plan", () => fake.failing.add("removeFromPlan"), ["standard"]],
    ["joining the new plan", () => fake.failing.add("addToPlan"), []],
  ])("set-tier failing at %s", (step, inject, plansAfter) => {
    it("leaves a state reconcile --fix moves to the recorded tier", async () => {
      const { record } = await issueKey(REQUEST, target);
      const usageKeyId = record.usageKeyId ?? "";
      inject();
      await expect(target.setTier(record.keyId, "premium", THROTTLE_TIERS.premium)).rejects.toThrow(
        /injected failure/,
      );
      expect(fake.plansOf(usageKeyId)).toEqual(plansAfter);
      const recorded = (await table.findById(record.keyId))?.tier;
      expect(recorded).toBe(step === "writing the record" ? "standard" : "premium");
      injected.failing.clear();
      fake.failing.clear();
      expect((await reconcile(true)).left).toBe(0);
      expect(fake.plansOf(usageKeyId)).toEqual([recorded]);
      await expectClean();
    });
  });

  it("set-tier: an unknown key is undefined, a revoked one is refused, and nothing changes", async () => {
    expect(await target.setTier("key_doesNotExist0000", "premium", THROTTLE_TIERS.premium)).toBeUndefined();
    const { record } = await issueKey(REQUEST, target);
    await target.revoke(record.keyId, new Date());
    await expect(target.setTier(record.keyId, "premium", THROTTLE_TIERS.premium)).rejects.toThrow(
      /is revoked: only an active key changes tier/,
    );
    expect(await table.findById(record.keyId)).toMatchObject({ tier: "standard", status: "revoked" });
  });

  it("a revoke between the steps of a create deletes the API key the create made", async () => {
    const revokeWhilePlanned = tableKeyTarget(injected.repository, {
      ...fake.gateway,
      async addToPlan(tier, id) {
        // Another operator revokes the key while its create is between steps 2 and 4.
        for (const record of await table.list()) await table.revoke(record.keyId, new Date());
        await fake.gateway.addToPlan(tier, id);
      },
    });
    await expect(issueKey(REQUEST, revokeWhilePlanned)).rejects.toThrow(/revoked while it was created/);
    expect(await fake.gateway.listKeys()).toEqual([]);
    await expectClean();
  });

  it("reconcile never takes the API key of a create running beside it for an orphan", async () => {
    let reads = 0;
    /** A create's first steps (its record, then its API key), run once the first of reconcile's reads is done. */
    const createBetweenReads = async <T>(read: Promise<T>): Promise<T> => {
      const result = await read;
      reads += 1;
      if (reads === 1) {
        const pending: KeyRecord = {
          ...(await issueKey(REQUEST, UNSTORED)).record,
          status: "pending",
        };
        await table.put(pending);
        await fake.gateway.createKey({
          name: fake.gateway.keyName(pending.keyId),
          description: "",
          value: "v",
        });
      }
      return result;
    };
    const order: string[] = [];
    const repository = {
      ...table,
      list: () => {
        order.push("records read begins");
        return createBetweenReads(table.list());
      },
    };
    const gateway = {
      ...fake.gateway,
      listKeys: async () => {
        const keys = await createBetweenReads(fake.gateway.listKeys());
        order.push("API keys read");
        return keys;
      },
    };
    const found = await findDiscrepancies(repository, gateway, THROTTLE_TIER_NAMES, new Date());
    // The order that makes it safe: an API key listed was created after its record was written.
    expect(order).toEqual(["API keys read", "records read begins"]);
    expect(found.map(({ problem }) => problem)).toEqual([
      "pending: a create may still be running; reconcile again later",
    ]);
    expect(found.every(({ repair }) => repair === undefined)).toBe(true);
  });

  it("an update never brings a revoked key back", async () => {
    const { record } = await issueKey(REQUEST, target);
    await table.revoke(record.keyId, new Date());
    await expect(table.update(record.keyId, "active", { tier: "premium" })).rejects.toThrow(
      /is revoked, not active/,
    );
    expect(await table.findById(record.keyId)).toMatchObject({ status: "revoked", tier: "standard" });
  });

  it("reconcile reports orphans and out-of-step keys, exits dirty without --fix, and repairs them", async () => {
    const inWrongPlan = (await issueKey(REQUEST, target)).record;
    const lostApiKey = (await issueKey(REQUEST, target)).record;
    const revokedByHand = (await issueKey(REQUEST, target)).record;
    const disabledByHand = (await issueKey(REQUEST, target)).record;
    await fake.gateway.disableKey(disabledByHand.usageKeyId ?? "");
    const orphanId = await fake.gateway.createKey({
      name: "prod-key_noRecord00000000",
      description: "",
      value: "v",
    });
    await fake.gateway.addToPlan("trial", orphanId);
    await fake.gateway.removeFromPlan("standard", inWrongPlan.usageKeyId ?? "");
    await fake.gateway.addToPlan("premium", inWrongPlan.usageKeyId ?? "");
    await fake.gateway.deleteKey(lostApiKey.usageKeyId ?? "");
    await table.revoke(revokedByHand.keyId, new Date());
    const untiered: KeyRecord = { ...inWrongPlan, keyId: "key_untiered00000000", keyHash: "f".repeat(64) };
    delete untiered.tier;
    delete untiered.usageKeyId;
    await table.put(untiered);

    const report = await reconcile(false);
    expect(report.left).toBe(6);
    expect(report.lines.sort()).toEqual(
      [
        `${inWrongPlan.keyId}: tier standard, but its API key is in plans [premium]`,
        `${lostApiKey.keyId}: active with no API Gateway key (API Gateway refuses it)`,
        `${revokedByHand.keyId}: revoked, but its API key ${revokedByHand.usageKeyId} still exists`,
        `${disabledByHand.keyId}: active, but its API key ${disabledByHand.usageKeyId} is disabled (API Gateway refuses it)`,
        `prod-key_noRecord00000000: API key ${orphanId} has no record in the keys table`,
        "key_untiered00000000: active without a tier: deployed stages need one (reconcile cannot repair this)",
      ].sort(),
    );
    expect(fake.keys.has(orphanId)).toBe(true);

    const fixed = await reconcile(true);
    expect(fixed.left).toBe(1);
    expect(fake.keys.has(orphanId)).toBe(false);
    expect(fake.plansOf(inWrongPlan.usageKeyId ?? "")).toEqual(["standard"]);
    const recreated = await table.findById(lostApiKey.keyId);
    expect(recreated?.usageKeyId).not.toBe(lostApiKey.usageKeyId);
    // The same internal value, so the authorizer's usageIdentifierKey names the new API key.
    expect(fake.keys.get(recreated?.usageKeyId ?? "")?.value).toBe(lostApiKey.usageKey);
    expect(fake.plansOf(recreated?.usageKeyId ?? "")).toEqual(["standard"]);
    expect(fake.keys.has(revokedByHand.usageKeyId ?? "")).toBe(false);
    expect(fake.keys.get(disabledByHand.usageKeyId ?? "")?.enabled).toBe(true);
    await table.revoke(untiered.keyId, new Date());
    await expectClean();
  });

  it("a repair that fails is reported and left for the next run", async () => {
    const { record } = await issueKey(REQUEST, target);
    await table.revoke(record.keyId, new Date());
    fake.failing.add("deleteKey");
    const failed = await reconcile(true);
    expect(failed.left).toBe(1);
    expect(failed.lines).toEqual([expect.stringMatching(/repair failed \(injected failure of deleteKey\)$/)]);
    fake.failing.clear();
    expect((await reconcile(true)).left).toBe(0);
    await expectClean();
  });
});
