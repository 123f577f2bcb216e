/**
 * Scope name postings, the pure part: a person's names in a scope, and what a chunk writes when it
 * rewrites a bundle (old postings superseded at the later of bundle and marker, new ones put at the
 * load's generation, each scope's census counted once per person).
 */
import { type SourceEmployee, SourcePersonSchema } from "../../../../lib/directory/source.js";
import { namesOf } from "../../../../lib/search/matching.js";
import { keyText } from "../../../../lib/store/dynamo/model/batch.js";
import { decodeNamePairs } from "../../../../lib/store/dynamo/model/codec.js";
import { personOrder } from "../../../../lib/store/dynamo/model/items.js";
import {
  genOf,
  isGramCensusSort,
  postingOfSort,
  scopePartition,
} from "../../../../lib/store/dynamo/model/layout.js";
import { Writes } from "../../../../lib/store/dynamo/model/writes.js";
import { censusKeys, GramCensus } from "../../../../lib/store/dynamo/structures/name-grams.js";
import {
  markerAfter,
  namesInScope,
  type PostedScope,
  repostPerson,
  rewritePersonPostings,
  scopeCensusWrites,
  scopeGramsOf,
  scopeNamePairs,
  scopePostingGen,
  scopeWork,
} from "../../../../lib/store/dynamo/structures/scope-postings.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { parsedValidEmployee, validPerson } from "../../../directory/fixtures.js";

const person = SourcePersonSchema.parse(validPerson());
const record = (id: string, companyId: string, firstName: string | null, lastName: string | null) =>
  parsedValidEmployee({
    id,
    companyId,
    demographics: { firstName, lastName, dateOfBirth: "1980-02-29", gender: "female" },
  });
const ACME = record("00000000-0000-4000-8000-000000000001", "acme", "Zoë", "Weiß");
const ACME_AGAIN = record("00000000-0000-4000-8000-000000000002", "acme", "Zoë", "Weiß");
const BETA = record("00000000-0000-4000-8000-000000000003", "beta", "Zoey", "Weiss");
const OTHER = record("00000000-0000-4000-8000-000000000004", "other", "Ann", "Ng");
const UNNAMED = record("00000000-0000-4000-8000-000000000005", "beta", null, null);

const pairsText = (records: readonly SourceEmployee[]) =>
  new Set(records.map((r) => JSON.stringify(namesOf(r))));

describe("a person's names in a scope", () => {
  const scope = new Set(["acme", "beta"]);

  it("are the distinct pairs of their named records in its companies, and no others", () => {
    const pairs = namesInScope([ACME, ACME_AGAIN, BETA, OTHER, UNNAMED], scope);
    expect(new Set(pairs.map((pair) => JSON.stringify(pair)))).toEqual(pairsText([ACME, BETA]));
    expect(namesInScope([OTHER, UNNAMED], scope)).toEqual([]);
  });

  it("come in one order, whatever the order of the records or lists", () => {
    expect(namesInScope([BETA, ACME], scope)).toEqual(namesInScope([ACME, BETA], scope));
    expect(scopeNamePairs([[namesOf(BETA)], [namesOf(ACME)]])).toEqual(namesInScope([ACME, BETA], scope));
    expect(scopeNamePairs([])).toEqual([]);
  });
});

describe("a rewritten bundle's postings in the posted scopes", () => {
  const p = scopePartition("0123456789abcdef0123456789abcdef" as Parameters<typeof scopePartition>[0]);
  const posted = (
    markerGen: number,
    holders: GramCensus,
    changed: ReadonlyMap<string, number> = new Map(),
    companies: readonly string[] = ["acme", "beta"],
  ): PostedScope => ({
    p,
    companies: new Set(companies),
    marker: { base: markerGen, changed },
    census: { census: holders, gen: markerGen, parts: 1 },
  });
  /** The person as stored at `gen` (their entries too), with `employees`. */
  const storedAt = (gen: number, employees: SourceEmployee[]) => ({
    gen,
    entries: gen,
    parts: 1,
    bundle: { person, employees },
  });
  const postings = (keys: Iterable<{ s: Uint8Array }>) =>
    [...keys].map((key) => ({ ...postingOfSort(key.s), gen: genOf(key.s) }));

  it("supersede the old ones at the later of bundle and marker, and put the new ones at the load's", () => {
    const census = GramCensus.of([scopeGramsOf([namesOf(ACME)])]);
    const scopes = [scopeWork(posted(4, census))];
    const writes = new Writes(9);
    const stored = storedAt(2, [ACME]);
    rewritePersonPostings(writes, scopes, stored, { person, employees: [ACME, BETA] });
    const order = personOrder(person);
    const stamped = postings(writes.stamps.values());
    expect(stamped.every((posting) => posting.gen === 4 && posting.order === order)).toBe(true);
    // Trigrams, bigrams and letters, first name first.
    expect(stamped.map((posting) => posting.text)).toEqual([
      "zoë",
      "zo",
      "oë",
      "z",
      "o",
      "ë",
      "wei",
      "eiß",
      "we",
      "ei",
      "iß",
      "w",
      "e",
      "i",
      "ß",
    ]);
    const put = [...writes.puts.values()].filter((item) => !isGramCensusSort(item[A.sort] as Uint8Array));
    expect(new Set(put.map((item) => JSON.stringify(decodeNamePairs(item[A.data] as Uint8Array))))).toEqual(
      new Set([JSON.stringify(namesInScope([ACME, BETA], new Set(["acme", "beta"])))]),
    );
    expect(postings(put.map((item) => ({ s: item[A.sort] as Uint8Array }))).every((x) => x.gen === 9)).toBe(
      true,
    );
    // "zoë" is held by the person once, whatever their pairs.
    expect(scopes[0]?.counts.count({ field: "firstName", text: "zoë" })).toBe(1);
    expect(scopes[0]?.counts.count({ field: "firstName", text: "zoe" })).toBe(1);
  });

  it("of a person whose names leave the scope are superseded only; of a deleted person too", () => {
    const census = GramCensus.of([scopeGramsOf([namesOf(ACME)])]);
    for (const next of [
      { person, employees: [OTHER] },
      { person: null, employees: [ACME] },
    ]) {
      const scopes = [scopeWork(posted(1, census))];
      const writes = new Writes(9);
      rewritePersonPostings(writes, scopes, storedAt(5, [ACME]), next);
      expect(writes.puts.size).toBe(0);
      expect(postings(writes.stamps.values()).every((posting) => posting.gen === 5)).toBe(true);
      expect(scopes[0]?.counts.equals(new GramCensus())).toBe(true);
    }
  });

  it("written earlier in the same load are deleted, not stamped, unless put again", () => {
    const scopes = [scopeWork(posted(1, GramCensus.of([scopeGramsOf([namesOf(ACME)])])))];
    const writes = new Writes(9);
    rewritePersonPostings(writes, scopes, storedAt(9, [ACME]), {
      person,
      employees: [ACME],
    });
    expect(writes.stamps.size).toBe(0);
    expect(writes.deletes.size).toBe(0);
    expect(writes.puts.size).toBe(scopeGramsOf([namesOf(ACME)]).length);
  });

  it("supersede the old ones at the last change of a company the stored bundle has a record in", () => {
    const census = GramCensus.of([scopeGramsOf([namesOf(ACME)])]);
    // acme joined at 6, after the bundle (2): its postings were rewritten then. beta's change at 7
    // does not concern the person; other's at 8 neither (no record there).
    const scopes = [
      scopeWork(
        posted(
          1,
          census,
          new Map([
            ["acme", 6],
            ["beta", 7],
            ["other", 8],
          ]),
        ),
      ),
    ];
    const writes = new Writes(9);
    rewritePersonPostings(writes, scopes, storedAt(2, [ACME]), { person, employees: [ACME, BETA] });
    expect(new Set(postings(writes.stamps.values()).map((posting) => posting.gen))).toEqual(new Set([6]));
  });

  it("rewrite a census only when its counts changed, replacing the stored version unstamped", () => {
    const census = GramCensus.of([scopeGramsOf([namesOf(ACME)])]);
    const same = [scopeWork(posted(3, census))];
    const unchanged = new Writes(9);
    rewritePersonPostings(unchanged, same, storedAt(5, [ACME]), {
      person,
      employees: [ACME_AGAIN],
    });
    scopeCensusWrites(unchanged, same);
    expect([...unchanged.puts.values()].some((item) => isGramCensusSort(item[A.sort] as Uint8Array))).toBe(
      false,
    );

    const changed = [scopeWork(posted(3, census))];
    const writes = new Writes(9);
    rewritePersonPostings(writes, changed, undefined, { person, employees: [BETA] });
    scopeCensusWrites(writes, changed);
    const censusPuts = [...writes.puts.values()].filter((item) =>
      isGramCensusSort(item[A.sort] as Uint8Array),
    );
    expect(censusPuts).toHaveLength(1);
    expect(
      GramCensus.decode(censusPuts.map((item) => item[A.data] as Uint8Array)).count({
        field: "lastName",
        text: "wei",
      }),
    ).toBe(2);
    const [storedCensus] = censusKeys(p, 3, 1);
    expect(storedCensus && writes.replaced.has(keyText(storedCensus))).toBe(true);
    expect(storedCensus && writes.stamps.has(keyText(storedCensus))).toBe(false);
  });
});

describe("the generation of a person's postings in a scope", () => {
  const marker = (base: number, changed: [string, number][] = []) => ({ base, changed: new Map(changed) });
  const at = (gen: number, employees: readonly SourceEmployee[]) => ({ gen, employees });

  it("is the later of the bundle's and the scope's build when no company changed since", () => {
    expect(scopePostingGen(at(2, [ACME]), marker(4))).toBe(4);
    expect(scopePostingGen(at(7, [ACME]), marker(4))).toBe(7);
  });

  it("is a change of a company the person has a record in, when after the bundle", () => {
    expect(
      scopePostingGen(
        at(2, [ACME, BETA]),
        marker(1, [
          ["beta", 5],
          ["acme", 3],
        ]),
      ),
    ).toBe(5);
    // Unnamed records count too: a change rewrites every person of the company.
    expect(scopePostingGen(at(2, [UNNAMED]), marker(1, [["beta", 5]]))).toBe(5);
  });

  it("ignores changes before the bundle and changes of companies the person has no record in", () => {
    expect(scopePostingGen(at(6, [ACME]), marker(1, [["acme", 5]]))).toBe(6);
    expect(scopePostingGen(at(2, [OTHER]), marker(1, [["acme", 5]]))).toBe(2);
  });
});

describe("a person reposted when a scope's companies change", () => {
  const p = scopePartition("fedcba9876543210fedcba9876543210" as Parameters<typeof scopePartition>[0]);
  const both = GramCensus.of([scopeGramsOf(namesInScope([ACME, BETA], new Set(["acme", "beta"])))]);
  const scope = (census = both) =>
    scopeWork({
      p,
      companies: new Set(["acme", "beta"]),
      marker: { base: 3, changed: new Map() },
      census: { census, gen: 3, parts: 1 },
    });
  const stored = (employees: SourceEmployee[]) => ({
    gen: 2,
    entries: 2,
    parts: 1,
    bundle: { person, employees },
  });
  const gensOf = (keys: Iterable<{ s: Uint8Array }>) => new Set([...keys].map((key) => genOf(key.s)));

  it("has the postings of their names in the old companies superseded and of the new ones put", () => {
    const work = scope();
    const writes = new Writes(9);
    repostPerson(writes, work, new Set(["acme", "other"]), stored([ACME, BETA, OTHER]));
    expect(gensOf(writes.stamps.values())).toEqual(new Set([3]));
    const put = [...writes.puts.values()];
    expect(gensOf(put.map((item) => ({ s: item[A.sort] as Uint8Array })))).toEqual(new Set([9]));
    expect(new Set(put.map((item) => JSON.stringify(decodeNamePairs(item[A.data] as Uint8Array))))).toEqual(
      new Set([JSON.stringify(namesInScope([ACME, OTHER], new Set(["acme", "other"])))]),
    );
    expect(work.counts.count({ field: "firstName", text: "ann" })).toBe(1);
    expect(work.counts.count({ field: "firstName", text: "zoe" })).toBe(0);
  });

  it("is rewritten even when their names in the scope stay the same, and left out once none are", () => {
    const same = new Writes(9);
    repostPerson(same, scope(), new Set(["acme", "gamma"]), stored([ACME, BETA, ACME_AGAIN]));
    expect(same.puts.size).toBeGreaterThan(0);
    const gone = scope(GramCensus.of([scopeGramsOf([namesOf(ACME)])]));
    const none = new Writes(9);
    repostPerson(none, gone, new Set(["gamma", "other"]), stored([ACME]));
    expect(none.puts.size).toBe(0);
    expect(none.stamps.size).toBe(scopeGramsOf([namesOf(ACME)]).length);
    expect(gone.counts.equals(new GramCensus())).toBe(true);
  });
});

describe("a scope's marker after a change of its companies", () => {
  const marker = { base: 3, changed: new Map([["acme", 5]]) };

  it("notes each company that joined or left at the change's generation, keeping the build's", () => {
    expect(markerAfter(marker, ["acme", "beta"], 8, 64)).toEqual({
      base: 3,
      changed: new Map([
        ["acme", 8],
        ["beta", 8],
      ]),
    });
  });

  it("is none past the most companies a marker lists: the scope is posted whole again", () => {
    expect(markerAfter(marker, ["beta"], 8, 2)).toBeDefined();
    expect(markerAfter(marker, ["beta", "cedar"], 8, 2)).toBeUndefined();
  });
});
