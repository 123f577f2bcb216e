import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { DataFile } from "../../lib/directory/source.js";
import { parseDataFile } from "../../lib/directory/source.js";
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
  return (Items ?? []).sort((a, b) => `${a.p}${a.s}`.localeCompare(`${b.p}${b.s}`));
}

describe("directoryItems", () => {
  it("lays out a person item and employee items with normalized narrow attributes", () => {
    const [personItem, linked, unlinked] = directoryItems(DATA);
    expect(personItem).toMatchObject({ p: P1, s: "#" });
    expect(linked).toMatchObject({
      p: P1,
      s: "acme#2024-03-01T08:00:00.000000000Z#aaaaaaaa-0000-4000-8000-000000000001",
      c: "acme",
      ph: "5551234567",
      f: "zoë",
      l: "smith",
      pc: "2024-01-01T00:00:00.000000000Z",
    });
    // A stored phone that does not normalize is kept in the record but gets no phone index entry.
    expect(unlinked).toMatchObject({ p: "~aaaaaaaa-0000-4000-8000-000000000002", c: "acme" });
    expect(unlinked).not.toHaveProperty("ph");
    expect(unlinked).not.toHaveProperty("pc");
    expect(JSON.parse(String(unlinked?.d))).toEqual(DATA.employees[1]);
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
    expect(result).toEqual({ persons: 1, employees: 2, items: 3 });
    expect(progress.at(-1)).toBe(3);
    const first = await scanAll(documents, tables.directory);
    expect(first).toHaveLength(3);
    await loadDirectory(documents, tables.directory, DATA);
    expect(await scanAll(documents, tables.directory)).toEqual(first);
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
    const result = await loadDirectory(documents, tables.directory, many, { concurrency: 3 });
    expect(result.items).toBe(131);
    const items = await scanAll(documents, tables.directory);
    expect(items.filter((item) => String(item.s).includes("#bbbbbbbb-"))).toHaveLength(130);
  });
});

describe("directory loader retries", () => {
  it("retries UnprocessedItems until every item is written", async () => {
    const written: unknown[] = [];
    let calls = 0;
    const fake = {
      send: async (command: {
        input: { RequestItems: Record<string, { PutRequest: { Item: unknown } }[]> };
      }) => {
        calls += 1;
        const requests = command.input.RequestItems.t ?? [];
        // Accept one item per call; hand the rest back as unprocessed, as a throttled table does.
        const [first, ...rest] = requests;
        if (first) written.push(first.PutRequest.Item);
        return { UnprocessedItems: rest.length > 0 ? { t: rest } : {} };
      },
    } as unknown as DynamoDBDocumentClient;
    await loadDirectory(fake, "t", DATA, { concurrency: 1, retryBaseMs: 1 });
    expect(written).toHaveLength(3);
    expect(calls).toBe(3);
  });

  it("gives up with an error after a bounded number of attempts", async () => {
    let calls = 0;
    const fake = {
      send: async (command: { input: { RequestItems: Record<string, unknown[]> } }) => {
        calls += 1;
        return { UnprocessedItems: command.input.RequestItems };
      },
    } as unknown as DynamoDBDocumentClient;
    await expect(loadDirectory(fake, "t", DATA, { retryBaseMs: 1 })).rejects.toThrow(/unprocessed/);
    expect(calls).toBe(10);
  });
});
