/**
 * Every read of the directory table. Searches read the narrow indexes to find, sort and window
 * candidates, then fetch whole records only for the page they return.
 */
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
} from "@aws-sdk/lib-dynamodb";
import type { SourceEmployee, SourcePerson } from "../directory/source.js";
import {
  type DirectoryItem,
  employeeFromItem,
  type ItemKey,
  isPersonItem,
  type NarrowEntry,
  narrowEntry,
  personFromItem,
} from "./directory-items.js";
import { DIRECTORY_ATTR as A } from "./tables.js";

/** Bounds on an employment's createdAt, as instant keys: `from` inclusive, `before` exclusive. */
export interface CreatedRange {
  readonly from?: string;
  readonly before?: string;
}

export interface PersonRecords {
  readonly person: SourcePerson | undefined;
  readonly employees: SourceEmployee[];
}

export interface DirectoryRepository {
  /** Narrow entries of one company's employments, in createdAt, id order (byCompany index). */
  companyEntries(companyId: string, range?: CreatedRange): Promise<NarrowEntry[]>;
  /** Narrow entries of the employments whose stored phone normalizes to `phone` (byPhone index). */
  phoneEntries(phone: string, companyId?: string, range?: CreatedRange): Promise<NarrowEntry[]>;
  /** A person (or unlinked record partition) with its employee records, optionally of one company. */
  partition(partition: string, companyId?: string, range?: CreatedRange): Promise<PersonRecords>;
  /** Whole employee records for the given keys, in the order of the keys. */
  employees(keys: readonly ItemKey[]): Promise<SourceEmployee[]>;
}

const BATCH_GET_LIMIT = 100;
const MAX_BATCH_ATTEMPTS = 6;
const INDEX = { byCompany: "byCompany", byPhone: "byPhone" } as const;

/** The sort-key condition for one company's employments in a created range; null when empty. */
export function companySortRange(
  companyId: string,
  range: CreatedRange = {},
): { low: string; high: string } | null {
  const low = `${companyId}#${range.from ?? ""}`;
  // Keys are `company#<instant>#id`: `company#<before>` is below every key at that instant, and
  // `~` sorts above every instant key (they start with a digit).
  const high = `${companyId}#${range.before ?? "~"}`;
  return low <= high ? { low, high } : null;
}

/** Every item of a Query, following LastEvaluatedKey page after page. */
export async function queryAllPages(
  client: DynamoDBDocumentClient,
  input: QueryCommandInput,
): Promise<DirectoryItem[]> {
  const items: DirectoryItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const backoff = (attempt: number) => 25 * 2 ** attempt * (0.5 + Math.random() / 2);
const keyOf = (item: DirectoryItem) => `${String(item[A.partition])}\u0000${String(item[A.sort])}`;

export function directoryRepository(client: DynamoDBDocumentClient, tableName: string): DirectoryRepository {
  const queryAll = (input: QueryCommandInput) => queryAllPages(client, input);

  const queryCompanyRange = async (
    indexName: string | undefined,
    partitionAttr: string,
    partitionValue: string,
    companyId: string | undefined,
    range: CreatedRange | undefined,
  ): Promise<DirectoryItem[]> => {
    const names: Record<string, string> = { "#pk": partitionAttr };
    const values: Record<string, unknown> = { ":pk": partitionValue };
    let condition = "#pk = :pk";
    if (companyId !== undefined) {
      const bounds = companySortRange(companyId, range);
      if (!bounds) return [];
      names["#sk"] = A.sort;
      values[":low"] = bounds.low;
      values[":high"] = bounds.high;
      condition += " AND #sk BETWEEN :low AND :high";
    }
    return queryAll({
      TableName: tableName,
      ...(indexName ? { IndexName: indexName } : {}),
      KeyConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
  };

  return {
    async companyEntries(companyId, range) {
      const items = await queryCompanyRange(INDEX.byCompany, A.company, companyId, companyId, range);
      return items.map(narrowEntry);
    },

    async phoneEntries(phone, companyId, range) {
      const items = await queryCompanyRange(INDEX.byPhone, A.phone, phone, companyId, range);
      return items.map(narrowEntry);
    },

    async partition(partition, companyId, range) {
      const items = await queryCompanyRange(undefined, A.partition, partition, companyId, range);
      let person: SourcePerson | undefined;
      const employees: SourceEmployee[] = [];
      for (const item of items) {
        if (isPersonItem(item)) person = personFromItem(item);
        else employees.push(employeeFromItem(item));
      }
      return { person, employees };
    },

    async employees(keys) {
      const found = new Map<string, DirectoryItem>();
      for (let offset = 0; offset < keys.length; offset += BATCH_GET_LIMIT) {
        let pending: Record<string, unknown>[] = keys
          .slice(offset, offset + BATCH_GET_LIMIT)
          .map((key) => ({ [A.partition]: key.partition, [A.sort]: key.sort }));
        for (let attempt = 0; pending.length > 0; attempt += 1) {
          if (attempt >= MAX_BATCH_ATTEMPTS)
            throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
          if (attempt > 0) await sleep(backoff(attempt));
          const result = await client.send(
            new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }),
          );
          for (const item of result.Responses?.[tableName] ?? []) found.set(keyOf(item), item);
          pending = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
        }
      }
      return keys.map((key) => {
        const item = found.get(`${key.partition}\u0000${key.sort}`);
        // The key came from an index read moments ago; a record gone since is a live-data race.
        if (!item) throw new Error("employee record disappeared between index read and fetch");
        return employeeFromItem(item);
      });
    },
  };
}
