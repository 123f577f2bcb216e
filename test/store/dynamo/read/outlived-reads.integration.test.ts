/**
 * A search whose read outlives its generation: one read is held back (fault injection on the
 * reader's client) until a load has published the next generation and removed the versions the
 * search was about to read. Each of the reads that then finds its items gone (an order's block, a
 * record named by a window, a person's bundle) makes the reader ask again at the new generation,
 * and the search answers as a fresh one does: never a 500. A read that fails at a generation still
 * committed is thrown as it is. Nothing waits on time: the held read is released by the test.
 */
import { loadData } from "../../../../lib/load/load-file.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import { batchWrite, keyOf, queryAll } from "../../../../lib/store/dynamo/model/batch.js";
import { bundleSort, personPartition } from "../../../../lib/store/dynamo/model/layout.js";
import { dynamoDirectoryReader } from "../../../../lib/store/dynamo/read/reader.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import type { DirectoryReader, EmployeesQuery, PersonsQuery } from "../../../../lib/store/port.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { describeEachEngine, type EngineContext } from "../../../support/engines.js";
import { firstByte, type Input, pauseOn } from "../../../support/pause.js";
import { dataFileOf, employeeInput, personInput, testUuid } from "../../../support/records.js";

const P1 = testUuid(0x28, 0, 1);
const P2 = testUuid(0x28, 0, 2);
const E1 = testUuid(0x28, 1, 1);
const E2 = testUuid(0x28, 1, 2);
const E3 = testUuid(0x28, 1, 3);
const at = (day: number) => `2024-03-0${day}T00:00:00Z`;
const persons = [personInput(P1, "2024-01-01T00:00:00Z"), personInput(P2, "2024-01-02T00:00:00Z")];
const e2 = employeeInput({ id: E2, companyId: "acme", personId: P2, createdAt: at(2), lastName: "Okafor" });

/** Version `n` of the directory: E1 and E3 change names with every version, E3 joins at 2. */
const version = (n: number) =>
  dataFileOf(persons, [
    employeeInput({ id: E1, companyId: "acme", personId: P1, createdAt: at(1), firstName: `Ada${n}` }),
    e2,
    employeeInput({ id: E3, companyId: "acme", personId: P1, createdAt: at(3), firstName: `Kim${n}` }),
  ]);

const employees = (extra: Partial<EmployeesQuery["filter"]> = {}): EmployeesQuery => ({
  filter: { companies: new Set(["acme"]), ...extra },
  created: {},
  offset: 0,
  limit: 50,
});
const personsOfAcme: PersonsQuery = {
  filter: { companies: new Set(["acme"]) },
  readable: new Set(["acme"]),
  created: {},
  offset: 0,
  limit: 50,
};

const values = (input: Input) => (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;

/** The reads held back, each the first of its kind: what the search reads after its window. */
const HELD = {
  /** A Query of an employees order's blocks (sort keys 0x08 …). */
  orderBlocks: (command: string, input: Input) =>
    command === "QueryCommand" && firstByte(values(input)[":low"]) === 0x08,
  /** A BatchGetItem of record items (sort keys 0x03 …) named by a window. */
  recordsByKey: (command: string, input: Input) => {
    if (command !== "BatchGetItemCommand") return false;
    const [request] = Object.values((input.RequestItems ?? {}) as Record<string, { Keys: Input[] }>);
    return firstByte(request?.Keys[0]?.s) === 0x03;
  },
  /** A Query of a person's bundle (partitions 0x00 …). */
  bundle: (command: string, input: Input) =>
    command === "QueryCommand" && firstByte(values(input)[":p"]) === 0x00,
} as const;

describeEachEngine("a search that outlives its generation", (getEngine) => {
  let context: EngineContext;
  let loads = 0;

  beforeAll(() => {
    context = getEngine();
  });

  /** The next version, loaded whole: published and its superseded versions removed on return. */
  async function loadNext(): Promise<void> {
    loads += 1;
    const directory = dynamoDirectory(documentClientFor(context.client), context.tables.directory, {
      reader: { manifestTtlMs: 0 },
      writer: { graceMs: 0 },
    });
    await loadData(version(loads), directory, "snapshot");
  }

  /** A reader on a client of its own, one read of which is held. */
  function heldReader(held: (command: string, input: Input) => boolean) {
    const client = documentClientFor(context.engine.client());
    const gate = pauseOn(client, held, { only: true });
    gate.arm();
    const reader = dynamoDirectoryReader(client, context.tables.directory, {
      manifestTtlMs: 0,
      answerCacheBytes: 0,
    });
    return { reader, gate };
  }

  const truth = () =>
    dynamoDirectoryReader(documentClientFor(context.client), context.tables.directory, {
      manifestTtlMs: 0,
      answerCacheBytes: 0,
    });

  beforeAll(async () => {
    await loadNext();
  });

  async function outlived(
    held: (command: string, input: Input) => boolean,
    ask: (reader: DirectoryReader) => Promise<unknown>,
  ) {
    const { reader, gate } = heldReader(held);
    const searching = ask(reader);
    await gate.reached;
    await loadNext();
    gate.release();
    return { answer: await searching, now: await ask(truth()) };
  }

  it("asks again when an order's block was removed under it", async () => {
    const { answer, now } = await outlived(HELD.orderBlocks, (reader) => reader.employees(employees()));
    expect(answer).toEqual(now);
    expect(JSON.stringify(answer)).toContain(`Ada${loads}`);
  });

  it("asks again when a record a window named was removed under it", async () => {
    const search = (reader: DirectoryReader) => reader.employees(employees({ firstName: "kim" }));
    const { answer, now } = await outlived(HELD.recordsByKey, search);
    expect(answer).toEqual(now);
    expect(JSON.stringify(answer)).toContain(`Kim${loads}`);
  });

  it("asks again when a person's bundle was removed under it", async () => {
    const { answer, now } = await outlived(HELD.bundle, (reader) => reader.persons(personsOfAcme));
    expect(answer).toEqual(now);
    expect(JSON.stringify(answer)).toContain(`Ada${loads}`);
  });

  it("throws a read that fails at a generation still committed", async () => {
    const { reader, gate } = heldReader(HELD.bundle);
    const searching = reader.persons(personsOfAcme);
    await gate.reached;
    // The bundle the held read is about to look for is gone, and no load moved the generation.
    const client = documentClientFor(context.client);
    const items = await queryAll(client, {
      TableName: context.tables.directory,
      ConsistentRead: true,
      KeyConditionExpression: "#p = :p AND #s <= :high",
      ExpressionAttributeNames: { "#p": A.partition, "#s": A.sort },
      ExpressionAttributeValues: { ":p": personPartition(P1), ":high": bundleSort(0xffffffff, 0xffff) },
    });
    await batchWrite(
      client,
      context.tables.directory,
      items.map((item) => ({ delete: keyOf(item) })),
    );
    gate.release();
    await expect(searching).rejects.toThrow(`person ${P1} has entries but no bundle`);
  });
});
