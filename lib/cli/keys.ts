/**
 * `npm run keys -- create|list|revoke|set-tier|set-companies|reconcile|scopes …`: issue, list,
 * revoke, move between tiers and give other companies to partner keys in a local keys file
 * (`--keys-file F`), a local engine's keys table (`--endpoint URL`) or a deployed stage
 * (`--stage S`); on a stage, reconcile the keys table with API Gateway's keys and usage plans.
 * `create` prints the new key once, alone on stdout. On a table, `create`, `revoke` and
 * `set-companies` then set the directory's kept scopes (key-scopes.ts); `scopes` does only that.
 * `list` prints a table on a terminal, JSON lines when piped or given `--json` (key-list.ts). What
 * the commands print goes through terminal-text.ts: a partner name shows no control characters.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { OPERATIONS, type Operation } from "../auth/operations.js";
import { isCompanyId } from "../directory/company-id.js";
import { KEY_ENVIRONMENTS, type KeyEnvironment, keyEnvironmentAllowed } from "../keys/api-key.js";
import { describeKey, issueKey, type KeyTarget, type NewKeyRequest } from "../keys/key-admin.js";
import { MAX_PARTNER_NAME_CHARS, PARTNER_NAME_RULE, partnerNameProblem } from "../keys/partner-name.js";
import { findDiscrepancies, reportAndRepair } from "../keys/reconcile.js";
import { tableKeyTarget } from "../keys/table-target.js";
import type { UsagePlanGateway } from "../keys/usage-plan-gateway.js";
import { LOCAL_TABLE_NAMES } from "../local/config.js";
import { localClient } from "../local/engines.js";
import { keysFileTarget } from "../local/keys-file-target.js";
import { callerText } from "../observability/caller-text.js";
import {
  stageParameterNames,
  THROTTLE_TIER_NAMES,
  THROTTLE_TIERS,
  type Throttle,
  type ThrottleTier,
} from "../stages.js";
import { createTables } from "../store/create-tables.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { type KeysRepository, keysRepository } from "../store/keys-repository.js";
import {
  type CommandLine,
  choiceOption,
  cli,
  type OptionValues,
  positiveNumberOption,
  quoted,
  required,
  UsageError,
  urlOption,
  wholeNumberOption,
} from "./args.js";
import { refusedConnectionLine, runningEngine } from "./directory-table.js";
import { writeKeyList } from "./key-list.js";
import { keepKeyScopes, keepKeyScopesAfterChange, warnCompaniesNotInDirectory } from "./key-scopes.js";
import { deployedStage, readStageParameter } from "./stage-resources.js";
import { print, say, terminalJson } from "./terminal-text.js";
import { apiGatewayUsageKeys } from "./usage-keys.js";

const USAGE = `usage:
  npm run keys -- create --partner NAME --operations OPS --companies IDS [--tier ${THROTTLE_TIER_NAMES.join("|")} | --rate N --burst N [--daily-quota N]] [--env test|live] TARGET
  npm run keys -- list [--json] TARGET
  npm run keys -- revoke KEY_ID TARGET
  npm run keys -- set-tier KEY_ID --tier ${THROTTLE_TIER_NAMES.join("|")} TARGET
  npm run keys -- set-companies KEY_ID --companies IDS TARGET
  npm run keys -- reconcile [--fix] --stage dev|sandbox|prod
  npm run keys -- scopes --endpoint URL | --stage dev|sandbox|prod
TARGET: --keys-file FILE | --endpoint URL | --stage dev|sandbox|prod (none: the running npm start's)
NAME: 1 to ${MAX_PARTNER_NAME_CHARS} printable characters, no leading or trailing space, no key text
OPS: comma-separated, of ${OPERATIONS.join(", ")}; IDS: comma-separated company ids
list: a table on a terminal; JSON lines when piped or with --json`;

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
  fix: { type: "boolean" },
  json: { type: "boolean" },
} as const;
type Values = OptionValues<typeof OPTIONS>;

const list = (text: string | undefined) =>
  (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** `--companies`: well-formed company ids. */
function companyList(values: Values): string[] {
  const companies = list(values.companies);
  const badCompany = companies.find((id) => !isCompanyId(id));
  if (badCompany !== undefined)
    throw new UsageError(`--companies: ${quoted(badCompany)} is not a well-formed company id`);
  return companies;
}

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
  const partner = values.partner;
  if (partner === undefined) throw new UsageError("--partner is required");
  const problem = partnerNameProblem(partner);
  if (problem !== undefined) throw new UsageError(`--partner: the name ${problem}: ${PARTNER_NAME_RULE}`);
  const operations = list(values.operations);
  const unknown = operations.filter((op) => !(OPERATIONS as readonly string[]).includes(op));
  if (operations.length === 0 || unknown.length > 0)
    throw new UsageError(
      `--operations must list some of ${OPERATIONS.join(", ")}${unknown.length ? ` (unknown: ${unknown.join(", ")})` : ""}`,
    );
  const companies = companyList(values);
  if (companies.length === 0) throw new UsageError("--companies must list the companies the key may read");
  const environment: KeyEnvironment =
    choiceOption("env", values.env, KEY_ENVIRONMENTS) ?? (values.stage === "prod" ? "live" : "test");
  if (!keyEnvironmentAllowed(environment, values.stage))
    throw new UsageError(`--env ${environment} keys are refused on ${values.stage}: issue a live key`);
  return {
    partner,
    operations: operations as Operation[],
    companies,
    environment,
    ...throttleOption(values),
  };
}

/** A deployed stage's keys table and usage plans, found through its SSM parameters. */
async function stageKeys(stageName: string | undefined): Promise<{
  repository: KeysRepository;
  gateway: UsagePlanGateway;
}> {
  const stage = deployedStage(stageName);
  const table = await readStageParameter(stageParameterNames.keysTableName(stage));
  return {
    repository: keysRepository(documentClientFor(new DynamoDBClient({})), table),
    gateway: apiGatewayUsageKeys(stage),
  };
}

async function keyTarget(values: Values): Promise<KeyTarget> {
  const targets = [values["keys-file"], values.endpoint, values.stage].filter((t) => t !== undefined);
  if (targets.length !== 1)
    throw new UsageError("give exactly one of --keys-file, --endpoint, --stage (none while npm start runs)");
  if (values["keys-file"]) return keysFileTarget(values["keys-file"]);
  const endpoint = urlOption("endpoint", values.endpoint);
  if (endpoint) {
    const client = localClient(endpoint);
    await createTables(client, LOCAL_TABLE_NAMES);
    return tableKeyTarget(keysRepository(documentClientFor(client), LOCAL_TABLE_NAMES.keys));
  }
  const { repository, gateway } = await stageKeys(values.stage);
  return tableKeyTarget(repository, gateway);
}

/** Reports (and with --fix repairs) what is out of step; fails when anything still is. */
async function reconcile(values: Values): Promise<void> {
  if (values["keys-file"] !== undefined || values.endpoint !== undefined)
    throw new UsageError("reconcile compares a deployed stage with its usage plans: give --stage");
  const { repository, gateway } = await stageKeys(values.stage);
  const found = await findDiscrepancies(repository, gateway, THROTTLE_TIER_NAMES);
  const fix = values.fix === true;
  const left = await reportAndRepair(found, { fix, print });
  if (left > 0)
    throw new Error(`${left} of ${found.length} discrepancies left${fix ? "" : " (--fix repairs)"}`);
  say(found.length === 0 ? "keys and usage plans agree" : `repaired ${found.length}`);
}

const COMMANDS: Readonly<
  Record<string, { args: number; run: (values: Values, args: string[]) => Promise<void> }>
> = {
  create: {
    args: 0,
    async run(values) {
      const request = newKeyRequest(values);
      const target = await keyTarget(values);
      const { plainKey, record } = await issueKey(request, target);
      say(`created ${record.keyId} for ${record.partner}: ${terminalJson(describeKey(record))}`);
      say("the key below is shown once: give it to the partner through a secrets manager, never by email");
      print(plainKey);
      await keepKeyScopesAfterChange(target, values);
      await warnCompaniesNotInDirectory(record.companies, values);
    },
  },
  list: {
    args: 0,
    async run(values) {
      const keys = await (await keyTarget(values)).list();
      writeKeyList(keys, process.stdout, { json: values.json === true });
    },
  },
  revoke: {
    args: 1,
    async run(values, [keyId = ""]) {
      const target = await keyTarget(values);
      const before = (await target.list()).find((key) => key.keyId === keyId);
      // Revoking again is allowed: on a stage it repeats the deletion of the key's API Gateway key.
      const revoked = await target.revoke(keyId, new Date());
      if (!revoked) throw new Error(`no key with id ${quoted(keyId)}`);
      if (before?.status === "revoked") {
        say(`${revoked.keyId} (${revoked.partner}) was already revoked`);
        return;
      }
      say(`revoked ${revoked.keyId} (${revoked.partner})`);
      await keepKeyScopesAfterChange(target, values);
    },
  },
  "set-tier": {
    args: 1,
    async run(values, [keyId = ""]) {
      const tier = required("tier", choiceOption("tier", values.tier, THROTTLE_TIER_NAMES));
      const moved = await (await keyTarget(values)).setTier(keyId, tier, THROTTLE_TIERS[tier]);
      if (!moved) throw new Error(`no key with id ${quoted(keyId)}`);
      say(`${moved.keyId} (${moved.partner}) is in tier ${tier}`);
    },
  },
  "set-companies": {
    args: 1,
    async run(values, [keyId = ""]) {
      const companies = companyList(values);
      if (companies.length === 0)
        throw new UsageError("--companies must list the companies the key may read");
      const target = await keyTarget(values);
      const changed = await target.setCompanies(keyId, companies);
      if (!changed) throw new Error(`no key with id ${quoted(keyId)}`);
      say(callerText(`${changed.keyId} (${changed.partner}) reads ${changed.companies.join(", ")}`));
      await keepKeyScopesAfterChange(target, values);
      await warnCompaniesNotInDirectory(changed.companies, values);
    },
  },
  reconcile: { args: 0, run: reconcile },
  scopes: {
    args: 0,
    async run(values) {
      if (values["keys-file"] !== undefined)
        throw new UsageError(
          "a keys file has no directory: the local service keeps its keys' scopes when it starts",
        );
      await keepKeyScopes(await keyTarget(values), values);
    },
  },
};

const COMMAND_NAMES = Object.keys(COMMANDS).join(", ");

async function main({ values, positionals: [name, ...args] }: CommandLine<typeof OPTIONS>): Promise<void> {
  if (name === undefined) throw new UsageError(`a command is required: ${COMMAND_NAMES}`);
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`unknown command ${quoted(name)}: ${COMMAND_NAMES}`);
  if (args.length < command.args) throw new UsageError(`${name} needs a KEY_ID`);
  const extra = args[command.args];
  if (extra !== undefined) throw new UsageError(`unexpected argument ${quoted(extra)} after ${name}`);
  if (values.json !== undefined && name !== "list") throw new UsageError("--json goes with list");
  await command.run(withRunningEngine(values), args);
}

/** With no target given, the running `npm start`'s engine, when one runs. */
function withRunningEngine(values: Values): Values {
  if (values["keys-file"] !== undefined || values.endpoint !== undefined || values.stage !== undefined)
    return values;
  const endpoint = runningEngine();
  return endpoint === undefined ? values : { ...values, endpoint };
}

cli({ name: "keys", usage: USAGE, options: OPTIONS, positionals: true }, main, {
  describeFailure: refusedConnectionLine,
});
