/**
 * The directory layout on both engines: entries read back across many blocks and any created
 * range, loads that upsert into what is stored, large persons split into chunks, and blocks that
 * overlap while a load is under way.
 */
import { createHash } from "node:crypto";
import { PutCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import fc from "fast-check";
import { instantKey } from "../../lib/directory/instant-key.js";
import type { DataFile } from "../../lib/directory/source.js";
import { orderKey, orderKeyParts } from "../../lib/store/binary-keys.js";
import { blockItems, bundleItems, FAMILY, namesOf } from "../../lib/store/directory-items.js";
import { loadDirectory } from "../../lib/store/directory-loader.js";
import { directoryRepository } from "../../lib/store/directory-repository.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { dataFileOf, employeeInput, personInput, uuidOf } from "../search/records.js";
import { describeEachEngine, type EngineContext } from "../support/engines.js";

const COMPANY = "acme";
const SECONDS = 600;
/** 700 records over 300 persons in one company: several blocks of each family. */
function bigCompany(): DataFile {
  const persons = Array.from({ length: 300 }, (_, i) =>
    personInput(uuidOf("aaaa", i), new Date(Date.UTC(2024, 0, 1, 0, 0, (i * 7) % SECONDS)).toISOString()),
  );
  const employees = Array.from({ length: 700 }, (_, i) =>
    employeeInput({
      id: uuidOf("eeee", i),
      companyId: COMPANY,
      personId: i % 10 === 9 ? null : uuidOf("aaaa", i % 300),
      createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, (i * 13) % SECONDS, i % 3)).toISOString(),
      firstName: i % 11 === 0 ? null : `First${i % 17}`,
      lastName: `Last${i % 23}`,
    }),
  );
  return dataFileOf(persons, employees);
}

const instantAt = (second: number) => instantKey(new Date(Date.UTC(2024, 0, 1, 0, 0, second)).toISOString());
const range = fc
  .record({
    from: fc.option(fc.integer({ min: -5, max: SECONDS + 5 })),
    before: fc.option(fc.integer({ min: -5, max: SECONDS + 5 })),
  })
  .map(({ from, before }) => ({
    ...(from === null ? {} : { from: instantAt(from) }),
    ...(before === null ? {} : { before: instantAt(before) }),
  }));
const inRange = (key: string, r: { from?: string; before?: string }) =>
  (r.from === undefined || key >= r.from) && (r.before === undefined || key < r.before);
const sortedOrders = (orders: string[]) => [...orders].sort();

function expectedEmployments(data: DataFile, r: { from?: string; before?: string }) {
  return data.employees
    .filter((record) => record.companyId === COMPANY && inRange(instantKey(record.createdAt), r))
    .map((record) => ({ order: orderKey(instantKey(record.createdAt), record.id), ...namesOf(record) }))
    .sort((a, b) => (a.order < b.order ? -1 : 1));
}

function expectedPersons(data: DataFile, r: { from?: string; before?: string }) {
  const inCompany = new Set(data.employees.filter((e) => e.companyId === COMPANY).map((e) => e.personId));
  return sortedOrders(
    data.persons
      .filter((person) => inCompany.has(person.id) && inRange(instantKey(person.createdAt), r))
      .map((person) => orderKey(instantKey(person.createdAt), person.id)),
  );
}

const scanCount = async ({ client, tables }: EngineContext) =>
  (await documentClientFor(client).send(new ScanCommand({ TableName: tables.directory, Select: "COUNT" })))
    .Count;

describeEachEngine("directory layout", (getEngine) => {
  const data = bigCompany();
  const repository = () =>
    directoryRepository(documentClientFor(getEngine().client), getEngine().tables.directory);

  beforeAll(async () => {
    await loadDirectory(documentClientFor(getEngine().client), getEngine().tables.directory, data);
  });

  it("spreads a company's entries over several blocks", async () => {
    expect((await repository().blocks(COMPANY, FAMILY.employmentBlocks)).length).toBeGreaterThan(3);
    expect((await repository().blocks(COMPANY, FAMILY.personBlocks)).length).toBeGreaterThan(1);
  });

  it("reads every entry in a created range, exactly, across block boundaries", async () => {
    await fc.assert(
      fc.asyncProperty(range, async (r) => {
        const read = await repository().employmentEntries(COMPANY, r);
        expect(read.map(({ recordBytes, ...entry }) => entry)).toEqual(expectedEmployments(data, r));
        for (const { recordBytes } of read) expect(recordBytes).toBeGreaterThan(300);
        expect((await repository().personEntries(COMPANY, r)).map((e) => e.order)).toEqual(
          expectedPersons(data, r),
        );
      }),
      { numRuns: 25 },
    );
  });

  it("reads records by adjacent run and scattered, in the order asked", async () => {
    const orders = expectedEmployments(data, {}).map((e) => e.order);
    const every37 = orders.filter((_, i) => i % 37 === 0);
    for (const [pick, options] of [
      [orders.slice(100, 150), { runLength: 50 }],
      [every37, {}],
      // A run over the records between them, then the ones a too-short run missed, one by one.
      [every37, { runLength: (every37.length - 1) * 37 + 1 }],
      [every37, { runLength: 40 }],
    ] as const) {
      const records = await repository().employeeRecords(COMPANY, pick, options);
      expect(records.map((r) => orderKey(instantKey(r.createdAt), r.id))).toEqual(pick);
    }
  });

  it("upserts a later load into what is stored, as one load of both files would", async () => {
    const { client, tables } = getEngine();
    const documents = documentClientFor(client);
    const person = data.persons[0];
    if (!person) throw new Error("no person");
    const later = dataFileOf(
      [personInput(person.id, person.createdAt)],
      [
        employeeInput({
          id: uuidOf("ffff", 1),
          companyId: COMPANY,
          personId: person.id,
          createdAt: "2024-01-01T00:04:00Z",
          firstName: "Newname",
        }),
        employeeInput({
          id: uuidOf("ffff", 2),
          companyId: "beta",
          personId: person.id,
          createdAt: "2024-01-01T00:05:00Z",
        }),
        employeeInput({
          id: uuidOf("ffff", 3),
          companyId: COMPANY,
          personId: null,
          createdAt: "2024-01-01T00:06:00Z",
        }),
      ],
    );
    await loadDirectory(documents, tables.directory, later);

    const all: DataFile = { persons: data.persons, employees: [...data.employees, ...later.employees] };
    const entries = await repository().employmentEntries(COMPANY);
    expect(entries.map(({ recordBytes, ...entry }) => entry)).toEqual(expectedEmployments(all, {}));
    const stored = (await repository().persons([person.id])).get(person.id);
    expect(stored?.employees.map((e) => e.id).sort()).toEqual(
      all.employees
        .filter((e) => e.personId === person.id)
        .map((e) => e.id)
        .sort(),
    );
    const names = (await repository().personEntries(COMPANY)).find(
      (e) => orderKeyParts(e.order).id === person.id,
    );
    expect(names?.pairs).toContainEqual({ firstName: "newname", lastName: "lee" });
    expect((await repository().personEntries("beta")).map((e) => orderKeyParts(e.order).id)).toEqual([
      person.id,
    ]);

    // Loading the same file again changes nothing: same items, no stale blocks left behind.
    const before = await scanCount(getEngine());
    await loadDirectory(documents, tables.directory, later);
    expect(await scanCount(getEngine())).toBe(before);
  });

  it("splits a large person's bundle into chunks and reads it back whole", async () => {
    const { client, tables } = getEngine();
    const documents = documentClientFor(client);
    const id = uuidOf("bbbb", 1);
    const big = dataFileOf(
      [personInput(id, "2024-02-01T00:00:00Z")],
      Array.from({ length: 40 }, (_, i) =>
        employeeInput({
          id: uuidOf("bbee", i),
          companyId: "gamma",
          personId: id,
          createdAt: "2024-02-02T00:00:00Z",
          padding: createHash("sha256").update(`${i}`).digest("base64"),
        }),
      ),
    );
    const [person] = big.persons;
    if (!person) throw new Error("no person");
    const items = bundleItems({ person, employees: big.employees }, 500);
    expect(items.length).toBeGreaterThan(1);
    for (const Item of items) await documents.send(new PutCommand({ TableName: tables.directory, Item }));
    const read = (await repository().persons([id])).get(id);
    expect(read?.employees).toEqual(big.employees);
  });

  it("reads each entry once while an old block and its replacement overlap", async () => {
    const { client, tables } = getEngine();
    const documents = documentClientFor(client);
    const current = await repository().employmentEntries(COMPANY);
    // A stale block holding copies of entries other blocks hold, keyed between them.
    const copies = current.slice(10, 20).map((e) => ({
      key: Buffer.from(e.order, "latin1"),
      pairs: [{ firstName: e.firstName, lastName: e.lastName }],
      recordBytes: e.recordBytes,
    }));
    const [stale] = blockItems(COMPANY, FAMILY.employmentBlocks, copies);
    await documents.send(new PutCommand({ TableName: tables.directory, Item: stale }));
    const read = await repository().employmentEntries(COMPANY);
    expect(read).toEqual(current);
  });
});
