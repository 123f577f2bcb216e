/**
 * A small directory loaded in two loads (so it holds generations 1 and 2, a changed record, a
 * record moved to another person and a deleted one), for tests that corrupt its items one kind
 * at a time, and which of them to corrupt (raw access to items: test/support/table-items.ts).
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DemoRandom } from "../../../lib/directory/demo-random.js";
import type { SourceEmployee } from "../../../lib/directory/source.js";
import { keepScopes } from "../../../lib/load/keep-scopes.js";
import { loadData } from "../../../lib/load/load-file.js";
import { namesOf } from "../../../lib/search/matching.js";
import { dynamoDirectory } from "../../../lib/store/dynamo/index.js";
import { type Item, keyOf } from "../../../lib/store/dynamo/model/batch.js";
import { isCompanyPartition, isGramBlockSort } from "../../../lib/store/dynamo/model/layout.js";
import { dataFileOf, employeeInput, personInput, testUuid } from "../../support/records.js";

export const P1 = testUuid(0x7e, 0, 1);
export const P2 = testUuid(0x7e, 0, 2);
export const P3 = testUuid(0x7e, 0, 3);
export const E1 = testUuid(0x7e, 1, 1);
export const E2 = testUuid(0x7e, 1, 2);
export const E3 = testUuid(0x7e, 1, 3);
export const E4 = testUuid(0x7e, 1, 4);
export const E5 = testUuid(0x7e, 1, 5);

const persons = [
  personInput(P1, "2024-01-01T00:00:00Z"),
  personInput(P2, "2024-01-02T00:00:00Z"),
  personInput(P3, "2024-01-03T00:00:00Z"),
];
const at = (day: number) => `2024-03-0${day}T00:00:00Z`;
const e1 = employeeInput({ id: E1, companyId: "acme", personId: P1, createdAt: at(1) });
const e2 = { id: E2, companyId: "acme", personId: P1, createdAt: at(2), phone: null };
const e3 = { id: E3, companyId: "beta", personId: P2, createdAt: at(3), firstName: null, lastName: null };
const e4 = employeeInput({ id: E4, companyId: "beta", personId: null, createdAt: at(4) });
const e5 = employeeInput({ id: E5, companyId: "acme", personId: P3, createdAt: at(5) });

/** Generation 1: every record; generation 2 (a snapshot): E2 renamed, E3 moved to P3, E5 deleted. */
export const FIRST = dataFileOf(persons, [e1, employeeInput(e2), employeeInput(e3), e4, e5]);
export const SECOND = dataFileOf(persons, [
  e1,
  employeeInput({ ...e2, lastName: "Okafor" }),
  employeeInput({ ...e3, personId: P3 }),
  e4,
]);
/** The fixture's companies, which one key's scope keeps (`loadTwiceAndKeepScope`). */
export const COMPANIES = ["acme", "beta"];

export const recordOf = (id: string): SourceEmployee => {
  const record = SECOND.employees.find((employee) => employee.id === id);
  if (!record) throw new Error(`no record ${id} in SECOND`);
  return record;
};

/**
 * An item's family: its partition's kind (a company's name, or the marker byte of the others) and
 * the first two bytes of its sort key. Items of one family are written and read by one code path.
 */
export function familyOf(item: Item): string {
  const { p, s } = keyOf(item);
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
  // A gram's blocks share the postings' first bytes: a family of their own, so each is damaged too.
  const kind = isGramBlockSort(s) ? " block" : "";
  return `${isCompanyPartition(p) ? "company" : hex(p.slice(0, 1))} ${hex(s.slice(0, 2))}${kind}`;
}

/**
 * Which items a test damages one at a time, as (family, rank within it in table order): of every
 * family its first, its last and one drawn. Every kind of item in each run, every item over runs.
 */
export function sampleOfEachFamily(items: readonly Item[], random: DemoRandom): [string, number][] {
  const sizes = new Map<string, number>();
  for (const item of items) sizes.set(familyOf(item), (sizes.get(familyOf(item)) ?? 0) + 1);
  return [...sizes].flatMap(([family, size]) =>
    [...new Set([0, size - 1, random.int(0, size - 1)])].map((rank): [string, number] => [family, rank]),
  );
}

/** The item of `family` at `rank` among `items`. */
export const itemAt = (items: readonly Item[], [family, rank]: [string, number]): Item | undefined =>
  items.filter((item) => familyOf(item) === family)[rank];

export async function loadTwice(documents: DynamoDBDocumentClient, table: string): Promise<void> {
  const directory = dynamoDirectory(documents, table, { writer: { graceMs: 0 } });
  await loadData(FIRST, directory, "snapshot");
  await loadData(SECOND, directory, "snapshot");
}

/** `loadTwice`, then acme and beta kept as one key's scope: an item of every family is stored. */
export async function loadTwiceAndKeepScope(documents: DynamoDBDocumentClient, table: string): Promise<void> {
  await loadTwice(documents, table);
  await keepScopes(dynamoDirectory(documents, table, { writer: { graceMs: 0 } }), [["acme", "beta"]]);
}

/**
 * Searches of every kind the derived items serve (orders, name postings, the scope's order and
 * postings), read uncached at the committed generation; a search that fails gives its message.
 */
export async function fixtureSearches(documents: DynamoDBDocumentClient, table: string): Promise<unknown[]> {
  const reader = dynamoDirectory(documents, table, { reader: { manifestTtlMs: 0, answerCacheBytes: 0 } });
  const page = { created: {}, offset: 0, limit: 10 };
  const fragments = SECOND.employees.flatMap((record) => {
    const { firstName, lastName } = namesOf(record);
    return [
      ...(firstName ? [{ firstName: firstName.slice(0, 3) }, { firstName: firstName.slice(0, 2) }] : []),
      ...(lastName ? [{ lastName: lastName.slice(1, 5) }] : []),
    ];
  });
  const failed = (error: unknown) => ({ failed: (error as Error).message });
  const answers: unknown[] = [];
  for (const filter of [{}, ...fragments]) {
    for (const company of COMPANIES)
      answers.push(
        await reader
          .employees({ filter: { companies: new Set([company]), ...filter }, ...page })
          .catch(failed),
      );
    const scope = new Set(COMPANIES);
    answers.push(
      await reader
        .persons({ filter: { companies: scope, ...filter }, readable: scope, ...page })
        .catch(failed),
    );
  }
  return answers;
}
