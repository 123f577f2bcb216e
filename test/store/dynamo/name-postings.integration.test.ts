/**
 * Name postings on both engines: an employees search by a fragment reads the postings of its
 * rarest gram (a trigram, or the fragment itself when of 1 or 2 characters), so it answers with
 * the company's names entries gone; a company whose postings are not marked complete (a table
 * loaded before postings existed, or with a marker of trigrams only) is answered from its names
 * entries until a load touches it, which then posts it whole.
 */
import { loadData } from "../../../lib/load/load-file.js";
import { employmentFilter } from "../../../lib/search/matching.js";
import { dynamoDirectory } from "../../../lib/store/dynamo/index.js";
import { type Item, keyOf } from "../../../lib/store/dynamo/model/batch.js";
import { FAMILY, GRAMS } from "../../../lib/store/dynamo/model/layout.js";
import { verifyDirectory } from "../../../lib/store/dynamo/verify/verify.js";
import { repairDerived } from "../../../lib/store/dynamo/write/load-session.js";
import { documentClientFor } from "../../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../../lib/store/tables.js";
import { describeEachEngine } from "../../support/engines.js";
import { E1, E2, E4, loadTwice, recordOf, tableItems } from "./verify-fixture.js";

const family = (item: Item) => (item[A.sort] as Uint8Array)[0];
const companyOf = (item: Item) => Buffer.from(item[A.partition] as Uint8Array).toString("utf8");

describeEachEngine("name postings", (getEngine) => {
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

  it("reads a company whose marker is of trigrams only from its names entries; repair posts it whole", async () => {
    // As a table posted before grams of 1 and 2 characters were: its marker's family was 0x0d.
    const marker = (await items().all()).find(
      (item) => family(item) === GRAMS.marker && companyOf(item) === "acme",
    );
    if (!marker) throw new Error("acme has no marker");
    const sort = Uint8Array.from(marker[A.sort] as Uint8Array);
    sort[0] = 0x0d;
    await items().put({ ...marker, [A.sort]: sort });
    await items().remove(keyOf(marker));
    expect((await verifyDirectory(documents(), table())).problem?.what).toMatch(/marker of trigrams only/);
    expect(await named("acme", { firstName: "zo" })).toEqual({ ids: [E1, E2], total: 2 });
    await repairDerived(documents(), table(), { graceMs: 0 });
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    await removeFamilies([FAMILY.employmentNames], "acme");
    expect(await named("acme", { firstName: "zo" })).toEqual({ ids: [E1, E2], total: 2 });
  });

  it("answers a company not marked from its names entries, and posts it whole at the next load that touches it", async () => {
    // As a table loaded before postings existed: no posting, census or marker anywhere.
    await removeFamilies([GRAMS.postings, GRAMS.census, GRAMS.marker]);
    expect((await verifyDirectory(documents(), table())).problem).toBeUndefined();
    expect(await named("acme", { firstName: "ZOË" })).toEqual({ ids: [E1, E2], total: 2 });
    expect(await named("beta", { lastName: "garcía" })).toEqual({ ids: [E4], total: 1 });

    // One record of acme changed: acme is posted whole, beta is left as it was.
    await loadData(
      { persons: [], employees: [{ ...recordOf(E1), updatedAt: "2024-06-01T00:00:00Z" }] },
      directory(),
      "merge",
    );
    const left = await items().all();
    const postings = (companyId: string) =>
      left.filter((item) => family(item) === GRAMS.postings && companyOf(item) === companyId).length;
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
    await loadData(
      { persons: [], employees: [{ ...recordOf(E2), updatedAt: "2024-06-01T00:00:00Z" }] },
      directory(),
      "merge",
    );
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
