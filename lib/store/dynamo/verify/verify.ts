/**
 * `npm run directory -- verify`: every invariant of docs/data-model.md checked at the committed
 * generation, naming the first broken item. The whole table is read by a Scan (or, for one company,
 * its partition, the bundles of its persons and the locations of its records), page by page; what
 * is kept in memory is a summary per visible record, entry, bundle and location (ids, order keys,
 * hashes and name pairs), never the records: about 1.3 KB per record (one person each, measured
 * before name postings; their tallies add about 200 bytes a named record, estimated), so a million
 * records need about 1.5 GB; `--company` holds one company's. Each compressed value is decompressed
 * twice (the second time without its last byte, which must fail: bytes past its end are damage).
 */
import { type DynamoDBDocumentClient, GetCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { orderKeyParts } from "../../binary-keys.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  batchGet,
  companyPartition,
  FAMILY,
  type Item,
  inParallel,
  keyText,
  LOCATION_SORT,
  locationPartition,
  MANIFEST_KEY,
  personPartition,
  queryPages,
} from "../model/index.js";
import { entryKeyParts, TableSurvey } from "./table-survey.js";
import { checkLinks } from "./verify-links.js";
import { checkOrders } from "./verify-orders.js";
import { allowances, checkManifest, type Problem } from "./verify-rules.js";

export type { Problem } from "./verify-rules.js";

export interface VerifyReport {
  readonly committed: number;
  /** Items read. */
  readonly items: number;
  readonly records: number;
  readonly persons: number;
  /** The first broken item; absent when every invariant holds. */
  readonly problem?: Problem;
}

const PERSONS_AT_ONCE = 32;

export const problemText = (problem: Problem) => {
  const [p, s] = keyText(problem.key).split("/");
  return `p=${p} s=${s}: ${problem.what}`;
};

export async function verifyDirectory(
  client: DynamoDBDocumentClient,
  table: string,
  options: { companyId?: string; now?: () => number } = {},
): Promise<VerifyReport> {
  const manifestItem = async () =>
    (
      await client.send(
        new GetCommand({
          TableName: table,
          Key: { [A.partition]: MANIFEST_KEY.p, [A.sort]: MANIFEST_KEY.s },
          ConsistentRead: true,
        }),
      )
    ).Item;
  const before = await manifestItem();
  const { manifest, problem: broken } = checkManifest(before, (options.now ?? Date.now)());
  const survey = new TableSurvey(allowances(manifest));
  let items = 0;
  const feed = (page: readonly Item[]): Problem | undefined => {
    for (const item of page) {
      items += 1;
      const problem = survey.add(item);
      if (problem) return problem;
    }
    return undefined;
  };
  let problem = broken;
  if (!problem) {
    problem =
      options.companyId === undefined
        ? await scanAll(client, table, feed)
        : await readCompany(client, table, options.companyId, survey, feed);
  }
  problem ??=
    survey.endOfPages() ??
    survey.incomplete() ??
    checkLinks(survey, options.companyId) ??
    checkOrders(survey) ??
    survey.unregisteredPostings() ??
    survey.grams.check(survey.namesEntries(), (manifest.lease?.gen ?? 0) > manifest.committed);
  // A load that committed meanwhile makes the reads disagree: say so rather than blame an item.
  const after = await manifestItem();
  if (after?.committed !== before?.committed)
    problem = { key: MANIFEST_KEY, what: "a load committed while verify read the table: run verify again" };
  return {
    committed: manifest.committed,
    items,
    records: survey.records.size,
    persons: survey.bundles.size,
    ...(problem ? { problem } : {}),
  };
}

type Feed = (page: readonly Item[]) => Problem | undefined;

async function scanAll(client: DynamoDBDocumentClient, table: string, feed: Feed) {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    const problem = feed(page.Items ?? []);
    if (problem) return problem;
    start = page.LastEvaluatedKey;
  } while (start);
  return undefined;
}

/** A whole partition, page by page, until `onPage` finds a problem. */
async function queryPartition(
  client: DynamoDBDocumentClient,
  table: string,
  partition: Uint8Array,
  onPage: (page: Item[]) => Problem | undefined,
) {
  const pages = queryPages(client, {
    TableName: table,
    ConsistentRead: true,
    KeyConditionExpression: "#p = :p",
    ExpressionAttributeNames: { "#p": A.partition },
    ExpressionAttributeValues: { ":p": partition },
  });
  for await (const page of pages) {
    const problem = onPage(page);
    if (problem) return problem;
  }
  return undefined;
}

/** The persons a company's items name: records' persons, and the persons of person entries. */
function personsOf(survey: TableSurvey): string[] {
  const persons = new Set<string>();
  for (const record of survey.records.values())
    if (record.expected.personId) persons.add(record.expected.personId);
  for (const logical of survey.entries.keys()) {
    const { family, order } = entryKeyParts(logical);
    if (family !== FAMILY.employmentKey && family !== FAMILY.employmentNames)
      persons.add(orderKeyParts(order).id);
  }
  return [...persons].sort();
}

/** The persons' bundles, fed in id order. */
async function readBundles(
  client: DynamoDBDocumentClient,
  table: string,
  ids: readonly string[],
  feed: Feed,
): Promise<Problem | undefined> {
  for (let i = 0; i < ids.length; i += PERSONS_AT_ONCE) {
    // Read in parallel, fed in id order: the first problem named is the same on every run.
    const bundles = await inParallel(ids.slice(i, i + PERSONS_AT_ONCE), PERSONS_AT_ONCE, async (id) => {
      const pages: Item[] = [];
      await queryPartition(client, table, personPartition(id), (page) => void pages.push(...page));
      return pages;
    });
    for (const items of bundles) {
      const problem = feed(items);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** One company: its partition, then its persons' bundles, then its records' locations. */
async function readCompany(
  client: DynamoDBDocumentClient,
  table: string,
  companyId: string,
  survey: TableSurvey,
  feed: Feed,
): Promise<Problem | undefined> {
  const own = await queryPartition(client, table, companyPartition(companyId), feed);
  if (own) return own;
  const bundles = await readBundles(client, table, personsOf(survey), feed);
  if (bundles) return bundles;
  const recordIds = new Set([...survey.records.values()].map((record) => record.id));
  for (const bundle of survey.bundles.values())
    for (const [id, location] of bundle.records) if (location.companyId === companyId) recordIds.add(id);
  const keys = [...recordIds].sort().map((id) => ({ p: locationPartition(id), s: LOCATION_SORT }));
  const locations = await batchGet(client, table, keys, true);
  return feed(
    keys.flatMap((key): Item[] => {
      const item = locations.get(keyText(key));
      return item ? [item] : [];
    }),
  );
}
