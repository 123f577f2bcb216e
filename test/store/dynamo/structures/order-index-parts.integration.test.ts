/**
 * An order index too large for one item is stored in parts (counted-order.ts INDEX_PART_BLOCKS;
 * here one block a part, and blocks a tenth of their size, so 80 persons make a 3-part index
 * instead of millions). Loads write and supersede every part, cut at every step; searches at any
 * offset answer as the in-memory store does; `verify` passes, and reports a part gone missing.
 */
import { keepScopes } from "../../../../lib/load/keep-scopes.js";
import { loadData } from "../../../../lib/load/load-file.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import { readManifest } from "../../../../lib/store/dynamo/manifest/manifest.js";
import { bytesOf, type Item, keyOf } from "../../../../lib/store/dynamo/model/batch.js";
import {
  companyPartition,
  isOrderIndexPartSort,
  ORDER,
  type OrderFamily,
  type PartitionKey,
  scopeIdOf,
  scopePartition,
} from "../../../../lib/store/dynamo/model/layout.js";
import { OrderReads } from "../../../../lib/store/dynamo/read/order-reads.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { memoryDirectory } from "../../../../lib/store/memory/memory-directory.js";
import type { Change, DirectoryReader, DirectoryWriter } from "../../../../lib/store/port.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { TENTH_ORDER_BLOCKS } from "../../../support/directory-store.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../../../support/engines.js";
import {
  dataFileOf,
  employeeInput,
  parsedEmployee,
  personInput,
  testUuid,
} from "../../../support/records.js";
import { tableItems } from "../../../support/table-items.js";

const person = (n: number) => testUuid(0x1d, 0, n);
const record = (n: number) => testUuid(0x1d, 1, n);
const minute = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString();

// Persons 1-80 in acme (record n), 81-84 in beta (record n), persons 1-2 in beta too (record 90 + n).
const ACME = Array.from({ length: 80 }, (_, i) => i + 1);
const BETA = Array.from({ length: 4 }, (_, i) => i + 81);
const BOTH = Array.from({ length: 2 }, (_, i) => i + 1);
const employee = (id: string, companyId: string, n: number) =>
  employeeInput({ id, companyId, personId: person(n), createdAt: minute(1_000 + n) });
const DATA = dataFileOf(
  [...ACME, ...BETA].map((n) => personInput(person(n), minute(n))),
  [
    ...ACME.map((n) => employee(record(n), "acme", n)),
    ...BETA.map((n) => employee(record(n), "beta", n)),
    ...BOTH.map((n) => employee(record(90 + n), "beta", n)),
  ],
);
const SCOPE = ["acme", "beta"];

/** Acme's records of persons 51-80 deleted: its orders shrink from three blocks to two. */
const SHRINK: Change[] = ACME.filter((n) => n > 50).map((n) => ({ op: "delete", employee: record(n) }));
/** Person 5 moves from acme to beta. */
const MOVE: Change[] = [
  {
    op: "upsert",
    employee: parsedEmployee({
      id: record(5),
      companyId: "beta",
      personId: person(5),
      createdAt: minute(1_005),
    }),
  },
];

async function changeInSteps(directory: DirectoryWriter, changes: Change[], cut: boolean): Promise<void> {
  let session = await directory.beginLoad("changes");
  await session.apply(changes);
  for (;;) {
    const report = await session.commit(cut ? { deadline: () => true } : {});
    if (!report.pending) return;
    session = await directory.resumeLoad(session.suspend());
  }
}

/** Pages at offsets across every block of both routes' orders. */
async function pagesOf(reader: DirectoryReader) {
  const pages = [];
  for (const offset of [0, 26, 27, 28, 49, 53, 54, 55, 79, 83]) {
    for (const companies of [["acme"], SCOPE]) {
      const page = await reader.persons({
        filter: { companies: new Set(companies) },
        readable: new Set(companies),
        created: {},
        offset,
        limit: 10,
      });
      pages.push({ offset, companies, total: page.total, ids: page.items.map((item) => item.person.id) });
    }
    const records = await reader.employees({
      filter: { companies: new Set(["acme"]) },
      created: {},
      offset,
      limit: 10,
    });
    pages.push({ offset, total: records.total, ids: records.items.map((item) => item.id) });
  }
  return pages;
}

describeEachEngine(`order index in parts (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  const it = itByTurns(TURN_SEED, engineName);
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;
  const visibleParts = async () => {
    const { committed } = await readManifest(documents(), table());
    return (await tableItems(documents(), table()).all()).filter((item: Item) => {
      const x = item[A.supersededAt];
      return isOrderIndexPartSort(keyOf(item).s) && (typeof x !== "number" || x > committed);
    });
  };

  beforeEach(async () => {
    await tableItems(documents(), table()).wipe();
  });

  it("is written, superseded and read in parts, by loads cut at every step", async () => {
    const dynamo = dynamoDirectory(documents(), table(), {
      reader: { manifestTtlMs: 0, answerCacheBytes: 0 },
      writer: { graceMs: 0, indexPartBlocks: 1, orderBlocks: TENTH_ORDER_BLOCKS },
    });
    const memory = memoryDirectory();
    for (const store of [dynamo, memory]) {
      await keepScopes(store, [SCOPE]);
      await loadData(DATA, store, "snapshot");
    }
    const orders = new OrderReads(documents(), table());
    const at = async () => ({ gen: (await readManifest(documents(), table())).committed, consistent: true });
    /** Each order's index in as many parts as blocks, and only those parts visible. */
    const expectInParts = async (acmeBlocks: number) => {
      const stored = await Promise.all(
        [
          [companyPartition("acme"), ORDER.employees],
          [companyPartition("acme"), ORDER.persons],
          [scopePartition(scopeIdOf(SCOPE)), ORDER.persons],
        ].map(async ([partition, order]) =>
          orders.index(partition as PartitionKey, order as OrderFamily, await at()),
        ),
      );
      for (const order of stored) expect(order?.parts).toBe(order?.index.length);
      expect(stored.slice(0, 2).map((order) => order?.parts)).toEqual([acmeBlocks, acmeBlocks]);
      expect(await visibleParts()).toHaveLength(
        stored.reduce((sum, order) => sum + (order?.parts ?? 1) - 1, 0),
      );
    };
    await expectInParts(3);
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    expect(await pagesOf(dynamo)).toEqual(await pagesOf(memory));

    for (const changes of [SHRINK, MOVE]) {
      await changeInSteps(dynamo, changes, true);
      await changeInSteps(memory, changes, false);
      expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
      expect(await pagesOf(dynamo)).toEqual(await pagesOf(memory));
    }
    await expectInParts(2);

    // A part gone missing: verify names the index, and reading it fails rather than answer from part of it.
    const [part] = await visibleParts();
    if (!part) throw new Error("no part to remove");
    await tableItems(documents(), table()).remove(keyOf(part));
    expect((await verifyDirectory(documents(), table())).problem?.what).toMatch(
      /counted order's index has 1 of its 2 parts/,
    );
    const sort = bytesOf(part[A.sort]);
    await expect(
      orders.index(keyOf(part).p as PartitionKey, sort[1] as OrderFamily, await at()),
    ).rejects.toThrow(/of an order index is missing/);
  });
});
