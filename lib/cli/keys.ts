/**
 * `npm run keys -- create|list|revoke …`: issue, list and revoke partner keys in a local keys file
 * (`--keys-file F`), a local engine's keys table (`--endpoint URL`) or a deployed stage (`--stage S`).
 * `create` prints the new key once, alone on stdout; everything else goes to stderr.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { OPERATIONS, type Operation } from "../auth/operations.js";
import { isCompanyId } from "../directory/company-id.js";
import { KEY_ENVIRONMENTS, type KeyEnvironment } from "../keys/api-key.js";
import { describeKey, issueKey, type KeyTarget, type NewKeyRequest } from "../keys/key-admin.js";
import { tableKeyTarget } from "../keys/table-target.js";
import { localClient } from "../local/engines.js";
import { keysFileTarget } from "../local/keys-file-target.js";
import { LOCAL_TABLE_NAMES } from "../local/service.js";
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
import {
  type CommandLine,
  choiceOption,
  cli,
  type OptionValues,
  positiveNumberOption,
  quoted,
  UsageError,
  urlOption,
  wholeNumberOption,
} from "./args.js";
import { deployedStage, readStageParameter } from "./stage-resources.js";
import { apiGatewayUsageKeys } from "./usage-keys.js";

const USAGE = `usage:
  npm run keys -- create --partner NAME --operations OPS --companies IDS [--tier ${THROTTLE_TIER_NAMES.join("|")} | --rate N --burst N [--daily-quota N]] [--env test|live] TARGET
  npm run keys -- list TARGET
  npm run keys -- revoke KEY_ID TARGET
TARGET: --keys-file FILE | --endpoint URL | --stage dev|sandbox|prod
OPS: comma-separated, of ${OPERATIONS.join(", ")}; IDS: comma-separated company ids`;

const OPTIONS = {
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
} as const;
type Values = OptionValues<typeof OPTIONS>;

const list = (text: string | undefined) =>
  (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

function throttleOption(values: Values): { throttle: Throttle; tier?: ThrottleTier } {
  const rate = positiveNumberOption("rate", values.rate);
  const burst = wholeNumberOption("burst", values.burst, { min: 1 });
  const dailyQuota = wholeNumberOption("daily-quota", values["daily-quota"], { min: 1 });
  const tier = choiceOption("tier", values.tier, THROTTLE_TIER_NAMES);
  if (tier !== undefined) {
    if (rate !== undefined || burst !== undefined || dailyQuota !== undefined)
      throw new UsageError("give --tier or --rate/--burst, not both");
    return { throttle: THROTTLE_TIERS[tier], tier };
  }
  if (rate === undefined && burst === undefined)
    return { throttle: THROTTLE_TIERS.standard, tier: "standard" };
  if (rate === undefined || burst === undefined) throw new UsageError("--rate and --burst go together");
  if (values.stage) throw new UsageError("deployed stages throttle by usage plan: use --tier");
  return { throttle: { rateLimit: rate, burstLimit: burst, ...(dailyQuota ? { dailyQuota } : {}) } };
}

function newKeyRequest(values: Values): NewKeyRequest {
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
    throw new UsageError(`--companies: ${quoted(badCompany)} is not a well-formed company id`);
  const environment: KeyEnvironment =
    choiceOption("env", values.env, KEY_ENVIRONMENTS) ?? (values.stage === "prod" ? "live" : "test");
  return {
    partner,
    operations: operations as Operation[],
    companies,
    environment,
    ...throttleOption(values),
  };
}

async function keyTarget(values: Values): Promise<KeyTarget> {
  const targets = [values["keys-file"], values.endpoint, values.stage].filter((t) => t !== undefined);
  if (targets.length !== 1) throw new UsageError("give exactly one of --keys-file, --endpoint, --stage");
  if (values["keys-file"]) return keysFileTarget(values["keys-file"]);
  const endpoint = urlOption("endpoint", values.endpoint);
  if (endpoint) {
    const client = localClient(endpoint);
    await createTables(client, LOCAL_TABLE_NAMES);
    return tableKeyTarget(keysRepository(documentClientFor(client), LOCAL_TABLE_NAMES.keys));
  }
  const stage = deployedStage(values.stage);
  const table = await readStageParameter(stageParameterNames.keysTableName(stage));
  return tableKeyTarget(
    keysRepository(documentClientFor(new DynamoDBClient({})), table),
    apiGatewayUsageKeys(stage),
  );
}

const COMMANDS: Readonly<
  Record<string, { args: number; run: (values: Values, args: string[]) => Promise<void> }>
> = {
  create: {
    args: 0,
    async run(values) {
      const request = newKeyRequest(values);
      const { plainKey, record } = await issueKey(request, await keyTarget(values));
      console.error(`created ${record.keyId} for ${record.partner}: ${JSON.stringify(describeKey(record))}`);
      console.error(
        "the key below is shown once: give it to the partner through a secrets manager, never by email",
      );
      console.log(plainKey);
    },
  },
  list: {
    args: 0,
    async run(values) {
      for (const record of await (await keyTarget(values)).list())
        console.log(JSON.stringify(describeKey(record)));
    },
  },
  revoke: {
    args: 1,
    async run(values, [keyId = ""]) {
      const revoked = await (await keyTarget(values)).revoke(keyId, new Date());
      if (!revoked) throw new Error(`no key with id ${quoted(keyId)}`);
      console.error(`revoked ${revoked.keyId} (${revoked.partner})`);
    },
  },
};

async function main({ values, positionals: [name, ...args] }: CommandLine<typeof OPTIONS>): Promise<void> {
  if (name === undefined) throw new UsageError("a command is required: create, list or revoke");
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`unknown command ${quoted(name)}: create, list or revoke`);
  if (args.length < command.args) throw new UsageError(`${name} needs a KEY_ID`);
  const extra = args[command.args];
  if (extra !== undefined) throw new UsageError(`unexpected argument ${quoted(extra)} after ${name}`);
  await command.run(values, args);
}

cli({ name: "keys", usage: USAGE, options: OPTIONS, positionals: true }, main);
