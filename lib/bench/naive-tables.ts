/**
 * The naive yardstick's storage (benchmark only): the common first design. Employee records live
 * whole, as ordinary attributes and maps, in one table keyed by company (PK `companyId`, SK
 * `createdAt#id`), with lower-cased names, the normalized phone and the person's createdAt copied
 * into attributes so FilterExpressions can match and persons can be sorted. A `byPerson` index
 * (ALL projection) fetches a person's employments; persons have their own table keyed by id.
 */
import { CreateTableCommand, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { instantKey } from "../directory/instant-key.js";
import { normalizeName } from "../directory/name.js";
import { normalizePhone } from "../directory/phone.js";
import type { DataFile, SourceEmployee } from "../directory/source.js";

export interface NaiveTables {
  readonly employees: string;
  readonly persons: string;
}

export const NAIVE_BY_PERSON = "byPerson";

export const NAIVE_ATTR = {
  sort: "sk",
  firstName: "firstNameLower",
  lastName: "lastNameLower",
  phone: "phoneNormalized",
  personCreated: "personCreatedAt",
} as const;

export async function createNaiveTables(client: DynamoDBClient, tables: NaiveTables): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: tables.employees,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [
        { AttributeName: "companyId", AttributeType: "S" },
        { AttributeName: NAIVE_ATTR.sort, AttributeType: "S" },
        { AttributeName: "personId", AttributeType: "S" },
      ],
      KeySchema: [
        { AttributeName: "companyId", KeyType: "HASH" },
        { AttributeName: NAIVE_ATTR.sort, KeyType: "RANGE" },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: NAIVE_BY_PERSON,
          KeySchema: [
            { AttributeName: "personId", KeyType: "HASH" },
            { AttributeName: NAIVE_ATTR.sort, KeyType: "RANGE" },
          ],
          Projection: { ProjectionType: "ALL" },
        },
      ],
    }),
  );
  await client.send(
    new CreateTableCommand({
      TableName: tables.persons,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
    }),
  );
}

type Item = Record<string, unknown>;

function naiveEmployeeItem(record: SourceEmployee, personCreatedAt: string | undefined): Item {
  const { personId, ...rest } = record;
  const { firstName, lastName } = record.demographics;
  const phone = record.contact.phone === null ? undefined : normalizePhone(record.contact.phone);
  return {
    ...rest,
    // A GSI key attribute may not be NULL: records with no person are simply absent from byPerson.
    ...(personId === null ? {} : { personId }),
    [NAIVE_ATTR.sort]: `${instantKey(record.createdAt)}#${record.id}`,
    ...(firstName === null ? {} : { [NAIVE_ATTR.firstName]: normalizeName(firstName) }),
    ...(lastName === null ? {} : { [NAIVE_ATTR.lastName]: normalizeName(lastName) }),
    ...(phone?.ok ? { [NAIVE_ATTR.phone]: phone.digits } : {}),
    ...(personCreatedAt === undefined ? {} : { [NAIVE_ATTR.personCreated]: instantKey(personCreatedAt) }),
  };
}

/** The source record back from a naive item: the copied search attributes dropped. */
export function naiveRecord(item: Item): SourceEmployee {
  const {
    [NAIVE_ATTR.sort]: _sort,
    [NAIVE_ATTR.firstName]: _first,
    [NAIVE_ATTR.lastName]: _last,
    [NAIVE_ATTR.phone]: _phone,
    [NAIVE_ATTR.personCreated]: _created,
    personId,
    ...rest
  } = item;
  return { ...rest, personId: typeof personId === "string" ? personId : null } as SourceEmployee;
}

const BATCH = 25;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function writeAll(
  client: DynamoDBDocumentClient,
  table: string,
  items: readonly Item[],
  onWritten: (count: number) => void,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let start = next; start < items.length; start = next) {
      next += BATCH;
      let pending: Item[] = items.slice(start, start + BATCH).map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt >= 10) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed`);
        if (attempt > 0) await sleep(25 * 2 ** attempt);
        const result = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        pending = (result.UnprocessedItems?.[table] ?? []) as Item[];
      }
      onWritten(Math.min(BATCH, items.length - start));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** Loads the same data into the naive tables; onProgress gets items written so far. */
export async function loadNaive(
  client: DynamoDBDocumentClient,
  tables: NaiveTables,
  data: DataFile,
  onProgress: (written: number, total: number) => void = () => {},
): Promise<void> {
  const created = new Map(data.persons.map((person) => [person.id, person.createdAt]));
  const employees = data.employees.map((record) =>
    naiveEmployeeItem(record, record.personId === null ? undefined : created.get(record.personId)),
  );
  const total = employees.length + data.persons.length;
  let written = 0;
  const progress = (count: number) => {
    written += count;
    onProgress(written, total);
  };
  await writeAll(client, tables.persons, data.persons, progress);
  await writeAll(client, tables.employees, employees, progress);
}
