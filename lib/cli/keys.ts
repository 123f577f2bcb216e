/**
 * `npm run keys -- create|list|revoke …`: issue, list and revoke partner keys in a local keys file
 * (`--keys-file F`), a local engine's keys table (`--endpoint URL`) or a deployed stage (`--stage S`).
 * `create` prints the new key once, alone on stdout; everything else goes to stderr.
 */
import { parseArgs } from "node:util";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { isCompanyId } from "../directory/company-id.js";
import { KEY_ENVIRONMENTS, type KeyEnvironment } from "../keys/api-key.js";
import { describeKey, issueKey, type KeyTarget, type NewKeyRequest } from "../keys/key-admin.js";
import { tableKeyTarget } from "../keys/table-target.js";
import { localClient } from "../local/engines.js";
import { keysFileTarget } from "../local/keys-file-target.js";
import { LOCAL_TABLE_NAMES } from "../local/service.js";
import { OPERATIONS, type Operation } from "../routes.js";
import {
  stageParameterNames,
  THROTTLE_TIER_NAMES,
  THROTTLE_TIERS,
  type Throttle,
  type ThrottleTier,
} from "../stages.js";
import { createTables } from "../store/create-tables.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { keysRepository } from "../store/keys-repository.js";
import { deployedStage, readStageParameter } from "./stage-resources.js";
import { apiGatewayUsageKeys } from "./usage-keys.js";

const USAGE = `usage:
  npm run keys -- create --partner NAME --operations OPS --companies IDS [--tier ${THROTTLE_TIER_NAMES.join("|")} | --rate N --burst N [--daily-quota N]] [--env test|live] TARGET
  npm run keys -- list TARGET
  npm run keys -- revoke KEY_ID TARGET
TARGET: --keys-file FILE | --endpoint URL | --stage dev|sandbox|prod
OPS: comma-separated, of ${OPERATIONS.join(", ")}; IDS: comma-separated company ids`;

class UsageError extends Error {}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    partner: { type: "string" },
    operations: { type: "string" },
    companies: { type: "string" },
    tier: { type: "string" },
    rate: { type: "string" },
    burst: { type: "string" },
    "daily-quota": { type: "string" },
    env: { type: "string" },
    "keys-file": { type: "string" },
    endpoint: { type: "string" },
    stage: { type: "string" },
  },
});

const list = (text: string | undefined) =>
  (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

function positiveNumber(name: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!(value > 0) || (integer && !Number.isInteger(value)))
    throw new UsageError(`--${name} must be a positive ${integer ? "integer" : "number"}`);
  return value;
}

function throttleOption(): { throttle: Throttle; tier?: ThrottleTier } {
  const rate = positiveNumber("rate", values.rate, false);
  const burst = positiveNumber("burst", values.burst, true);
  const dailyQuota = positiveNumber("daily-quota", values["daily-quota"], true);
  if (values.tier !== undefined) {
    if (rate !== undefined || burst !== undefined || dailyQuota !== undefined)
      throw new UsageError("give --tier or --rate/--burst, not both");
    if (!(THROTTLE_TIER_NAMES as string[]).includes(values.tier))
      throw new UsageError(`--tier must be one of ${THROTTLE_TIER_NAMES.join(", ")}`);
    const tier = values.tier as ThrottleTier;
    return { throttle: THROTTLE_TIERS[tier], tier };
  }
  if (rate === undefined && burst === undefined)
    return { throttle: THROTTLE_TIERS.standard, tier: "standard" };
  if (rate === undefined || burst === undefined) throw new UsageError("--rate and --burst go together");
  if (values.stage) throw new UsageError("deployed stages throttle by usage plan: use --tier");
  return { throttle: { rateLimit: rate, burstLimit: burst, ...(dailyQuota ? { dailyQuota } : {}) } };
}

function newKeyRequest(): NewKeyRequest {
  const partner = values.partner?.trim();
  if (!partner) throw new UsageError("--partner is required");
  const operations = list(values.operations);
  const unknown = operations.filter((op) => !(OPERATIONS as readonly string[]).includes(op));
  if (operations.length === 0 || unknown.length > 0)
    throw new UsageError(
      `--operations must list some of ${OPERATIONS.join(", ")}${unknown.length ? ` (unknown: ${unknown.join(", ")})` : ""}`,
    );
  const companies = list(values.companies);
  const badCompany = companies.find((id) => !isCompanyId(id));
  if (badCompany !== undefined)
    throw new UsageError(`--companies: "${badCompany}" is not a well-formed company id`);
  const environment = values.env ?? (values.stage === "prod" ? "live" : "test");
  if (!(KEY_ENVIRONMENTS as readonly string[]).includes(environment))
    throw new UsageError("--env must be test or live");
  return {
    partner,
    operations: operations as Operation[],
    companies,
    environment: environment as KeyEnvironment,
    ...throttleOption(),
  };
}

async function keyTarget(): Promise<KeyTarget> {
  const targets = [values["keys-file"], values.endpoint, values.stage].filter((t) => t !== undefined);
  if (targets.length !== 1) throw new UsageError("give exactly one of --keys-file, --endpoint, --stage");
  if (values["keys-file"]) return keysFileTarget(values["keys-file"]);
  if (values.endpoint) {
    const client = localClient(values.endpoint);
    await createTables(client, LOCAL_TABLE_NAMES);
    return tableKeyTarget(keysRepository(documentClientFor(client), LOCAL_TABLE_NAMES.keys));
  }
  const stage = deployedStage(values.stage ?? "");
  const table = await readStageParameter(stageParameterNames.keysTableName(stage));
  return tableKeyTarget(
    keysRepository(documentClientFor(new DynamoDBClient({})), table),
    apiGatewayUsageKeys(stage),
  );
}

async function main(): Promise<void> {
  const [command, ...args] = positionals;
  if (command === "create" && args.length === 0) {
    const request = newKeyRequest();
    const { plainKey, record } = await issueKey(request, await keyTarget());
    console.error(`created ${record.keyId} for ${record.partner}: ${JSON.stringify(describeKey(record))}`);
    console.error(
      "the key below is shown once: give it to the partner through a secrets manager, never by email",
    );
    console.log(plainKey);
  } else if (command === "list" && args.length === 0) {
    for (const record of await (await keyTarget()).list()) console.log(JSON.stringify(describeKey(record)));
  } else if (command === "revoke" && args.length === 1 && args[0]) {
    const revoked = await (await keyTarget()).revoke(args[0], new Date());
    if (!revoked) throw new Error(`no key with id ${args[0]}`);
    console.error(`revoked ${revoked.keyId} (${revoked.partner})`);
  } else {
    throw new UsageError("unknown command or wrong arguments");
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof UsageError ? `${error.message}\n${USAGE}` : (error as Error).message);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
