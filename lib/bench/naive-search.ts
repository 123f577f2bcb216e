/**
 * The naive yardstick's searches (benchmark only): the same requests and answers as the real use
 * cases, served the common way. Every search Queries whole records of each company in scope and
 * lets a FilterExpression drop the misses (billed all the same); persons are then assembled from
 * the byPerson index. The benchmark asserts its answers equal the real ones.
 */
import { BatchGetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type Principal, requireCompany } from "../auth/principal.js";
import type { ApiEmployeesSearchResponse, ApiPersonsSearchResponse } from "../directory/api-schema.js";
import { toApiEmployee, toApiPerson } from "../directory/derive.js";
import { normalizeName } from "../directory/name.js";
import type { SourceEmployee, SourcePerson } from "../directory/source.js";
import { ForbiddenError } from "../http/errors.js";
import { compareByCreated } from "../search/matching.js";
import { pageOf } from "../search/paging.js";
import {
  createdRange,
  type EmployeesSearchRequest,
  type PersonsSearchRequest,
} from "../search/request-schemas.js";
import { queryAll as queryAllPages } from "../store/dynamo/index.js";
import { NAIVE_ATTR, NAIVE_BY_PERSON, type NaiveTables, naiveRecord } from "./naive-tables.js";

type Item = Record<string, unknown>;

interface Expression {
  conditions: string[];
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/** FilterExpression clauses for the name, phone and person filters. */
function filterClauses(request: {
  firstName?: string | undefined;
  lastName?: string | undefined;
  phone?: string | undefined;
  personId?: string | undefined;
}): Expression {
  const expression: Expression = { conditions: [], names: {}, values: {} };
  const add = (name: string, attribute: string, value: string, contains: boolean) => {
    expression.names[`#${name}`] = attribute;
    expression.values[`:${name}`] = value;
    expression.conditions.push(contains ? `contains(#${name}, :${name})` : `#${name} = :${name}`);
  };
  if (request.firstName !== undefined)
    add("fn", NAIVE_ATTR.firstName, normalizeName(request.firstName), true);
  if (request.lastName !== undefined) add("ln", NAIVE_ATTR.lastName, normalizeName(request.lastName), true);
  if (request.phone !== undefined) add("ph", NAIVE_ATTR.phone, request.phone, false);
  if (request.personId !== undefined) add("pid", "personId", request.personId, false);
  return expression;
}

/** Queries one partition (table or byPerson) with the filter; the key condition is given. */
function queryFiltered(
  client: DynamoDBDocumentClient,
  table: string,
  key: Expression,
  filter: Expression,
  indexName?: string,
): Promise<Item[]> {
  const conditions = filter.conditions;
  const names = { ...key.names, ...filter.names };
  return queryAllPages(client, {
    TableName: table,
    ...(indexName ? { IndexName: indexName } : {}),
    KeyConditionExpression: key.conditions.join(" AND "),
    ...(conditions.length > 0 ? { FilterExpression: conditions.join(" AND ") } : {}),
    // DynamoDB refuses an empty ExpressionAttributeNames.
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: { ...key.values, ...filter.values },
  });
}

/** The company partition, with the created range as a sort-key condition (`createdKey#id`). */
function companyKey(companyId: string, range: { from?: string; before?: string }): Expression {
  const key: Expression = {
    conditions: ["companyId = :c"],
    names: {},
    values: { ":c": companyId },
  };
  if (range.from !== undefined || range.before !== undefined) {
    key.names["#sk"] = NAIVE_ATTR.sort;
    if (range.from !== undefined && range.before !== undefined) {
      key.conditions.push("#sk BETWEEN :from AND :before");
    } else key.conditions.push(range.from !== undefined ? "#sk >= :from" : "#sk < :before");
    if (range.from !== undefined) key.values[":from"] = range.from;
    if (range.before !== undefined) key.values[":before"] = range.before;
  }
  return key;
}

export async function naiveSearchEmployees(
  client: DynamoDBDocumentClient,
  tables: NaiveTables,
  request: EmployeesSearchRequest,
  principal: Principal,
  asOf: Date,
): Promise<ApiEmployeesSearchResponse> {
  requireCompany(principal, request.companyId);
  const items = await queryFiltered(
    client,
    tables.employees,
    companyKey(request.companyId, createdRange(request)),
    filterClauses(request),
  );
  const { page, pagination } = pageOf(items.map(naiveRecord), request.offset, request.limit);
  const options = {
    asOf,
    ...(request.externalIdSystems ? { externalIdSystems: request.externalIdSystems } : {}),
  };
  return {
    asOf: asOf.toISOString(),
    employees: page.map((record) => toApiEmployee(record, options)),
    pagination,
  };
}

/** Person ids in scope whose one employment matches every filter, with the person's createdAt key. */
async function naiveCandidates(
  client: DynamoDBDocumentClient,
  tables: NaiveTables,
  request: PersonsSearchRequest,
  scope: readonly string[],
): Promise<Map<string, string>> {
  // With a person id the byPerson key condition selects it; a FilterExpression may not name a key.
  const filter = filterClauses({ ...request, personId: undefined });
  const range = createdRange(request);
  if (range.from !== undefined) {
    filter.names["#pc"] = NAIVE_ATTR.personCreated;
    filter.values[":pcFrom"] = range.from;
    filter.conditions.push("#pc >= :pcFrom");
  }
  if (range.before !== undefined) {
    filter.names["#pc"] = NAIVE_ATTR.personCreated;
    filter.values[":pcBefore"] = range.before;
    filter.conditions.push("#pc < :pcBefore");
  }
  let items: Item[];
  if (request.personId !== undefined) {
    const key = { conditions: ["personId = :p"], names: {}, values: { ":p": request.personId } };
    items = await queryFiltered(client, tables.employees, key, filter, NAIVE_BY_PERSON);
  } else {
    filter.conditions.push("attribute_exists(personId)");
    const perCompany = await Promise.all(
      scope.map((companyId) => queryFiltered(client, tables.employees, companyKey(companyId, {}), filter)),
    );
    items = perCompany.flat();
  }
  const inScope = new Set(scope);
  const candidates = new Map<string, string>();
  for (const item of items) {
    const { personId, companyId } = item;
    const created = item[NAIVE_ATTR.personCreated];
    if (typeof personId !== "string" || typeof created !== "string") continue;
    if (inScope.has(String(companyId))) candidates.set(personId, created);
  }
  return candidates;
}

export async function naiveSearchPersons(
  client: DynamoDBDocumentClient,
  tables: NaiveTables,
  request: PersonsSearchRequest,
  principal: Principal,
  asOf: Date,
): Promise<ApiPersonsSearchResponse> {
  const { companyId } = request;
  if (companyId !== undefined && !principal.companies.has(companyId)) {
    throw new ForbiddenError(`key ${principal.keyId} may not read company ${companyId}`);
  }
  const scope = companyId === undefined ? [...principal.companies] : [companyId];
  const candidates = await naiveCandidates(client, tables, request, scope);
  const sorted = [...candidates].map(([id, createdKey]) => ({ id, createdKey })).sort(compareByCreated);
  const { page, pagination } = pageOf(sorted, request.offset, request.limit);

  const [persons, employments] = await Promise.all([
    fetchPersons(
      client,
      tables,
      page.map(({ id }) => id),
    ),
    Promise.all(
      page.map(({ id }) =>
        queryAllPages(client, {
          TableName: tables.employees,
          IndexName: NAIVE_BY_PERSON,
          KeyConditionExpression: "personId = :p",
          ExpressionAttributeValues: { ":p": id },
        }),
      ),
    ),
  ]);
  const options = {
    asOf,
    ...(request.externalIdSystems ? { externalIdSystems: request.externalIdSystems } : {}),
  };
  return {
    asOf: asOf.toISOString(),
    persons: page.map(({ id }, i) => {
      const person = persons.get(id);
      if (!person) throw new Error(`naive: person ${id} not found`);
      // byPerson sorts by `createdKey#id`, the order the contract asks for.
      const records: SourceEmployee[] = (employments[i] ?? [])
        .map(naiveRecord)
        .filter((record) => principal.companies.has(record.companyId));
      return toApiPerson(
        person,
        records.map((record) => toApiEmployee(record, options)),
      );
    }),
    pagination,
  };
}

async function fetchPersons(
  client: DynamoDBDocumentClient,
  tables: NaiveTables,
  ids: readonly string[],
): Promise<Map<string, SourcePerson>> {
  const found = new Map<string, SourcePerson>();
  for (let offset = 0; offset < ids.length; offset += 100) {
    let keys: Item[] = ids.slice(offset, offset + 100).map((id) => ({ id }));
    for (let attempt = 0; keys.length > 0; attempt++) {
      if (attempt >= 6) throw new Error("naive: BatchGetItem left keys unprocessed");
      const result = await client.send(
        new BatchGetCommand({ RequestItems: { [tables.persons]: { Keys: keys } } }),
      );
      for (const item of result.Responses?.[tables.persons] ?? [])
        found.set(String(item.id), item as SourcePerson);
      keys = (result.UnprocessedKeys?.[tables.persons]?.Keys ?? []) as Item[];
    }
  }
  return found;
}
