/**
 * Name postings on both engines: an employees search by a fragment reads the postings of its
 * rarest gram (a trigram, or the fragment itself when of 1 or 2 characters), so it answers with
 * the company's names entries gone; a company whose postings are not marked complete (its marker
 * deleted or damaged) is answered from its names entries until a load touches it, which then posts
 * it whole. Each test runs on one engine, by turns from TURN_SEED (`itByTurns`): every test meets
 * both engines over an even and an odd seed.
 */
import { instantKey } from "../../../../lib/directory/instant-key.js";
import { loadData } from "../../../../lib/load/load-file.js";
import { employmentFilter } from "../../../../lib/search/matching.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import { type Item, keyOf } from "../../../../lib/store/dynamo/model/batch.js";
import {
  decodeGramBlock,
  decodePostingPage,
  encodeGramBlock,
} from "../../../../lib/store/dynamo/model/codec.js";
import {
  FAMILY,
  GRAMS,
  gramBlockOfSort,
  isGramBlockSort,
  isPostingSort,
  postingOfSort,
} from "../../../../lib/store/dynamo/model/layout.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { repairDerived } from "../../../../lib/store/dynamo/write/load-session.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { memoryDirectory } from "../../../../lib/store/memory/memory-directory.js";
import type { DirectoryReader, DirectoryWriter } from "../../../../lib/store/port.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../../../support/engines.js";
import { dataFileOf, employeeInput, testUuid } from "../../../support/records.js";
import { tableItems } from "../../../support/table-items.js";
import { E1, E2, E4, loadTwice, recordOf } from "../verify-fixture.js";

const family = (item: Item) => (item[A.sort] as Uint8Array)[0];

/**
 * Records of one company for the gram blocks: 16 over 16 days; first names holding "a" (Ana,
 * Marta, Sara, Anne, Eva: not Tomás, whose "á" is its own gram) are 10 of them.
 */
const FIRST = ["Ana", "Zoë", "Marta", "Li", "Sara", "Anne", "Tomás", "Eva"];
const LAST = ["García", "Ng", "Okafor", "Lee"];
const blockRecord = (n: number, firstName = FIRST[n % 8] ?? null, companyId = "gamma") =>
  employeeInput({
    id: testUuid(0x6b, 1, n),
    companyId,
    personId: null,
    createdAt: `2024-03-${String(n + 1).padStart(2, "0")}T00:00:00Z`,
    firstName,
    lastName: LAST[n % 4] ?? null,
  });
const BLOCK_DATA = dataFileOf(
  [],
  Array.from({ length: 16 }, (_, n) => blockRecord(n)),
);
/** Gram blocks of two to four postings: 16 records split and merge them. */
const BLOCKS = { target: 3, max: 4, min: 2 };
const day = (n: number) => instantKey(`2024-03-${String(n).padStart(2, "0")}T00:00:00Z`);
/**
 * Answered from gram blocks: a short fragment alone with a created range; two fragments of 1 to 3
 * characters, one of them 1 or 2, with or without one (their companion counts); and two trigrams
 * (not: the postings of the rarer).
 */
const RANGED: [object, object][] = [
  [{ firstName: "a" }, { from: day(3) }],
  [{ firstName: "a" }, { from: day(2), before: day(15) }],
  [{ lastName: "g" }, { before: day(12) }],
  [{ firstName: "an" }, { from: day(4), before: day(14) }],
  [{ lastName: "oka" }, { from: day(1) }],
  [{ firstName: "q" }, { from: day(1) }],
  [{ firstName: "a", lastName: "a" }, {}],
  [{ firstName: "an", lastName: "g" }, {}],
  [{ firstName: "a", lastName: "gar" }, { from: day(3) }],
  [{ firstName: "ar", lastName: "oka" }, {}],
  [{ firstName: "ana", lastName: "e" }, {}],
  [
    { firstName: "e", lastName: "le" },
    { from: day(2), before: day(15) },
  ],
  [{ firstName: "a", lastName: "q" }, {}],
  [{ firstName: "ma", lastName: "ok" }, { before: day(12) }],
  [{ firstName: "ann", lastName: "lee" }, {}],
];
const WINDOWS = [
  { offset: 0, limit: 3 },
  { offset: 2, limit: 4 },
  { offset: 5, limit: 50 },
  { offset: 100, limit: 5 },
];
const companyOf = (item: Item) => Buffer.from(item[A.partition] as Uint8Array).toString("utf8");

/**
 * A record without a name or person, new in `companyId`: a load of it changes the company's entries
 * (a key entry), and so derives the company, without changing any name posting.
 */
const unnamedIn = (companyId: string) => ({
  ...recordOf(E1),
  id: testUuid(0x7e, 9, 1),
  companyId,
  personId: null,
  demographics: { ...recordOf(E1).demographics, firstName: null, lastName: null },
});

describeEachEngine(`name postings (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  // Each test loads both stores and compares many searches: one engine a run, by turns.
  const it = itByTurns(TURN_SEED, engineName);
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;
  const items = () => tableItems(documents(), table());
  const directory = () =>
    dynamoDirectory(documents(), table(), { reader: { manifestTtlMs: 0 }, writer: { graceMs: 0 } });
  const named = async (companyId: string, names: { firstName?: string; lastName?: string }) => {
    const page = await directory().employees({
      filter: employmentFilter([companyId], names),
      created: {},
      offset: 0,
      limit: 50,
    });
    return { ids: page.items.map((record) => record.id), total: page.total };
  };
  /** Removes the items of these families from a company (or from every company). */
  const removeFamilies = async (families: readonly number[], companyId?: string) => {
    for (const item of await items().all())
      if (families.includes(family(item) ?? 0) && (companyId === undefined || companyOf(item) === companyId))
        await items().remove(keyOf(item));
  };

  beforeEach(async () => {
    await items().wipe();
    await loadTwice(documents(), table());
  });

  it("answers fragments of any length from the postings", async () => {
    // acme: E1 "Zoë García", E2 "Zoë Okafor" (renamed by the second load).
    expect(await named("acme", { firstName: "ZOË" })).toEqual({ ids: [E1, E2], total: 2 });
    expect(await named("acme", { lastName: "okaf", firstName: "zoe\u0308" })).toEqual({
      ids: [E2],
      total: 1,
    });
    expect(await named("acme", { lastName: "garcía", firstName: "z" })).toEqual({ ids: [E1], total: 1 });
    await removeFamilies([FAMILY.employmentNames], "acme");
    // The postings alone answer: one trigram (with the marker), several (the census picks).
    expect(await named("acme", { firstName: "ZOË" })).toEqual({ ids: [E1, E2], total: 2 });
    expect(await named("acme", { lastName: "okaf", firstName: "zoe\u0308" })).toEqual({
      ids: [E2],
      total: 1,
    });
    expect(await named("acme", { lastName: "garcía", firstName: "z" })).toEqual({ ids: [E1], total: 1 });
    expect(await named("acme", { lastName: "xyz" })).toEqual({ ids: [], total: 0 });
    // A trigram no record holds (the census says so): nothing matches.
    expect(await named("acme", { lastName: "garcx" })).toEqual({ ids: [], total: 0 });
    // One or two characters: the fragment's own postings, counted in the census.
    expect(await named("acme", { firstName: "zo" })).toEqual({ ids: [E1, E2], total: 2 });
    expect(await named("acme", { lastName: "Í" })).toEqual({ ids: [E1], total: 1 });
    expect(await named("acme", { lastName: "q" })).toEqual({ ids: [], total: 0 });
    expect(await named("acme", { firstName: "ë", lastName: "ok" })).toEqual({ ids: [E2], total: 1 });
    expect(await named("acme", { firstName: "z", lastName: "garc" })).toEqual({ ids: [E1], total: 1 });
    const second = await directory().employees({
      filter: employmentFilter(["acme"], { firstName: "z" }),
      created: {},
      offset: 1,
      limit: 50,
    });
    expect({ ids: second.items.map((record) => record.id), total: second.total }).toEqual({
      ids: [E2],
      total: 2,
    });
  });

  describe("short fragments counted by gram blocks", () => {
    const stores = () => ({
      dynamo: dynamoDirectory(documents(), table(), {
        reader: { manifestTtlMs: 0, answerCacheBytes: 0 },
        writer: { graceMs: 0, gramBlocks: BLOCKS },
      }),
      memory: memoryDirectory(),
    });
    const ranged = async (reader: DirectoryReader) => {
      const found = [];
      for (const [names, created] of RANGED)
        for (const window of WINDOWS) {
          const page = await reader.employees({
            filter: employmentFilter(["gamma"], names),
            created,
            ...window,
          });
          found.push({ ids: page.items.map((record) => record.id), total: page.total });
        }
      return found;
    };
    const agree = async (both: { dynamo: DirectoryReader; memory: DirectoryReader }) => {
      expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
      expect(await ranged(both.dynamo)).toEqual(await ranged(both.memory));
    };
    const loadBoth = async (
      both: Record<string, DirectoryWriter>,
      file: object,
      mode: "merge" | "snapshot",
    ) => {
      for (const store of Object.values(both)) await loadData(file as typeof BLOCK_DATA, store, mode);
    };
    /** The blocks of a gram of gamma (of first names unless said). */
    const blocksOf = async (text: string, field = "firstName") =>
      (await items().all()).filter((item) => {
        const sort = item[A.sort] as Uint8Array;
        if (!isGramBlockSort(sort) || companyOf(item) !== "gamma") return false;
        const block = gramBlockOfSort(sort);
        return block.field === field && block.text === text;
      });

    it("is answered from its gram's blocks as the in-memory store answers, through changes and snapshots", async () => {
      await items().wipe();
      const both = stores();
      await loadBoth(both, BLOCK_DATA, "snapshot");
      // Posted whole: "a" (first names) is held by 10 records, cut 3, 3, 3 and 1 (taken into the third).
      expect((await blocksOf("a")).length).toBe(3);
      await agree(both);
      // Records added after the others split the last block of "a"; renames and deletes merge them.
      const added = Array.from({ length: 6 }, (_, n) => blockRecord(16 + n, "Hana"));
      await loadBoth(both, dataFileOf([], added), "merge");
      await agree(both);
      const renamed = [0, 1, 2, 5, 6, 8].map((n) => blockRecord(n, "Li"));
      await loadBoth(both, dataFileOf([], renamed), "merge");
      await agree(both);
      for (const store of [both.dynamo, both.memory]) {
        const session = await store.beginLoad("deletes");
        await session.apply([10, 11, 12, 13].map((n) => ({ op: "delete", employee: testUuid(0x6b, 1, n) })));
        await session.commit();
      }
      await agree(both);
      // A snapshot back to the start.
      await loadBoth(both, BLOCK_DATA, "snapshot");
      await agree(both);
      // Every block counts at most `max` postings, and "a" is still counted by several.
      expect((await blocksOf("a")).length).toBeGreaterThan(1);
    });

    it("fails a search whose block disagrees with its postings or the census, naming the block", async () => {
      await items().wipe();
      const { dynamo } = stores();
      await loadData(BLOCK_DATA, dynamo, "snapshot");
      const [first, second] = await blocksOf("a");
      if (!first || !second) throw new Error('gamma\'s "a" has fewer than two blocks');
      const search = () =>
        dynamo.employees({
          filter: employmentFilter(["gamma"], { firstName: "a" }),
          created: { from: day(2) },
          offset: 0,
          limit: 50,
        });
      /** A block as stored, its count (and a companion's) changed; no companion counted above `n`. */
      const counting = (block: Item, n: number, companion?: [string, number]) => {
        const { companions } = decodeGramBlock(block[A.data] as Uint8Array);
        const changed = new Map([...companions].map(([gram, count]) => [gram, Math.min(count, n)]));
        if (companion) changed.set(...companion);
        return { ...block, [A.data]: encodeGramBlock(n, changed) };
      };
      await items().put(counting(second, 9));
      await expect(search()).rejects.toThrow(/gram block .* count \d+ postings, but the names census/);
      await items().put(second);
      // The counts add up, but the second block claims one posting of the first's.
      const read = gramBlockOfSort(first[A.sort] as Uint8Array);
      expect(read.text).toBe("a");
      await items().put(counting(first, 2));
      await items().put(counting(second, 4));
      await expect(search()).rejects.toThrow(/counts 4 postings, but 3 were read/);
      expect((await verifyDirectory(documents(), table())).problem?.what).toMatch(
        /counts 2 postings, where 3 are/,
      );
      await items().put(first);
      await items().put(second);
      // A companion counted once too often: a search of both names reading the block fails, verify
      // names it. "g" (8 holders) is rarer than "a" (10): its blocks are read, their companion "a".
      const both = () =>
        dynamo.employees({
          filter: employmentFilter(["gamma"], { firstName: "a", lastName: "g" }),
          created: {},
          offset: 0,
          limit: 50,
        });
      // Ana, Sara, Anne (twice each) are of García or Ng.
      expect((await both()).total).toBe(6);
      const [ofG] = await blocksOf("g", "lastName");
      if (!ofG) throw new Error('gamma\'s "g" has no block');
      const { n, companions } = decodeGramBlock(ofG[A.data] as Uint8Array);
      const held = companions.get("a") ?? 0;
      await items().put(counting(ofG, n, ["a", held + 1]));
      await expect(both()).rejects.toThrow(`counts ${held + 1} matches, but ${held} were read`);
      expect((await verifyDirectory(documents(), table())).problem?.what).toBe(
        `a gram block that counts ${held + 1} holders of companion "a", where ${held} are`,
      );
      // A block of a kind no load writes (1) is damage: searches reading it fail, verify names it.
      const otherKind = encodeGramBlock(n, new Map());
      otherKind[1] = 1;
      await items().put({ ...ofG, [A.data]: otherKind });
      await expect(both()).rejects.toThrow("a gram block of kind 1");
      expect((await verifyDirectory(documents(), table())).problem?.what).toBe(
        "unreadable: a gram block of kind 1",
      );
      await items().put(ofG);
      // A held gram's blocks gone: its searches fail naming the census, verify names it, a load
      // changing its postings is undone; a repair posts the company whole again.
      for (const item of await blocksOf("a")) await items().remove(keyOf(item));
      const unblocked = /counts 10 holders of firstName gram "a", but no gram block of it is visible/;
      await expect(search()).rejects.toThrow(unblocked);
      expect((await verifyDirectory(documents(), table())).problem?.what).toMatch(/no gram block counts/);
      await expect(loadData(dataFileOf([], [blockRecord(16, "Ana")]), dynamo, "merge")).rejects.toThrow(
        unblocked,
      );
      await repairDerived(documents(), table(), { graceMs: 0 });
      expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
      expect((await search()).total).toBe(9);
    });
  });

  it("names a marker under a family no load writes malformed; reads the company from its names entries; repair posts it whole", async () => {
    // The marker moved to 0x0d: no family of a company partition, and no marker.
    const marker = (await items().all()).find(
      (item) => family(item) === GRAMS.marker && companyOf(item) === "acme",
    );
    if (!marker) throw new Error("acme has no marker");
    const sort = Uint8Array.from(marker[A.sort] as Uint8Array);
    sort[0] = 0x0d;
    await items().put({ ...marker, [A.sort]: sort });
    await items().remove(keyOf(marker));
    expect((await verifyDirectory(documents(), table())).problem?.what).toBe(
      "a company item with a malformed sort key",
    );
    expect(await named("acme", { firstName: "zo" })).toEqual({ ids: [E1, E2], total: 2 });
    await repairDerived(documents(), table(), { graceMs: 0 });
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    await removeFamilies([FAMILY.employmentNames], "acme");
    expect(await named("acme", { firstName: "zo" })).toEqual({ ids: [E1, E2], total: 2 });
  });

  it("answers a company not marked from its names entries, and posts it whole at the next load that touches it", async () => {
    // Postings, census and marker deleted everywhere (a marker deleted has its company posted whole).
    await removeFamilies([GRAMS.postings, GRAMS.census, GRAMS.marker]);
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    expect(await named("acme", { firstName: "ZOË" })).toEqual({ ids: [E1, E2], total: 2 });
    expect(await named("beta", { lastName: "garcía" })).toEqual({ ids: [E4], total: 1 });

    // A record of acme without a name added (its entries change): acme is posted whole, beta is
    // left as it was.
    await loadData({ persons: [], employees: [unnamedIn("acme")] }, directory(), "merge");
    const left = await items().all();
    // Postings in pages: each page item's postings, counted.
    const postings = (companyId: string) =>
      left
        .filter((item) => isPostingSort(item[A.sort] as Uint8Array) && companyOf(item) === companyId)
        .reduce((sum, item) => {
          const sort = item[A.sort] as Uint8Array;
          return sum + decodePostingPage(item[A.data] as Uint8Array, postingOfSort(sort).order).length;
        }, 0);
    // Zoë García and Zoë Okafor: zoë zo oë z o ë; gar arc rcí cía ga ar rc cí ía g a r c í;
    // oka kaf afo for ok ka af fo or o k a f r.
    expect(postings("acme")).toBe(2 * 6 + 14 + 14);
    expect(postings("beta")).toBe(0);
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    expect(await named("acme", { firstName: "ZOË" })).toEqual({ ids: [E1, E2], total: 2 });
    expect(await named("beta", { lastName: "garcía" })).toEqual({ ids: [E4], total: 1 });
  });

  it("posts a company again when its marker is deleted, superseding stray postings", async () => {
    const stray = (await items().all()).find(
      (item) => family(item) === GRAMS.postings && companyOf(item) === "acme",
    );
    if (!stray) throw new Error("acme has no postings");
    // A posting of a record that is not there, and one posting of E1 lost.
    const sort = Uint8Array.from(stray[A.sort] as Uint8Array);
    sort[sort.length - 5] = (sort[sort.length - 5] ?? 0) ^ 0xff;
    await items().put({ ...stray, [A.sort]: sort });
    await items().remove(keyOf(stray));
    expect((await verifyDirectory(documents(), table())).problem).toBeDefined();
    await removeFamilies([GRAMS.marker], "acme");
    await loadData({ persons: [], employees: [unnamedIn("acme")] }, directory(), "merge");
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    expect(await named("acme", { firstName: "ZOË" })).toEqual({ ids: [E1, E2], total: 2 });
  });

  it("keeps the postings of a company in step with a rename, a move and a delete", async () => {
    await loadData(
      {
        persons: [],
        employees: [
          { ...recordOf(E1), demographics: { ...recordOf(E1).demographics, firstName: "Anne-Marie" } },
          { ...recordOf(E4), companyId: "acme" },
        ],
      },
      directory(),
      "merge",
    );
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    expect(await named("acme", { firstName: "ZOË" })).toEqual({ ids: [E2, E4], total: 2 });
    expect(await named("acme", { firstName: "ne-ma" })).toEqual({ ids: [E1], total: 1 });
    expect(await named("beta", { lastName: "garcía" })).toEqual({ ids: [], total: 0 });
    const session = await directory().beginLoad("delete E2");
    await session.apply([{ op: "delete", employee: E2 }]);
    await session.commit();
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    expect(await named("acme", { lastName: "okafor" })).toEqual({ ids: [], total: 0 });
  });
});
