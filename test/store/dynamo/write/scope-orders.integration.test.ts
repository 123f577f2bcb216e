/**
 * Scope orders through loads cut at every step (the ingest's way: commit until its deadline,
 * suspend, resume in another call): the companies' orders are derived first, then each kept scope
 * holding a changed company, one unit a step; persons searched over a kept scope then read its
 * order and answer as the in-memory store does, and `verify` passes.
 */
import { keepScopes } from "../../../../lib/load/keep-scopes.js";
import { loadData } from "../../../../lib/load/load-file.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import { readManifest } from "../../../../lib/store/dynamo/manifest/manifest.js";
import { ORDER, scopeIdOf, scopePartition } from "../../../../lib/store/dynamo/model/layout.js";
import { OrderReads } from "../../../../lib/store/dynamo/read/order-reads.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { memoryDirectory } from "../../../../lib/store/memory/memory-directory.js";
import type { Change, DirectoryReader, DirectoryWriter, PersonsQuery } from "../../../../lib/store/port.js";
import { describeEachEngine } from "../../../support/engines.js";
import {
  dataFileOf,
  employeeInput,
  parsedEmployee,
  personInput,
  testUuid,
} from "../../../support/records.js";
import { tableItems } from "../../../support/table-items.js";

const person = (n: number) => testUuid(0x5c, 0, n);
const record = (n: number) => testUuid(0x5c, 1, n);
const day = (n: number) => `2024-02-${String(n).padStart(2, "0")}T00:00:00Z`;

// Persons 1-6; records in acme, beta and cedar (person 3 in two companies, record 7 unlinked).
const DATA = dataFileOf(
  [1, 2, 3, 4, 5, 6].map((n) => personInput(person(n), day(n))),
  [
    [1, "acme", 1],
    [2, "acme", 2],
    [3, "beta", 3],
    [4, "cedar", 3],
    [5, "cedar", 4],
    [6, "beta", 5],
    [7, "acme", null],
    [8, "dune", 6],
  ].map(([n, companyId, p]) =>
    employeeInput({
      id: record(n as number),
      companyId: companyId as string,
      personId: p === null ? null : person(p as number),
      createdAt: day(10 + (n as number)),
    }),
  ),
);
function personOf(n: number) {
  const [parsed] = dataFileOf([personInput(person(n), day(n))], []).persons;
  if (!parsed) throw new Error("the data file lost its person");
  return parsed;
}

const SCOPES = [
  ["acme", "beta"],
  ["acme", "beta", "cedar"],
];

/** Person 1 moves from acme to cedar, person 5's record is deleted, a person 7 is hired in beta. */
const CHANGES: Change[] = [
  {
    op: "upsert",
    employee: parsedEmployee({ id: record(1), companyId: "cedar", personId: person(1), createdAt: day(11) }),
  },
  { op: "delete", employee: record(6) },
  { op: "upsert", person: personOf(7) },
  {
    op: "upsert",
    employee: parsedEmployee({ id: record(9), companyId: "beta", personId: person(7), createdAt: day(19) }),
  },
];

const query = (companies: readonly string[], offset = 0): PersonsQuery => ({
  filter: { companies: new Set(companies) },
  readable: new Set(companies),
  created: {},
  offset,
  limit: 2,
});

/** Record 2 renamed: acme's records change, its persons do not. */
const RENAME: Change[] = [
  {
    op: "upsert",
    employee: parsedEmployee({
      id: record(2),
      companyId: "acme",
      personId: person(2),
      createdAt: day(12),
      firstName: "Renamed",
    }),
  },
];

async function changeBothWays(directory: DirectoryWriter, cut: boolean, changes = CHANGES): Promise<number> {
  let session = await directory.beginLoad("changes");
  await session.apply(changes);
  let steps = 1;
  for (;;) {
    const report = await session.commit(cut ? { deadline: () => true } : {});
    if (!report.pending) return steps;
    session = await directory.resumeLoad(session.suspend());
    steps += 1;
  }
}

async function pagesOf(reader: DirectoryReader, companies: readonly string[]) {
  const pages = [];
  for (let offset = 0; offset < 6; offset += 2) {
    const page = await reader.persons(query(companies, offset));
    pages.push({ total: page.total, ids: page.items.map((item) => item.person.id) });
  }
  return pages;
}

describeEachEngine("scope orders", (getEngine) => {
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;

  beforeEach(async () => {
    await tableItems(documents(), table()).wipe();
  });

  it("are derived after the companies' orders, a unit a step, and read by persons searches over the scope", async () => {
    const dynamo = dynamoDirectory(documents(), table(), {
      reader: { manifestTtlMs: 0, answerCacheBytes: 0 },
      writer: { graceMs: 0 },
    });
    const memory = memoryDirectory();
    for (const store of [dynamo, memory]) {
      await loadData(DATA, store, "snapshot");
      await keepScopes(store, SCOPES);
    }
    // Companies acme, beta and cedar changed, then both scopes: one step each, at least.
    expect(await changeBothWays(dynamo, true)).toBeGreaterThanOrEqual(5);
    await changeBothWays(memory, false);

    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    const { committed } = await readManifest(documents(), table());
    const orders = new OrderReads(documents(), table());
    for (const scope of SCOPES) {
      const index = await orders.index(scopePartition(scopeIdOf(scope)), ORDER.persons, {
        gen: committed,
        consistent: true,
      });
      expect(index?.index.reduce((sum, block) => sum + block.count, 0)).toBe(
        (await memory.persons(query(scope))).total,
      );
      expect(await pagesOf(dynamo, scope)).toEqual(await pagesOf(memory, scope));
    }
    expect(memory.scopes()).toEqual(SCOPES);

    // A change that moves no person derives acme's orders and no scope: one step, then the
    // flip's and the clean-up's (the two scopes derived again as well took 5).
    expect(await changeBothWays(dynamo, true, RENAME)).toBeLessThanOrEqual(3);
    await changeBothWays(memory, false, RENAME);
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    for (const scope of SCOPES) expect(await pagesOf(dynamo, scope)).toEqual(await pagesOf(memory, scope));
  });
});
