/**
 * `npm run directory -- get employee|person ID [--stored] | company ID [--records] | verify
 * [--company ID] | repair [--company ID]` with `--endpoint URL | --stage S` and `--table NAME`:
 * shows what a search returns for a record or person (or, `--stored`, the stored source record),
 * looks at a company as searches see it (the committed generation), checks every invariant of the
 * items, or rebuilds the derived items as a load (docs/runbook.md, "Inspect, verify and repair the
 * directory"). Exit 0 on an answer, a clean verify or a repair; 1 for an unknown id, a broken item,
 * a record repair could not heal, or a failure; 2 for a bad call.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { isCompanyId } from "../directory/company-id.js";
import {
  directoryInspection,
  dynamoDirectoryReader,
  problemText,
  repairDerived,
  verifyDirectory,
} from "../store/dynamo/index.js";
import { AWS_SETTLE_MS, documentClientFor } from "../store/dynamo-client.js";
import type { DirectoryReader } from "../store/port.js";
import { type CommandLine, cli, quoted, UsageError, urlOption } from "./args.js";
import { searchedEmployee, searchedPerson } from "./directory-get.js";
import { openDirectoryTable, refusedConnectionLine, type TableFlags } from "./directory-table.js";
import { print, printJson, say } from "./terminal-text.js";

const USAGE = [
  "usage: npm run directory -- COMMAND [--endpoint URL | --stage dev|sandbox|prod] [--table NAME]",
  "  (without either: the running npm start's DynamoDB)",
  "  get employee ID          the employee record as a search returns it now (a key reading every company)",
  "  get person ID            the person with every employment, as a search returns them now",
  "    --stored               instead: the stored source record(s), where and since which load",
  "  company ID [--records]   counts of the company's records and persons (--records: their ids, in order)",
  "  verify [--company ID]    checks every invariant; names the first broken item",
  "  repair [--company ID]    rebuilds entries, orders, name postings and scopes from the records, as a load",
].join("\n");

type Command =
  | { name: "employee" | "person"; id: string; stored: boolean }
  | { name: "company"; id: string; records: boolean }
  | { name: "verify"; companyId?: string }
  | { name: "repair"; companyId?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function uuid(value: string | undefined): string {
  const id = value?.toLowerCase();
  if (!id || !UUID.test(id)) throw new UsageError("ID must be a uuid");
  return id;
}

function companyId(value: string | undefined): string {
  if (!value || !isCompanyId(value)) throw new UsageError("company ID must be 1-128 of A-Z a-z 0-9 . _ -");
  return value;
}

const OPTIONS = {
  endpoint: { type: "string" },
  stage: { type: "string" },
  table: { type: "string" },
  company: { type: "string" },
  records: { type: "boolean" },
  stored: { type: "boolean" },
} as const;

/** The command its positionals name, its arguments checked; the options are checked by `commandOf`. */
function namedCommand({ values, positionals }: CommandLine<typeof OPTIONS>): Command {
  const [name, first, second, ...extra] = positionals;
  const arity = (count: number) => {
    if ([first, second, ...extra].filter((value) => value !== undefined).length !== count)
      throw new UsageError(`${name}: wrong number of arguments`);
  };
  if (name === "get" && (first === "employee" || first === "person")) {
    arity(2);
    return { name: first, id: uuid(second), stored: values.stored === true };
  }
  if (name === "company") {
    arity(1);
    return { name, id: companyId(first), records: values.records === true };
  }
  if (name === "verify" || name === "repair") {
    arity(0);
    const company = values.company === undefined ? {} : { companyId: companyId(values.company) };
    return name === "verify" ? { name, ...company } : { name, ...company };
  }
  throw new UsageError(name ? `unknown command: ${quoted([name, first].join(" ").trim())}` : "no command");
}

function commandOf(line: CommandLine<typeof OPTIONS>): Command {
  const { values } = line;
  const command = namedCommand(line);
  if (values.records !== undefined && command.name !== "company")
    throw new UsageError("--records goes with company");
  if (values.stored !== undefined && command.name !== "employee" && command.name !== "person")
    throw new UsageError("--stored goes with get employee or get person");
  if (values.company !== undefined && command.name !== "verify" && command.name !== "repair")
    throw new UsageError("--company goes with verify or repair");
  if (values.stage && values.endpoint) throw new UsageError("give --stage or --endpoint, not both");
  return command;
}

/** Prints what was found as JSON (exit 0), or says it is not there (exit 1). */
function answer(found: unknown, missing: string): number {
  if (found === undefined) {
    say(missing);
    return 1;
  }
  printJson(found, 2);
  return 0;
}

/** What a search returns (exit 0), or why none returns it (exit 1). */
function searched(found: unknown, what: string, asOf: Date, none: string): number {
  if (found === undefined) {
    say(none);
    return 1;
  }
  say(
    `${what} as a search returns it at ${asOf.toISOString()}, to a key reading every company (--stored: as stored)`,
  );
  printJson(found, 2);
  return 0;
}

type Inspection = ReturnType<typeof directoryInspection>;

async function getEmployee(inspection: Inspection, reader: DirectoryReader, id: string, stored: boolean) {
  const found = await inspection.employee(id);
  const missing = `no employee record ${id} in the directory`;
  if (stored || found === undefined) return answer(found, missing);
  const asOf = new Date();
  const none = `employee record ${id} was changed by a load between reading and searching it: run the command again`;
  return searched(await searchedEmployee(reader, found.record, asOf), `employee record ${id}`, asOf, none);
}

async function getPerson(inspection: Inspection, reader: DirectoryReader, id: string, stored: boolean) {
  const found = await inspection.person(id);
  const missing = `no person ${id} in the directory`;
  if (stored || found === undefined) return answer(found, missing);
  const asOf = new Date();
  const companies = found.employees.map((employee) => employee.companyId);
  const none =
    companies.length === 0
      ? `person ${id} is stored with no employee records, so no search returns them (--stored shows the person)`
      : `person ${id} was changed by a load between reading and searching: run the command again`;
  return searched(await searchedPerson(reader, id, companies, asOf), `person ${id}`, asOf, none);
}

async function verify(documents: DynamoDBDocumentClient, table: string, companyId: string | undefined) {
  const report = await verifyDirectory(documents, table, { companyId });
  const scope = companyId === undefined ? "the whole table" : `company ${companyId}`;
  if (report.problem) {
    say(`broken at generation ${report.committed} (${scope}): ${problemText(report.problem)}`);
    return 1;
  }
  print(
    `ok: generation ${report.committed}, ${scope}: ${report.records} records, ${report.persons} persons, ${report.items} items read`,
  );
  return 0;
}

/** What repair cannot rebuild: what the rest is derived from. */
const NOT_REBUILT =
  "not rebuilt (the rest is derived from them): record contents, locations, bundles; run verify";

async function repair(
  documents: DynamoDBDocumentClient,
  table: string,
  companyId: string | undefined,
  local: boolean,
) {
  const { companies, unhealed } = await repairDerived(documents, table, {
    ...(companyId === undefined ? {} : { companyId }),
    ...(local ? {} : { settleMs: AWS_SETTLE_MS }),
  });
  print(`repaired: entries, orders, name postings and kept scopes of ${companies.length} companies rebuilt`);
  print(NOT_REBUILT);
  for (const message of unhealed) say(`not healed: ${message}`);
  return unhealed.length > 0 ? 1 : 0;
}

/** Runs the command; the exit code. */
async function run(command: Command, flags: TableFlags): Promise<number> {
  const { client, table, local } = await openDirectoryTable(flags);
  const documents = documentClientFor(client);
  const inspection = directoryInspection(documents, table);
  const reader = dynamoDirectoryReader(documents, table, { answerCacheBytes: 0 });
  try {
    if (command.name === "verify") return await verify(documents, table, command.companyId);
    if (command.name === "repair") return await repair(documents, table, command.companyId, local);
    if (command.name === "company")
      return answer(
        await inspection.company(command.id, command.records),
        `no records of company ${command.id} in the directory`,
      );
    if (command.name === "employee") return await getEmployee(inspection, reader, command.id, command.stored);
    return await getPerson(inspection, reader, command.id, command.stored);
  } finally {
    client.destroy();
  }
}

async function main(commandLine: CommandLine<typeof OPTIONS>): Promise<void> {
  const command = commandOf(commandLine);
  const { stage, endpoint, table } = commandLine.values;
  const flags: TableFlags = {
    ...(stage === undefined ? {} : { stage }),
    ...(endpoint === undefined ? {} : { endpoint: urlOption("endpoint", endpoint) ?? endpoint }),
    ...(table === undefined ? {} : { table }),
  };
  process.exitCode = await run(command, flags);
}

cli({ name: "directory", usage: USAGE, options: OPTIONS, positionals: true }, main, {
  describeFailure: refusedConnectionLine,
});
