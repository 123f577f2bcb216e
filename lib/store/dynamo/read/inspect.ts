/**
 * What an operator looks at (`npm run directory -- get …|company …`): one record, one person, or
 * one company's counts, as searches see them, at the committed generation.
 */
import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import type { SourceEmployee, SourcePerson } from "../../../directory/source.js";
import { orderKeyParts } from "../../binary-keys.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import { abandonedOf, readManifest } from "../manifest/index.js";
import {
  bytesOf,
  companyItemVisible,
  companyPartition,
  decodeLocation,
  FAMILY,
  type Generation,
  type Item,
  LOCATION_SORT,
  type Location,
  locationPartition,
  locationSeenAt,
  orderOfSort,
  queryAll,
} from "../model/index.js";
import { type DirectoryReads, directoryReads } from "./reads.js";

/** A location's value at generation `at`: current when written at or before it, else the one before. */
export function locationAt(item: Item, at: Generation): { gen: number; value: Location } | undefined {
  const stored = locationSeenAt(item, at);
  if (!stored) return undefined;
  if (stored.gen <= at.gen) return stored.current && { gen: stored.gen, value: stored.current };
  const previous = stored.previous;
  return previous && previous.gen <= at.gen
    ? { gen: previous.gen, value: decodeLocation(previous.data) }
    : undefined;
}

export interface StoredEmployee {
  readonly committed: number;
  readonly stored: { readonly companyId: string; readonly generation: number };
  readonly record: SourceEmployee;
}

export interface StoredPerson {
  readonly committed: number;
  readonly stored: { readonly generation: number; readonly parts: number };
  readonly person: SourcePerson;
  readonly employees: readonly SourceEmployee[];
}

export interface CompanySummary {
  readonly companyId: string;
  readonly committed: number;
  readonly employeeRecords: number;
  readonly persons: number;
  readonly recordsWithNames: number;
  readonly recordsWithPhones: number;
  /** Record ids in the searches' order (createdAt, id), when asked for. */
  readonly recordIds?: readonly string[];
}

interface Table {
  readonly client: DynamoDBDocumentClient;
  readonly table: string;
  readonly reads: DirectoryReads;
}

/** The committed generation, and the abandoned ones no reader sees. */
async function committed({ client, table }: Table): Promise<Generation> {
  const manifest = await readManifest(client, table);
  return { gen: manifest.committed, abandoned: abandonedOf(manifest) };
}

/** The record with this id as searches see it; undefined when there is none. */
async function employee(source: Table, id: string): Promise<StoredEmployee | undefined> {
  const { client, table, reads } = source;
  const at = await committed(source);
  const { Item } = await client.send(
    new GetCommand({
      TableName: table,
      Key: { [A.partition]: locationPartition(id), [A.sort]: LOCATION_SORT },
      ConsistentRead: true,
    }),
  );
  const location = Item && locationAt(Item, at);
  if (!location) return undefined;
  const { companyId, order } = location.value;
  const [record] = await reads.recordsByKey(companyId, [{ order, gen: location.gen }], {
    ...at,
    consistent: true,
  });
  if (!record) throw new Error(`record item of ${id} is missing`);
  return { committed: at.gen, stored: { companyId, generation: location.gen }, record };
}

/** The person with all their records (their bundle); undefined when there is no such person. */
async function person(source: Table, id: string): Promise<StoredPerson | undefined> {
  const at = await committed(source);
  const found = await source.reads.bundle(id, { ...at, consistent: true });
  if (!found?.bundle.person) return undefined;
  return {
    committed: at.gen,
    stored: { generation: found.gen, parts: found.parts },
    person: found.bundle.person,
    employees: found.bundle.employees,
  };
}

/** Counts of a company's visible entries (keys only are read, not the records); undefined when empty. */
async function company(
  source: Table,
  companyId: string,
  withRecordIds: boolean,
): Promise<CompanySummary | undefined> {
  const at = await committed(source);
  const items = await queryAll(source.client, {
    TableName: source.table,
    ConsistentRead: true,
    KeyConditionExpression: "#p = :p",
    ProjectionExpression: "#p, #s, #x, #t",
    ExpressionAttributeNames: { "#p": A.partition, "#s": A.sort, "#x": A.supersededAt, "#t": A.phone },
    ExpressionAttributeValues: { ":p": companyPartition(companyId) },
  });
  const visible = items.filter((item) => companyItemVisible(item, at));
  const ofFamily = (family: number) => visible.filter((item) => bytesOf(item[A.sort])[0] === family);
  const records = ofFamily(FAMILY.record);
  const persons = ofFamily(FAMILY.personKey).length;
  if (records.length === 0 && persons === 0) return undefined;
  return {
    companyId,
    committed: at.gen,
    employeeRecords: records.length,
    persons,
    recordsWithNames: ofFamily(FAMILY.employmentNames).length,
    recordsWithPhones: records.filter((item) => item[A.phone] !== undefined).length,
    ...(withRecordIds
      ? { recordIds: records.map((item) => orderKeyParts(orderOfSort(bytesOf(item[A.sort]))).id) }
      : {}),
  };
}

export function directoryInspection(client: DynamoDBDocumentClient, table: string) {
  const source: Table = { client, table, reads: directoryReads(client, table) };
  return {
    employee: (id: string) => employee(source, id),
    person: (id: string) => person(source, id),
    company: (companyId: string, withRecordIds: boolean) => company(source, companyId, withRecordIds),
  };
}
