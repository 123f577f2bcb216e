/**
 * `verify` on both engines: a directory written by two loads passes; then one item at a time is
 * corrupted the way a bug or a dead process could, and verify names that item and what is wrong.
 * Each test runs on one engine, by turns from TURN_SEED (`itByTurns`): every test meets both
 * engines over an even and an odd seed.
 */
import { type DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { instantKey } from "../../../../lib/directory/instant-key.js";
import { keepScopes } from "../../../../lib/load/keep-scopes.js";
import { namesOf } from "../../../../lib/search/matching.js";
import { orderKey, phoneBytes } from "../../../../lib/store/binary-keys.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import type { Item, ItemKey } from "../../../../lib/store/dynamo/model/batch.js";
import {
  compress,
  decodeLocation,
  decodeOrderBlock,
  decodeOrderIndex,
  decodePostingPage,
  encodeLocation,
  encodeNamePairs,
  encodeOrderBlock,
  encodeOrderIndex,
  encodePostingPage,
  encodeScopeCompanies,
  FORMAT,
  type PagedPosting,
} from "../../../../lib/store/dynamo/model/codec.js";
import { bundleItems, employmentOrder, personOrder } from "../../../../lib/store/dynamo/model/items.js";
import {
  bundleSort,
  companyPartition,
  entrySort,
  FAMILY,
  type Family,
  genOf,
  gramCensusSort,
  gramMarkerSort,
  isPostingSort,
  journalPartition,
  journalSort,
  LOCATION_SORT,
  locationPartition,
  MANIFEST_KEY,
  ORDER,
  orderBlockSort,
  orderIndexSort,
  personPartition,
  postingOfSort,
  postingSort,
  SCOPES_PARTITION,
  scopeIdOf,
  scopePartition,
  scopeRegistrySort,
} from "../../../../lib/store/dynamo/model/layout.js";
import { type Gram, GramCensus, gramsOfPair } from "../../../../lib/store/dynamo/structures/name-grams.js";
import { verifyDirectory } from "../../../../lib/store/dynamo/verify/verify.js";
import { repairDerived } from "../../../../lib/store/dynamo/write/load-session.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import { TableFormatError } from "../../../../lib/store/port.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../../../support/engines.js";
import { testUuid } from "../../../support/records.js";
import { tableItems } from "../../../support/table-items.js";
import { E1, E2, E4, loadTwice, P1, recordOf, SECOND } from "../verify-fixture.js";

const entry = (company: string, family: Family, id: string, gen: number): ItemKey => ({
  p: companyPartition(company),
  s: entrySort(family, employmentOrder(recordOf(id)), gen),
});
const location = (id: string): ItemKey => ({ p: locationPartition(id), s: LOCATION_SORT });
const hex = (key: ItemKey) => ({
  p: Buffer.from(key.p).toString("hex"),
  s: Buffer.from(key.s).toString("hex"),
});
const GHOST = testUuid(0x7e, 0, 0x99);

/** The scope of acme and beta, kept by a third load (generation 3). */
const ACME_BETA = scopeIdOf(["acme", "beta"]);
const SCOPE_REGISTRY: ItemKey = { p: SCOPES_PARTITION, s: scopeRegistrySort(ACME_BETA, 3) };
const SCOPE_INDEX: ItemKey = { p: scopePartition(ACME_BETA), s: orderIndexSort(ORDER.persons, 3) };
const keepAcmeBeta = (documents: ReturnType<typeof documentClientFor>, table: string) =>
  keepScopes(dynamoDirectory(documents, table, { writer: { graceMs: 0 } }), [["acme", "beta"]]);

/** acme's name postings: its marker (written by the first load) and census (counts changed by the second). */
const ACME_MARKER: ItemKey = { p: companyPartition("acme"), s: gramMarkerSort(1) };
const ACME_CENSUS: ItemKey = { p: companyPartition("acme"), s: gramCensusSort(2, 0) };
const ZOE: Gram = { field: "firstName", text: "zoë" };

type Items = ReturnType<typeof tableItems>;
interface Case {
  readonly title: string;
  readonly corrupt: (
    items: Items,
    documents: ReturnType<typeof documentClientFor>,
    table: string,
  ) => Promise<unknown>;
  /**
   * The item verify must name (or only its partition, when two items are equally to blame), or how
   * to find it before the damage.
   */
  readonly named: ItemKey | { p: Uint8Array } | ((items: Items) => Promise<ItemKey>);
  readonly what: RegExp;
}

/** The visible page of acme holding a record's posting under `gram`: the item, its postings, where. */
async function pageHolding(items: Items, id: string, gram: Gram) {
  const order = employmentOrder(recordOf(id));
  for (const item of await items.all()) {
    const sort = item[A.sort] as Uint8Array;
    if (!isPostingSort(sort) || item[A.supersededAt] !== undefined) continue;
    if (Buffer.compare(Buffer.from(item[A.partition] as Uint8Array), Buffer.from(companyPartition("acme"))))
      continue;
    const { field, text, order: low } = postingOfSort(sort);
    if (field !== gram.field || text !== gram.text) continue;
    const postings: PagedPosting[] = decodePostingPage(item[A.data] as Uint8Array, low);
    const index = postings.findIndex((posting) => posting.order === order);
    if (index >= 0) return { item, postings, index, key: { p: item[A.partition], s: sort } as ItemKey };
  }
  throw new Error(`no page of acme holds ${id} under ${gram.text}`);
}

const copyAt = async (items: Items, key: ItemKey, s: Uint8Array, extra: Item = {}) =>
  items.put({ ...(await items.get(key)), [A.sort]: s, ...extra });

// In SECOND: E1 (acme, P1) is unchanged since generation 1; E2 (acme, P1) was renamed at 2.
/** The manifest item updated in place, as an operator's edit or an older code's table would leave it. */
const updateManifest = (
  documents: DynamoDBDocumentClient,
  table: string,
  expression: string,
  values?: Record<string, unknown>,
) =>
  documents.send(
    new UpdateCommand({
      TableName: table,
      Key: { [A.partition]: MANIFEST_KEY.p, [A.sort]: MANIFEST_KEY.s },
      UpdateExpression: expression,
      ...(values ? { ExpressionAttributeValues: values } : {}),
    }),
  );

const CASES: readonly Case[] = [
  {
    title: "a deleted employment key entry",
    corrupt: (items) => items.remove(entry("acme", FAMILY.employmentKey, E1, 1)),
    named: entry("acme", FAMILY.record, E1, 1),
    what: /no employment key entry of generation 1/,
  },
  {
    title: "a location whose hash changed",
    corrupt: async (items) => {
      const item = await items.get(location(E1));
      const value = decodeLocation(item[A.data] as Uint8Array);
      await items.put({ ...item, [A.data]: encodeLocation({ ...value, hash: "00".repeat(8) }) });
    },
    named: location(E1),
    what: /does not point at the visible record item/,
  },
  {
    title: "an item in format 1",
    corrupt: async (items) => {
      const item = await items.get(entry("acme", FAMILY.employmentNames, E1, 1));
      const data = Uint8Array.from(item[A.data] as Uint8Array);
      data[0] = 1;
      await items.put({ ...item, [A.data]: data });
    },
    named: entry("acme", FAMILY.employmentNames, E1, 1),
    what: new RegExp(`format byte ${FORMAT}`),
  },
  {
    title: "a journal item left behind",
    corrupt: (items) =>
      items.put({
        [A.partition]: journalPartition(3),
        [A.sort]: journalSort(0),
        [A.data]: compress({ puts: [], stamps: [], locations: [] }),
      }),
    named: { p: journalPartition(3), s: journalSort(0) },
    what: /journal of generation 3 with no load of it in progress/,
  },
  {
    title: "a person entry without a bundle",
    corrupt: (items) =>
      items.put({
        [A.partition]: companyPartition("acme"),
        [A.sort]: entrySort(FAMILY.personKey, orderKey(instantKey("2024-02-02T00:00:00Z"), GHOST), 2),
        [A.data]: Uint8Array.of(FORMAT),
      }),
    named: {
      p: companyPartition("acme"),
      s: entrySort(FAMILY.personKey, orderKey(instantKey("2024-02-02T00:00:00Z"), GHOST), 2),
    },
    what: new RegExp(`no bundle of person ${GHOST}`),
  },
  {
    title: "a superseded version older than the committed generation",
    corrupt: (items) =>
      copyAt(
        items,
        entry("acme", FAMILY.employmentKey, E2, 2),
        entry("acme", FAMILY.employmentKey, E2, 1).s,
        {
          [A.supersededAt]: 2,
        },
      ),
    named: entry("acme", FAMILY.employmentKey, E2, 1),
    what: /superseded at generation 2 <= committed 2 and never removed \(stale garbage\)/,
  },
  {
    title: "a version of a load that died",
    corrupt: (items) =>
      copyAt(items, entry("acme", FAMILY.employmentKey, E1, 1), entry("acme", FAMILY.employmentKey, E1, 3).s),
    named: entry("acme", FAMILY.employmentKey, E1, 3),
    what: /written by generation 3 > committed 2 with no load of it in progress/,
  },
  {
    title: "two visible versions of one key",
    corrupt: (items) =>
      copyAt(items, entry("acme", FAMILY.employmentKey, E2, 2), entry("acme", FAMILY.employmentKey, E2, 1).s),
    named: { p: companyPartition("acme") },
    what: /a second visible version of one key/,
  },
  {
    title: "a stale lease",
    corrupt: (_items, documents, table) =>
      updateManifest(documents, table, "SET lease = :lease", {
        ":lease": { owner: "dead", label: "a load that died", startedAt: 0, expiresAt: 1, gen: 3 },
      }),
    named: MANIFEST_KEY,
    what: /stale lease of load "a load that died"/,
  },
  {
    title: "a table published by code of an earlier format",
    corrupt: (_items, documents, table) => updateManifest(documents, table, "REMOVE formatVersion"),
    named: MANIFEST_KEY,
    what: /the directory table is in format 2 or older and this code reads format 4: load the source/,
  },
  {
    title: "a record linking to a person who does not exist",
    corrupt: async (items) => {
      const orphan = { ...recordOf(E4), personId: GHOST };
      for (const item of bundleItems(GHOST, { person: null, employees: [orphan] }, 2, 2))
        await items.put(item);
    },
    named: { p: personPartition(GHOST), s: bundleSort(2, 0) },
    what: new RegExp(`dangling reference: record ${E4} links to person ${GHOST}`),
  },
  {
    title: "a record item whose phone attribute is not its phone",
    corrupt: async (items) => {
      const item = await items.get(entry("acme", FAMILY.record, E1, 1));
      await items.put({ ...item, [A.phone]: phoneBytes("5550000000") });
    },
    named: entry("acme", FAMILY.record, E1, 1),
    what: /phone attribute `t` is not the record's normalized phone/,
  },
  {
    title: "a bundle whose person key entry is missing",
    corrupt: (items) =>
      items.remove({
        p: companyPartition("acme"),
        s: entrySort(FAMILY.personKey, personOrder(personOf(P1)), 2),
      }),
    named: { p: personPartition(P1), s: bundleSort(2, 0) },
    what: /no person key entry in acme of generation 2/,
  },
  {
    title: "a kept scope whose order is gone",
    corrupt: async (items, documents, table) => {
      await keepAcmeBeta(documents, table);
      await items.remove(SCOPE_INDEX);
    },
    named: SCOPE_REGISTRY,
    what: /a scope with persons whose order has no visible index/,
  },
  {
    title: "the order of a scope no longer registered",
    corrupt: async (items, documents, table) => {
      await keepAcmeBeta(documents, table);
      await items.remove(SCOPE_REGISTRY);
    },
    named: SCOPE_INDEX,
    what: /the order of a scope that is not registered/,
  },
  {
    title: "a scope registered under another scope's id",
    corrupt: async (items, documents, table) => {
      await keepAcmeBeta(documents, table);
      const item = await items.get(SCOPE_REGISTRY);
      await items.put({ ...item, [A.data]: encodeScopeCompanies(["acme", "beta", "gamma"]) });
    },
    named: SCOPE_REGISTRY,
    what: /a scope registered under an id its companies do not hash to/,
  },
  {
    title: "a scope order missing a person of one of its companies",
    corrupt: async (items, documents, table) => {
      await keepAcmeBeta(documents, table);
      const index = decodeOrderIndex((await items.get(SCOPE_INDEX))[A.data] as Uint8Array);
      const [block] = index;
      if (!block) throw new Error("the scope's order has no block");
      const key = { p: SCOPE_INDEX.p, s: orderBlockSort(ORDER.persons, block.low, block.gen) };
      const keys = decodeOrderBlock((await items.get(key))[A.data] as Uint8Array);
      const fewer = [...index];
      fewer[0] = { ...block, count: block.count - 1 };
      await items.put({ ...(await items.get(key)), [A.data]: encodeOrderBlock(keys.slice(0, -1)) });
      await items.put({ ...(await items.get(SCOPE_INDEX)), [A.data]: encodeOrderIndex(fewer) });
    },
    named: SCOPE_INDEX,
    what: /holds (\d+) keys where its companies' persons are (?!\1)\d+/,
  },
  {
    title: "a names entry missing one of its postings",
    corrupt: async (items) => {
      const { item, postings, index, key } = await pageHolding(items, E1, { field: "lastName", text: "gar" });
      postings.splice(index, 1);
      if (postings.length === 0) await items.remove(key);
      else await items.put({ ...item, [A.data]: encodePostingPage(postings) });
    },
    named: entry("acme", FAMILY.employmentNames, E1, 1),
    what: /has 19 of the 20 postings its names call for/,
  },
  {
    title: "a posting whose names are not its entry's",
    corrupt: async (items) => {
      const { item, postings, index } = await pageHolding(items, E1, ZOE);
      const pairs = encodeNamePairs([{ firstName: "zoë", lastName: "okafor" }]);
      postings[index] = { ...(postings[index] as PagedPosting), pairs };
      await items.put({ ...item, [A.data]: encodePostingPage(postings) });
    },
    // Named by the page of the entry's first posting in key order: the shortest gram first.
    named: async (items) => (await pageHolding(items, E1, { field: "firstName", text: "o" })).key,
    what: /the postings of a names entry are not those its names call for/,
  },
  {
    title: "a posting under a text its name does not hold",
    corrupt: async (items) => {
      const { item, key } = await pageHolding(items, E1, ZOE);
      const { order } = postingOfSort(key.s);
      await items.put({ ...item, [A.sort]: postingSort("firstName", "xyz", order, genOf(key.s)) });
    },
    named: async (items) => {
      const { key } = await pageHolding(items, E1, ZOE);
      return { p: key.p, s: postingSort("firstName", "xyz", postingOfSort(key.s).order, genOf(key.s)) };
    },
    what: /a posting under "xyz", which its first name does not hold/,
  },
  {
    title: "a posting of no names entry",
    // A posting of an order key next to E1's, which no record has.
    corrupt: async (items) => {
      const { item, postings, index } = await pageHolding(items, E1, ZOE);
      const held = postings[index] as PagedPosting;
      const order = `${held.order.slice(0, -1)}${String.fromCharCode(held.order.charCodeAt(24) + 1)}`;
      postings.splice(index + 1, 0, { ...held, order: order as PagedPosting["order"] });
      await items.put({ ...item, [A.data]: encodePostingPage(postings) });
    },
    named: async (items) => (await pageHolding(items, E1, ZOE)).key,
    what: /a posting of no visible names entry of its generation/,
  },
  {
    // Written again at its low, a page replaces the one before unstamped, until the clean-up: one
    // left after it is garbage. The older of the two is named.
    title: "a posting page's replaced version left after its clean-up",
    corrupt: async (items) => {
      const { item, key } = await pageHolding(items, E1, ZOE);
      const gen = genOf(key.s);
      const copy = postingSort("firstName", "zoë", postingOfSort(key.s).order, gen === 1 ? 2 : gen - 1);
      await items.put({ ...item, [A.sort]: copy });
    },
    named: async (items) => {
      const { key } = await pageHolding(items, E1, ZOE);
      const gen = genOf(key.s);
      return gen === 1
        ? key
        : { p: key.p, s: postingSort("firstName", "zoë", postingOfSort(key.s).order, gen - 1) };
    },
    what: /replaced at generation 2 <= committed 2 and never removed \(stale garbage\)/,
  },
  {
    title: "a names census that miscounts",
    corrupt: async (items) =>
      items.put({
        ...(await items.get(ACME_CENSUS)),
        [A.data]: GramCensus.of([gramsOfPair(namesOf(recordOf(E1)))]).encode()[0],
      }),
    named: ACME_CENSUS,
    what: /counts 1 records whose first name holds "o", where 2 do/,
  },
  {
    title: "a postings marker without its census",
    corrupt: (items) => items.remove(ACME_CENSUS),
    named: ACME_MARKER,
    what: /a postings marker with no names census/,
  },
  {
    title: "postings in a company with no marker",
    corrupt: async (items) => {
      await items.remove(ACME_CENSUS);
      await items.remove(ACME_MARKER);
    },
    named: { p: companyPartition("acme") },
    what: /a posting in a company with no postings marker/,
  },
];

function personOf(id: string) {
  const person = SECOND.persons.find((p) => p.id === id);
  if (!person) throw new Error(`no person ${id}`);
  return person;
}

describeEachEngine(`verify (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  // Every test loads two directories first: one engine a run, by turns.
  const it = itByTurns(TURN_SEED, engineName);
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;
  const items = () => tableItems(documents(), table());
  const verify = (companyId?: string) =>
    verifyDirectory(documents(), table(), companyId ? { companyId } : {});

  beforeEach(async () => {
    await items().wipe();
    await loadTwice(documents(), table());
  });

  it("passes on what loads wrote, for the whole table and for each company", async () => {
    expect(await verify()).toEqual({ committed: 2, items: expect.any(Number), records: 4, persons: 3 });
    expect((await verify("acme")).problem).toBeUndefined();
    expect((await verify("beta")).problem).toBeUndefined();
  });

  it("passes while a load is in progress, whose versions are not yet committed", async () => {
    const directory = dynamoDirectory(documents(), table(), { writer: { graceMs: 0 } });
    const session = await directory.beginLoad("in progress");
    try {
      await session.apply([{ op: "upsert", employee: { ...recordOf(E1), companyId: "beta" } }]);
      expect((await verify()).problem).toBeUndefined();
    } finally {
      await session.abort();
    }
    expect((await verify()).problem).toBeUndefined();
  });

  for (const { title, corrupt, named: naming, what } of CASES)
    it(`fails on ${title}, naming the item`, async () => {
      const named = typeof naming === "function" ? await naming(items()) : naming;
      await corrupt(items(), documents(), table());
      const { problem } = await verify();
      expect(problem?.what).toMatch(what);
      const partition = Buffer.from(named.p).toString("hex");
      expect(hex(problem?.key ?? MANIFEST_KEY)).toEqual(
        "s" in named ? hex(named) : { p: partition, s: expect.any(String) },
      );
    });

  it("refuses a table of an earlier format whole: searches, loads and repair say so in one line", async () => {
    await updateManifest(documents(), table(), "SET formatVersion = :two", { ":two": 2 });
    const refusal = new TableFormatError(2, FORMAT).message;
    expect(refusal).toBe(
      "the directory table is in format 2 and this code reads format 4: load the source as a snapshot into a new, empty table",
    );
    const directory = dynamoDirectory(documents(), table(), {
      reader: { manifestTtlMs: 0, answerCacheBytes: 0 },
      writer: { graceMs: 0 },
    });
    const query = { filter: { companies: new Set(["acme"]) }, created: {}, offset: 0, limit: 5 };
    await expect(directory.employees(query)).rejects.toThrow(refusal);
    await expect(directory.beginLoad("refused")).rejects.toThrow(refusal);
    await expect(repairDerived(documents(), table(), { graceMs: 0 })).rejects.toThrow(refusal);
  });

  it("checks one company: a broken item there fails it, not the other company", async () => {
    const item = await items().get(location(E1));
    const value = decodeLocation(item[A.data] as Uint8Array);
    await items().put({ ...item, [A.data]: encodeLocation({ ...value, hash: "00".repeat(8) }) });
    expect(hex((await verify("acme")).problem?.key ?? MANIFEST_KEY)).toEqual(hex(location(E1)));
    expect((await verify("beta")).problem).toBeUndefined();
  });
});
