import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { instantKey } from "../../lib/directory/instant-key.js";
import type { DataFile } from "../../lib/directory/source.js";
import { parseDataFile } from "../../lib/directory/source.js";
import { orderKey, orderKeyBytes, phoneBytes } from "../../lib/store/binary-keys.js";
import { decompress, FAMILY } from "../../lib/store/directory-items.js";
import { directoryItems, loadDirectory } from "../../lib/store/directory-loader.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { describeEachEngine } from "../support/engines.js";

const person = (id: string, createdAt: string) => ({ id, createdAt, updatedAt: createdAt });
const employee = (id: string, companyId: string, personId: string | null, phone: string | null) => ({
  id,
  companyId,
  personId,
  externalIds: [],
  demographics: { firstName: "Zoë", lastName: "ＳＭＩＴＨ", dateOfBirth: null, gender: null },
  contact: {
    email: null,
    phone,
    address: { line1: null, line2: null, city: null, state: null, postalCode: null },
  },
  membership: { state: null, userState: null, invitation: null },
  participation: null,
  coverages: [],
  createdAt: "2024-03-01T10:00:00+02:00",
  updatedAt: "2024-03-01T10:00:00Z",
});

const P1 = "11111111-1111-4111-8111-111111111111";
const DATA: DataFile = parseDataFile(
  JSON.stringify({
    persons: [person(P1, "2024-01-01T00:00:00Z")],
    employees: [
      employee("aaaaaaaa-0000-4000-8000-000000000001", "acme", P1, "(555) 123-4567"),
      employee("aaaaaaaa-0000-4000-8000-000000000002", "acme", null, "12345"),
    ],
  }),
);

async function scanAll(client: DynamoDBDocumentClient, table: string) {
  const { Items } = await client.send(new ScanCommand({ TableName: table }));
  const hex = (value: unknown) => Buffer.from(value as Uint8Array).toString("hex");
  return (Items ?? []).sort((a, b) => `${hex(a.p)}/${hex(a.s)}`.localeCompare(`${hex(b.p)}/${hex(b.s)}`));
}

const family = (item: Record<string, unknown>) => (item.s as Uint8Array)[0];

describe("directoryItems", () => {
  it("lays out the bundle, the record items and one block per family of the company", async () => {
    const { puts, deletes } = await directoryItems(DATA);
    expect(deletes).toEqual([]);
    const bundles = puts.filter((item) => (item.p as Uint8Array)[0] === 0);
    expect(bundles).toHaveLength(1);
    expect(decompress(bundles[0]?.d as Uint8Array)).toEqual({
      person: DATA.persons[0],
      employees: [DATA.employees[0]],
    });

    const acme = puts.filter((item) => Buffer.from(item.p as Uint8Array).toString() === "acme");
    expect(acme.map(family).sort()).toEqual([FAMILY.employmentBlocks, FAMILY.personBlocks, 3, 3]);
    const [linked, unlinked] = acme.filter((item) => family(item) === FAMILY.employmentRecord);
    expect(linked).toMatchObject({ t: phoneBytes("5551234567"), f: "zoë", l: "smith" });
    expect(linked?.q).toEqual(orderKeyBytes(orderKey(instantKey("2024-01-01T00:00:00Z"), P1)));
    // A stored phone that does not normalize is kept in the record but gets no phone index entry.
    expect(unlinked).not.toHaveProperty("t");
    expect(unlinked).not.toHaveProperty("q");
    expect(decompress(unlinked?.d as Uint8Array)).toEqual(DATA.employees[1]);
  });
});

describeEachEngine("directory loader", (getEngine) => {
  it("writes every item, reports progress, and a second load leaves the table as it was", async () => {
    const { client, tables } = getEngine();
    const documents = documentClientFor(client);
    const progress: number[] = [];
    const result = await loadDirectory(documents, tables.directory, DATA, {
      onProgress: ({ written }) => progress.push(written),
    });
    expect(result).toEqual({ persons: 1, employees: 2, items: 5 });
    expect(progress.at(-1)).toBe(5);
    const first = await scanAll(documents, tables.directory);
    expect(first).toHaveLength(5);
    await loadDirectory(documents, tables.directory, DATA);
    expect(await scanAll(documents, tables.directory)).toEqual(first);
  });

  it("refuses a name too long to index before writing anything, naming the record and field", async () => {
    const { client, tables } = getEngine();
    const documents = documentClientFor(client);
    const before = await scanAll(documents, tables.directory);
    const [record] = DATA.employees;
    if (!record) throw new Error("no record");
    const long: DataFile = {
      persons: [],
      employees: [
        {
          ...record,
          id: "cccccccc-0000-4000-8000-000000000001",
          personId: null,
          demographics: { ...record.demographics, lastName: "x".repeat(70_000) },
        },
      ],
    };
    await expect(loadDirectory(documents, tables.directory, long)).rejects.toThrow(
      "employee cccccccc-0000-4000-8000-000000000001: demographics.lastName is longer than 65534 bytes",
    );
    expect(await scanAll(documents, tables.directory)).toEqual(before);
  });

  it("writes batches of 25 with several in flight for a larger file", async () => {
    const { client, tables } = getEngine();
    const documents = documentClientFor(client);
    const many: DataFile = {
      persons: DATA.persons,
      employees: Array.from({ length: 130 }, (_, i) => ({
        ...(DATA.employees[0] as DataFile["employees"][number]),
        id: `bbbbbbbb-0000-4000-8000-${String(i).padStart(12, "0")}`,
      })),
    };
    await loadDirectory(documents, tables.directory, many, { concurrency: 3 });
    const items = await scanAll(documents, tables.directory);
    // The 130 new records, and the two the first test of this suite loaded into the same table.
    expect(items.filter((item) => family(item) === FAMILY.employmentRecord)).toHaveLength(132);
  });
});

/** What an empty table answers the loader's reads (stored persons, stored blocks); undefined for a write. */
function emptyRead(command: { input: Record<string, unknown> }): Record<string, unknown> | undefined {
  if (command.input.KeyConditionExpression) return { Items: [] };
  const requests = command.input.RequestItems as Record<string, unknown>;
  if (!Array.isArray(requests.t)) return { Responses: { t: [] } };
  return undefined;
}

describe("directory loader retries", () => {
  it("retries UnprocessedItems until every item is written", async () => {
    const written: unknown[] = [];
    let calls = 0;
    const fake = {
      send: async (command: {
        input: { RequestItems: Record<string, { PutRequest: { Item: unknown } }[]> };
      }) => {
        const read = emptyRead(command as never);
        if (read) return read;
        calls += 1;
        const requests = command.input.RequestItems.t ?? [];
        // Accept one item per call; hand the rest back as unprocessed, as a throttled table does.
        const [first, ...rest] = requests;
        if (first) written.push(first.PutRequest.Item);
        return { UnprocessedItems: rest.length > 0 ? { t: rest } : {} };
      },
    } as unknown as DynamoDBDocumentClient;
    await loadDirectory(fake, "t", DATA, { concurrency: 1, retryBaseMs: 1 });
    expect(written).toHaveLength(5);
    expect(calls).toBe(5);
  });

  it("gives up with an error after a bounded number of attempts", async () => {
    let calls = 0;
    const fake = {
      send: async (command: { input: { RequestItems: Record<string, unknown[]> } }) => {
        const read = emptyRead(command as never);
        if (read) return read;
        calls += 1;
        return { UnprocessedItems: command.input.RequestItems };
      },
    } as unknown as DynamoDBDocumentClient;
    await expect(loadDirectory(fake, "t", DATA, { retryBaseMs: 1 })).rejects.toThrow(/unprocessed/);
    expect(calls).toBe(10);
  });
});
