/**
 * What the load-contract tests share: a fresh, empty directory per test on every store (DynamoDB on
 * both engines, and the in-memory one, held to the same rules), load files written to a temp folder
 * and applied through the real use case (`loadFile`), and what a partner sees of the directory,
 * asked through the store port's two searches.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { instantKey } from "../../lib/directory/instant-key.js";
import { normalizePhone } from "../../lib/directory/phone.js";
import { type LoadMode, readChanges } from "../../lib/load/change-lines.js";
import { type LoadFileOptions, type LoadSummary, loadFile } from "../../lib/load/load-file.js";
import { openLoadFile } from "../../lib/load/local-file.js";
import { employmentFilter } from "../../lib/search/matching.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { memoryDirectory } from "../../lib/store/memory/memory-directory.js";
import type { Change, CreatedRange, DirectoryReader, DirectoryWriter } from "../../lib/store/port.js";
import { directoryOn } from "../support/directory-store.js";
import { describeEachEngine, itByTurns, TURN_SEED, type TurnIt } from "../support/engines.js";
import { type EmployeeFields, employeeInput, personInput, testUuid } from "../support/records.js";
import { tableItems } from "../support/table-items.js";

export type Directory = DirectoryReader & DirectoryWriter;

/**
 * Declares `title [memory]`, `title [dynalite]` and `title [ddblocal]`; each test gets an empty
 * directory. The memory store runs every test; each engine every other one, by turns from
 * TURN_SEED (`itByTurns`), so every test meets both engines over an even and an odd seed.
 */
export function describeEachStore(
  title: string,
  suite: (directory: () => Directory, it: TurnIt) => void,
): void {
  describe(`${title} [memory]`, () => {
    let directory: Directory | undefined;
    beforeEach(() => {
      directory = memoryDirectory();
    });
    suite(() => present(directory), it);
  });
  describeEachEngine(`${title} (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
    let directory: Directory | undefined;
    beforeEach(async () => {
      const context = getEngine();
      // Manifest included: the table is as new, generation 0 and no lease.
      await tableItems(documentClientFor(context.client), context.tables.directory).wipe();
      directory = directoryOn(context);
    });
    suite(() => present(directory), itByTurns(TURN_SEED, engineName));
  });
}

function present<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("no directory: the suite's setup failed");
  return value;
}

// ---- fixtures, from the search tests' builders ----

const RUN = 0x10ad;
export const P = (n: number) => testUuid(RUN, 0, n);
export const E = (n: number) => testUuid(RUN, 1, n);
export const COMPANIES = ["acme", "beta", "gamma"] as const;

/** Person n, created on day n of January 2024 unless told otherwise. */
export const person = (n: number, createdAt = `2024-01-${String(n).padStart(2, "0")}T00:00:00Z`) =>
  personInput(P(n), createdAt);

/** Employee record n at acme, unlinked, created on day n of March 2024, with any field changed. */
export const employee = (n: number, fields: Partial<Omit<EmployeeFields, "id">> = {}) =>
  employeeInput({
    id: E(n),
    companyId: "acme",
    personId: null,
    createdAt: `2024-03-${String(n).padStart(2, "0")}T00:00:00Z`,
    ...fields,
  });

type EmployeeInput = ReturnType<typeof employee>;
type Person = ReturnType<typeof person>;

// ---- files ----

let folder: Promise<string> | undefined;
let files = 0;

afterAll(async () => {
  const made = folder;
  folder = undefined;
  if (made) await rm(await made, { recursive: true, force: true });
});

/** Writes `text` to a new file of this test process's temp folder. */
export async function fileWith(text: string): Promise<string> {
  folder ??= mkdtemp(join(tmpdir(), "load-contract-"));
  files += 1;
  const path = join(await folder, `file-${files}.txt`);
  await writeFile(path, text);
  return path;
}

export const dataText = (persons: readonly Person[], employees: readonly EmployeeInput[]) =>
  JSON.stringify({ persons, employees });
export const ndjson = (lines: readonly unknown[]) =>
  `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;

export const upsertPerson = (value: Person) => ({ op: "upsert", person: value });
export const upsertEmployee = (value: EmployeeInput) => ({ op: "upsert", employee: value });
export const deletePerson = (id: string) => ({ op: "delete", person: id });
export const deleteEmployee = (id: string) => ({ op: "delete", employee: id });

/** Change lines as the loader reads them from a file, to apply to a load session directly. */
export async function parsedChanges(lines: readonly unknown[]): Promise<Change[]> {
  const parsed: Change[] = [];
  const file = await openLoadFile(await fileWith(ndjson(lines)));
  try {
    for await (const { change } of readChanges(file.bytes, "changes")) parsed.push(change);
  } finally {
    await file.close();
  }
  return parsed;
}

/**
 * Applies `text` as a load file in `mode`, through the load use case; a snapshot may shrink the
 * directory unless `options` say otherwise (test/load/shrink-guard.integration.test.ts).
 */
export async function load(
  directory: Directory,
  mode: LoadMode,
  text: string,
  options: LoadFileOptions = {},
): Promise<LoadSummary> {
  return loadFile(await fileWith(text), mode, directory, { allowShrink: true, ...options });
}

export const merge = (
  directory: Directory,
  persons: readonly Person[],
  employees: readonly EmployeeInput[],
) => load(directory, "merge", dataText(persons, employees));
export const snapshot = (
  directory: Directory,
  persons: readonly Person[],
  employees: readonly EmployeeInput[],
) => load(directory, "snapshot", dataText(persons, employees));
export const changes = (directory: Directory, lines: readonly unknown[], options: LoadFileOptions = {}) =>
  load(directory, "changes", ndjson(lines), options);

// ---- what a partner sees ----

export interface Filters {
  firstName?: string;
  lastName?: string;
  /** As a partner writes it; normalized here as the route does. */
  phone?: string;
  personId?: string;
  /** createdAt within [from, before), as date-times. */
  from?: string;
  before?: string;
}

const ALL = 1_000;

function queryParts(companies: Iterable<string>, filters: Filters) {
  const phone = filters.phone === undefined ? undefined : normalizePhone(filters.phone);
  if (phone && !phone.ok) throw new Error(`test phone ${filters.phone} does not normalize`);
  const created: CreatedRange = {
    ...(filters.from === undefined ? {} : { from: instantKey(filters.from) }),
    ...(filters.before === undefined ? {} : { before: instantKey(filters.before) }),
  };
  return {
    filter: employmentFilter(companies, {
      firstName: filters.firstName,
      lastName: filters.lastName,
      phone: phone?.digits,
    }),
    personId: filters.personId,
    created,
    offset: 0,
    limit: ALL,
  };
}

/** Ids of the employee records of `companyId` an employees search with `filters` returns, in order. */
export async function employeeIds(directory: Directory, companyId: string, filters: Filters = {}) {
  const page = await directory.employees(queryParts([companyId], filters));
  return page.items.map((record) => record.id);
}

/** Persons a persons search in `companies` returns, each with the ids of its employments there. */
export async function personsFound(
  directory: Directory,
  companies: readonly string[] = COMPANIES,
  filters: Filters = {},
) {
  const page = await directory.persons({ ...queryParts(companies, filters), readable: new Set(companies) });
  return page.items.map(({ person: found, employments }) => ({
    id: found.id,
    employments: employments.map((record) => record.id),
  }));
}

/** Everything searches show: each company's records whole, and every findable person whole. */
export async function seen(directory: Directory) {
  const employees: { [company: string]: unknown } = {};
  for (const company of COMPANIES) employees[company] = await directory.employees(queryParts([company], {}));
  const persons = await directory.persons({ ...queryParts(COMPANIES, {}), readable: new Set(COMPANIES) });
  return { employees, persons };
}
