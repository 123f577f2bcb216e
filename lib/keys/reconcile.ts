/**
 * `keys reconcile`: compares a stage's keys table with its API Gateway keys and usage plans, and
 * repairs what is out of step. Wanted: every active key's API key in exactly its tier's plan;
 * every revoked key's API key deleted; no API key without a record; no pending record left by a
 * failed create. Every repair is idempotent, so reconcile may run again after a failure of its own.
 */
import type { KeysRepository } from "../store/keys-repository.js";
import type { KeyRecord } from "./key-record.js";
import type { GatewayKey, UsagePlanGateway } from "./usage-plan-gateway.js";

/** A create younger than this may still be running: its pending record is reported, not revoked. */
export const PENDING_GRACE_MS = 5 * 60_000;

export interface Discrepancy {
  /** The partner key's id, or the API key's name when it has no record. */
  readonly subject: string;
  readonly problem: string;
  /** Undefined when reconcile cannot repair it: an operator must look. */
  readonly repair?: () => Promise<void>;
}

interface StageKeys {
  readonly records: readonly KeyRecord[];
  readonly apiKeys: readonly GatewayKey[];
  /** The tiers whose plan holds each API key id. */
  readonly plansOf: ReadonlyMap<string, readonly string[]>;
}

interface Context extends StageKeys {
  readonly repository: KeysRepository;
  readonly gateway: UsagePlanGateway;
  readonly now: Date;
}

async function readStageKeys(
  repository: KeysRepository,
  gateway: UsagePlanGateway,
  tiers: readonly string[],
): Promise<StageKeys> {
  // API keys first, then the records: a create writes its record before its API key, so every API
  // key listed has its record in the (consistent) list after it, even while a create runs.
  const apiKeys = await gateway.listKeys();
  const records = await repository.list();
  const plansOf = new Map<string, string[]>();
  for (const tier of tiers)
    for (const id of await gateway.planKeys(tier)) plansOf.set(id, [...(plansOf.get(id) ?? []), tier]);
  return { records, apiKeys, plansOf };
}

function apiKeyOf(context: Context, record: KeyRecord): GatewayKey | undefined {
  const name = context.gateway.keyName(record.keyId);
  return (
    context.apiKeys.find((key) => key.id === record.usageKeyId) ??
    context.apiKeys.find((key) => key.name === name)
  );
}

function pendingDiscrepancy(
  context: Context,
  record: KeyRecord,
  apiKey: GatewayKey | undefined,
): Discrepancy {
  const age = context.now.getTime() - Date.parse(record.createdAt);
  if (age < PENDING_GRACE_MS)
    return {
      subject: record.keyId,
      problem: "pending: a create may still be running; reconcile again later",
    };
  const { repository, gateway, now } = context;
  return {
    subject: record.keyId,
    problem: `pending since ${record.createdAt} (a create failed)${apiKey ? `, with API key ${apiKey.id}` : ""}`,
    // Nobody saw its key (printed only once a create completes): revoke it, delete its API key.
    async repair() {
      await repository.revoke(record.keyId, now);
      if (apiKey) await gateway.deleteKey(apiKey.id);
    },
  };
}

/** An active key: its API key exists, is recorded, and is in its tier's plan only. */
function activeDiscrepancy(
  context: Context,
  record: KeyRecord,
  apiKey: GatewayKey | undefined,
): Discrepancy[] {
  const { repository, gateway } = context;
  const { keyId, tier } = record;
  if (!tier) return [{ subject: keyId, problem: "active without a tier: deployed stages need one" }];
  if (!apiKey)
    return [
      {
        subject: keyId,
        problem: "active with no API Gateway key (API Gateway refuses it)",
        async repair() {
          // The same internal value, so the authorizer's `usageIdentifierKey` finds the new key.
          const id = await gateway.createKey({
            name: gateway.keyName(keyId),
            description: `usage key of partner key ${keyId} (${record.partner})`,
            value: record.usageKey,
          });
          await gateway.addToPlan(tier, id);
          await repository.update(keyId, "active", { usageKeyId: id });
        },
      },
    ];
  const found: Discrepancy[] = [];
  if (record.usageKeyId !== apiKey.id)
    found.push({
      subject: keyId,
      problem: `record names API key ${record.usageKeyId ?? "none"}, API Gateway has ${apiKey.id}`,
      repair: async () => void (await repository.update(keyId, "active", { usageKeyId: apiKey.id })),
    });
  if (!apiKey.enabled)
    found.push({
      subject: keyId,
      problem: `active, but its API key ${apiKey.id} is disabled (API Gateway refuses it)`,
      repair: () => gateway.enableKey(apiKey.id),
    });
  const plans = context.plansOf.get(apiKey.id) ?? [];
  const wrong = plans.filter((plan) => plan !== tier);
  if (wrong.length > 0 || !plans.includes(tier))
    found.push({
      subject: keyId,
      problem: `tier ${tier}, but its API key is in plans [${plans.join(", ")}]`,
      async repair() {
        // Out of the wrong plans first: API Gateway refuses a key in two plans on one API stage.
        for (const plan of wrong) await gateway.removeFromPlan(plan, apiKey.id);
        if (!plans.includes(tier)) await gateway.addToPlan(tier, apiKey.id);
      },
    });
  return found;
}

function recordDiscrepancies(context: Context, record: KeyRecord): Discrepancy[] {
  const apiKey = apiKeyOf(context, record);
  if (record.status === "pending") return [pendingDiscrepancy(context, record, apiKey)];
  if (record.status === "active") return activeDiscrepancy(context, record, apiKey);
  if (!apiKey) return [];
  return [
    {
      subject: record.keyId,
      problem: `revoked, but its API key ${apiKey.id} still exists`,
      repair: () => context.gateway.deleteKey(apiKey.id),
    },
  ];
}

/** What is out of step on the stage, each with its repair when reconcile knows one. */
export async function findDiscrepancies(
  repository: KeysRepository,
  gateway: UsagePlanGateway,
  tiers: readonly string[],
  now: Date = new Date(),
): Promise<Discrepancy[]> {
  const context: Context = { ...(await readStageKeys(repository, gateway, tiers)), repository, gateway, now };
  const found = context.records.flatMap((record) => recordDiscrepancies(context, record));
  const matched = new Set(context.records.map((record) => apiKeyOf(context, record)?.id));
  for (const apiKey of context.apiKeys)
    if (!matched.has(apiKey.id))
      found.push({
        subject: apiKey.name,
        problem: `API key ${apiKey.id} has no record in the keys table`,
        repair: () => gateway.deleteKey(apiKey.id),
      });
  return found;
}

/**
 * Prints each discrepancy (one line) and, with `fix`, runs its repair; resolves to how many are
 * left: unrepairable ones, failed repairs, or every one without `fix`.
 */
export async function reportAndRepair(
  found: readonly Discrepancy[],
  { fix, print }: { fix: boolean; print: (line: string) => void },
): Promise<number> {
  let left = 0;
  for (const { subject, problem, repair } of found) {
    if (!fix || !repair) {
      left += 1;
      print(`${subject}: ${problem}${repair ? "" : " (reconcile cannot repair this)"}`);
      continue;
    }
    try {
      await repair();
      print(`${subject}: ${problem}: repaired`);
    } catch (error) {
      left += 1;
      print(`${subject}: ${problem}: repair failed (${(error as Error).message})`);
    }
  }
  return left;
}
