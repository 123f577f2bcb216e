/**
 * Scope name postings through loads: a kept scope is posted when it is kept, loads keep its
 * persons' postings and census in step (renames, moves into and out of it, re-links, deletions,
 * loads cut at every step), persons searched by name over it read them and answer as the in-memory
 * store does, and `verify` checks them. A kept scope whose postings are deleted is answered from
 * the entries until the scopes are kept again.
 *
 * Each test runs on one engine, by turns from TURN_SEED (`itByTurns`): every test meets both
 * engines over an even and an odd seed.
 */
import { instantKey } from "../../../../lib/directory/instant-key.js";
import { keepScopes } from "../../../../lib/load/keep-scopes.js";
import { loadData } from "../../../../lib/load/load-file.js";
import { orderKeyParts } from "../../../../lib/store/binary-keys.js";
import { hexOf } from "../../../../lib/store/bytes.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import { bytesOf, type Item, keyOf, keyText } from "../../../../lib/store/dynamo/model/batch.js";
import {
  gramBlockOfSort,
  isCompanyPartition,
  isGramBlockSort,
  isGramCensusSort,
  isGramMarkerSort,
  isPostingSort,
  postingOfSort,
  scopeIdOf,
  scopePartition,
} from "../../../../lib/store/dynamo/model/layout.js";
import { dynamoDirectoryReader } from "../../../../lib/store/dynamo/read/reader.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { memoryDirectory } from "../../../../lib/store/memory/memory-directory.js";
import type { Change, DirectoryReader, DirectoryWriter, PersonsQuery } from "../../../../lib/store/port.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../../../support/engines.js";
import {
  dataFileOf,
  employeeInput,
  parsedEmployee,
  personInput,
  testUuid,
} from "../../../support/records.js";
import { tableItems } from "../../../support/table-items.js";

const person = (n: number) => testUuid(0x5d, 0, n);
const record = (n: number) => testUuid(0x5d, 1, n);
const day = (n: number) => `2024-02-${String(n).padStart(2, "0")}T00:00:00Z`;

/** [record, company, person, first name, last name] */
type Row = [number, string, number | null, string | null, string | null];
const ROWS: Row[] = [
  [1, "acme", 1, "Zoë", "García"],
  [2, "acme", 2, "Zoey", "Garcia"],
  [3, "beta", 3, "Anne", "Okafor"],
  [4, "cedar", 3, "Annie", "Okafor"],
  [5, "cedar", 4, "Zoe", "Ng"],
  [6, "beta", 5, null, null],
  [7, "acme", null, "Zoë", "Stray"],
  [8, "dune", 6, "Zoë", "Dune"],
  [9, "beta", 2, "Zoey", "Garcia-Okafor"],
];
const recordOf = ([n, companyId, p, firstName, lastName]: Row) => ({
  id: record(n),
  companyId,
  personId: p === null ? null : person(p),
  createdAt: day(10 + n),
  firstName,
  lastName,
});
const DATA = dataFileOf(
  [1, 2, 3, 4, 5, 6].map((n) => personInput(person(n), day(n))),
  ROWS.map((row) => employeeInput(recordOf(row))),
);

const SCOPES = [
  ["acme", "beta"],
  ["acme", "beta", "cedar"],
];

const upsert = (row: Row): Change => ({ op: "upsert", employee: parsedEmployee(recordOf(row)) });
/**
 * Record 1 renamed; person 4 moves from cedar into beta; record 9 re-linked from person 2 to 1;
 * person 6 (dune only) gets a record in acme; person 5 deleted with their unnamed record.
 */
const CHANGES: Change[] = [
  upsert([1, "acme", 1, "Zoëlle", "García"]),
  upsert([5, "beta", 4, "Zoe", "Ng"]),
  upsert([9, "beta", 1, "Zoey", "Garcia-Okafor"]),
  upsert([10, "acme", 6, "Zoë", "Dune"]),
  { op: "delete", employee: record(6) },
  { op: "delete", person: person(5) },
];

/**
 * Names asked: one trigram, several, both names, a bigram, a single letter, none matching.
 */
const NAMES = [
  { firstName: "zoë" },
  { lastName: "okafor" },
  { firstName: "ann", lastName: "kafo" },
  { firstName: "zo" },
  { lastName: "z" },
  { lastName: "xyz" },
];

const query = (
  companies: readonly string[],
  names: object,
  created = {},
  { offset, limit } = { offset: 0, limit: 100 },
): PersonsQuery => ({
  filter: { companies: new Set(companies), ...names },
  readable: new Set(companies),
  created,
  offset,
  limit,
});

/**
 * Answered from gram blocks (tiny here, see BLOCKS), at offsets from the first match, inside the
 * range, and past its total: a short fragment alone with a created range; two fragments of 1 to 3
 * characters, one of them 1 or 2 (companion counts), with or without one. "ë" + "ok": person 1 holds
 * both once record 9 is theirs, but in two pairs (Zoëlle García, Zoey Garcia-Okafor): no match.
 */
const RANGED: [object, object][] = [
  [{ firstName: "z" }, { from: instantKey(day(2)) }],
  [{ lastName: "a" }, { from: instantKey(day(2)), before: instantKey(day(6)) }],
  [{ firstName: "an" }, { before: instantKey(day(5)) }],
  [{ lastName: "r" }, { from: instantKey(day(1)) }],
  [{ firstName: "z", lastName: "g" }, {}],
  [{ firstName: "zo", lastName: "ok" }, {}],
  [{ firstName: "an", lastName: "o" }, { from: instantKey(day(2)) }],
  [{ firstName: "e", lastName: "ng" }, {}],
  [{ firstName: "ie", lastName: "oka" }, {}],
  [{ firstName: "ë", lastName: "ok" }, {}],
  [{ firstName: "zoe", lastName: "a" }, { before: instantKey(day(6)) }],
  [{ firstName: "z", lastName: "q" }, {}],
];
const WINDOWS = [
  { offset: 0, limit: 2 },
  { offset: 1, limit: 2 },
  { offset: 2, limit: 1 },
  { offset: 50, limit: 2 },
];
/** Gram blocks of one to three postings: the few persons here split and merge them. */
const BLOCKS = { target: 2, max: 3, min: 1 };

/**
 * Every search of NAMES, and each of RANGED at one of WINDOWS chosen by `turn`: four comparisons in
 * a row (see `alike`) ask every query at every window.
 */
async function answers(reader: DirectoryReader, scopes: readonly (readonly string[])[] = SCOPES, turn = 0) {
  const found = [];
  for (const scope of scopes) {
    for (const names of NAMES) found.push(await reader.persons(query(scope, names)));
    found.push(
      await reader.persons(query(scope, { firstName: "zoe" }, { from: instantKey("2024-02-02T00:00:00Z") })),
    );
    for (const [i, [names, created]] of RANGED.entries())
      found.push(await reader.persons(query(scope, names, created, WINDOWS[(i + turn) % WINDOWS.length])));
  }
  return found;
}

async function loadCut(directory: DirectoryWriter, changes: readonly Change[]): Promise<void> {
  let session = await directory.beginLoad("changes");
  await session.apply(changes);
  for (;;) {
    const report = await session.commit({ deadline: () => true });
    if (!report.pending) return;
    session = await directory.resumeLoad(session.suspend());
  }
}

const scopeItemsOf = (items: readonly Item[], scope: readonly string[]) => {
  const p = scopePartition(scopeIdOf(scope));
  return items.filter((item) => {
    const key = keyOf(item);
    return key.p.length === p.length && key.p.every((byte, i) => byte === p[i]);
  });
};

describeEachEngine(`scope name postings (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  // Each test loads and searches both stores several times: one engine a run, by turns.
  const it = itByTurns(TURN_SEED, engineName);
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;
  const items = () => tableItems(documents(), table());
  const stores = () => {
    const dynamo = dynamoDirectory(documents(), table(), {
      reader: { manifestTtlMs: 0, answerCacheBytes: 0 },
      writer: { graceMs: 0, gramBlocks: BLOCKS },
    });
    return { dynamo, memory: memoryDirectory() };
  };
  /** The partitions a search queries (hex), through a reader that keeps nothing. */
  const partitionsRead = async (search: (reader: DirectoryReader) => Promise<unknown>) => {
    const seen: string[] = [];
    const client = getEngine().engine.client();
    const documents = documentClientFor(client);
    documents.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { ExpressionAttributeValues?: Record<string, unknown> };
        const p = input.ExpressionAttributeValues?.[":p"];
        if (context.commandName === "QueryCommand" && p instanceof Uint8Array) seen.push(hexOf(p));
        return next(args);
      },
      { step: "initialize", priority: "high", name: "partitionsRead" },
    );
    await search(dynamoDirectoryReader(documents, table(), { manifestTtlMs: 0, answerCacheBytes: 0 }));
    return seen;
  };
  /** Both stores holding DATA, with SCOPES kept. */
  const loadedAndKept = async () => {
    const both = stores();
    for (const store of [both.dynamo, both.memory]) {
      await loadData(DATA, store, "snapshot");
      await keepScopes(store, SCOPES);
    }
    return both;
  };
  const verified = async () => expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
  /** The same changes loaded into both stores, the DynamoDB one cut at every step. */
  const loadBoth = async (both: { dynamo: DirectoryWriter; memory: DirectoryWriter }, changes: Change[]) => {
    await loadCut(both.dynamo, changes);
    await loadCut(both.memory, changes);
  };
  /** Each comparison in a test asks the ranged searches at the next window (`answers`). */
  let turn = 0;
  beforeEach(() => {
    turn = 0;
  });
  /** Both stores answer alike over these scopes. */
  const alike = async (both: { dynamo: DirectoryReader; memory: DirectoryReader }, scopes = SCOPES) => {
    turn += 1;
    expect(await answers(both.dynamo, scopes, turn)).toEqual(await answers(both.memory, scopes, turn));
  };
  /** The table verifies, and both stores answer alike over these scopes. */
  const agree = async (both: { dynamo: DirectoryReader; memory: DirectoryReader }, scopes = SCOPES) => {
    await verified();
    await alike(both, scopes);
  };
  /** A search by name over `scope`, by a reader that keeps nothing, reads `home` and no company. */
  const readsOnlyHome = async (scope: readonly string[], names: object, home: string) => {
    const partitions = await partitionsRead((reader) => reader.persons(query(scope, names)));
    expect(partitions).toContain(home);
    expect(partitions.filter((p) => isCompanyPartition(Buffer.from(p, "hex")))).toEqual([]);
  };

  beforeEach(async () => {
    await items().wipe();
  });

  it("are built when a scope is kept, kept in step by loads cut at every step, and read by name searches", async () => {
    const { dynamo, memory } = await loadedAndKept();
    await verified();
    const wide = scopeItemsOf(await items().all(), SCOPES[1] ?? []);
    expect(wide.filter((item) => isGramMarkerSort(bytesOf(item[A.sort])))).toHaveLength(1);
    expect(wide.some((item) => isGramCensusSort(bytesOf(item[A.sort])))).toBe(true);
    // Person 3 is posted once under "ann", for both of their names (Anne, Annie).
    const ann = wide.filter((item) => {
      const sort = bytesOf(item[A.sort]);
      return isPostingSort(sort) && postingOfSort(sort).text === "ann";
    });
    expect(ann).toHaveLength(1);
    // Tiny blocks: the three persons whose first names hold "z" are counted by two.
    const z = wide.filter((item) => {
      const sort = bytesOf(item[A.sort]);
      return isGramBlockSort(sort) && gramBlockOfSort(sort).text === "z";
    });
    expect(z).toHaveLength(2);
    await alike({ dynamo, memory });
    // By name over the scope: its partition is read, no company's.
    await readsOnlyHome(SCOPES[1] ?? [], NAMES[1] ?? {}, hexOf(scopePartition(scopeIdOf(SCOPES[1] ?? []))));

    await loadBoth({ dynamo, memory }, CHANGES);
    await agree({ dynamo, memory });
    // Four persons holding "z" in one chunk: the last block of "z" grows past its `max` and is
    // split before the chunk's postings are written.
    const zs = [7, 8, 9, 10];
    const more = dataFileOf(
      zs.map((n) => personInput(person(n), day(n))),
      zs.map((n) => employeeInput(recordOf([n + 4, "acme", n, "Zia", "Zorn"]))),
    );
    for (const store of [dynamo, memory]) await loadData(more, store, "merge");
    await agree({ dynamo, memory });

    // A snapshot back to the start undoes every change.
    for (const store of [dynamo, memory]) await loadData(DATA, store, "snapshot");
    await agree({ dynamo, memory });
  });

  it("keep their gram blocks in step across the chunks of one load", async () => {
    const { dynamo, memory } = await loadedAndKept();
    // 300 persons with a record each in acme, a load of 600 changes: several chunks, each
    // counting into blocks the chunk before split, without reading them again.
    const many = Array.from({ length: 300 }, (_, i) => 100 + i);
    const at = (i: number) =>
      `2024-03-01T00:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`;
    const file = dataFileOf(
      many.map((n, i) => personInput(person(n), at(i))),
      many.map((n, i) =>
        employeeInput({
          ...recordOf([n, "acme", n, i % 3 === 0 ? "Zack" : "Anna", "Zorn"]),
          createdAt: at(i),
        }),
      ),
    );
    for (const store of [dynamo, memory]) await loadData(file, store, "merge");
    await agree({ dynamo, memory });
  });

  it("follow a key's scope change in the partition the scope had: only the persons of the companies that differ are rewritten", async () => {
    const { dynamo, memory } = await loadedAndKept();
    const before = await items().all();
    const home = hexOf(scopePartition(scopeIdOf(SCOPES[0] ?? [])));
    // The narrow key gains dune: the new scope takes over the narrow one's partition.
    const widened = [["acme", "beta", "dune"], SCOPES[1] ?? []];
    for (const store of [dynamo, memory]) await keepScopes(store, widened);
    await agree({ dynamo, memory }, widened);
    const beforeKeys = new Set(before.map((item) => keyText(keyOf(item))));
    const written = (await items().all()).filter((item) => !beforeKeys.has(keyText(keyOf(item))));
    const postings = written.filter((item) => isPostingSort(bytesOf(item[A.sort])));
    expect(postings.length).toBeGreaterThan(0);
    // Every new posting is in the old partition, and of person 6, dune's one person.
    expect(new Set(postings.map((item) => hexOf(bytesOf(item[A.partition]))))).toEqual(new Set([home]));
    expect(
      new Set(postings.map((item) => orderKeyParts(postingOfSort(bytesOf(item[A.sort])).order).id)),
    ).toEqual(new Set([person(6)]));
    // A reader that knows nothing finds the partition from the registry, and reads no company.
    await readsOnlyHome(widened[0] ?? [], NAMES[0] ?? {}, home);

    // Loads after the change know which generation each person's postings are at.
    await loadBoth({ dynamo, memory }, CHANGES);
    await agree({ dynamo, memory }, widened);

    // And back: the narrow scope returns to the partition, dune's person leaves it.
    for (const store of [dynamo, memory]) await keepScopes(store, SCOPES);
    await agree({ dynamo, memory });
    for (const store of [dynamo, memory]) await loadData(DATA, store, "snapshot");
    await agree({ dynamo, memory });
  });

  it("of a kept scope whose postings are deleted: searches read the entries until the scopes are kept again", async () => {
    const { dynamo, memory } = await loadedAndKept();
    // The scope's postings, blocks, census and marker deleted: it is not posted.
    const narrow = scopeItemsOf(await items().all(), SCOPES[0] ?? []);
    for (const item of narrow) {
      const sort = bytesOf(item[A.sort]);
      if (isPostingSort(sort) || isGramBlockSort(sort) || isGramCensusSort(sort) || isGramMarkerSort(sort))
        await items().remove(keyOf(item));
    }
    await verified();
    await alike({ dynamo, memory });
    // A load maintains only posted scopes: the narrow one stays unposted, and still answers right.
    await loadBoth({ dynamo, memory }, CHANGES);
    await verified();
    await alike({ dynamo, memory });

    await keepScopes(dynamo, SCOPES);
    const rebuilt = scopeItemsOf(await items().all(), SCOPES[0] ?? []);
    expect(rebuilt.some((item) => isGramMarkerSort(bytesOf(item[A.sort])))).toBe(true);
    await verified();
    await alike({ dynamo, memory });
  });

  it("are checked by verify: a missing posting, a stray one, a miscounting census, postings of no scope", async () => {
    const { dynamo } = await loadedAndKept();
    const wide = scopeItemsOf(await items().all(), SCOPES[1] ?? []);
    const posting = wide.find((item) => isPostingSort(bytesOf(item[A.sort])));
    const census = wide.find((item) => isGramCensusSort(bytesOf(item[A.sort])));
    if (!posting || !census) throw new Error("the wide scope is not posted");
    const problem = async () => (await verifyDirectory(documents(), table())).problem?.what;

    await items().remove(keyOf(posting));
    expect(await problem()).toMatch(/postings its names call for|not those its names call for/);
    await items().put(posting);
    await verified();

    // The same posting at the generation before the scope was kept: no person's bundle says so.
    const sort = bytesOf(posting[A.sort]);
    const stray = { ...posting, [A.sort]: Uint8Array.of(...sort.subarray(0, -1), (sort.at(-1) ?? 1) - 1) };
    await items().put(stray);
    expect(await problem()).toMatch(/a posting of no visible names entry of its generation/);
    await items().remove(keyOf(stray));
    await verified();

    const narrowCensus = scopeItemsOf(await items().all(), SCOPES[0] ?? []).find((item) =>
      isGramCensusSort(bytesOf(item[A.sort])),
    );
    await items().put({ ...census, [A.data]: narrowCensus?.[A.data] });
    expect(await problem()).toMatch(/counts \d+ records whose/);
    // Searches never answer a total the postings contradict: they fail, naming the census.
    await expect(answers(dynamo)).rejects.toThrow(/^names census of [0-9a-f]+\/[0-9a-f]+ counts \d+ holders/);
    await items().put(census);
    await verified();

    // Dropping the wide scope supersedes its postings with its order; a posting put back is of no scope.
    await keepScopes(dynamo, [SCOPES[0] ?? []]);
    await verified();
    await items().put(
      Object.fromEntries(Object.entries(posting).filter(([name]) => name !== A.supersededAt)),
    );
    expect(await problem()).toMatch(/name postings of a scope that is not registered/);
  });
});
