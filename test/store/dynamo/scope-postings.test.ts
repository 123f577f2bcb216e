/**
 * Scope name postings, the pure part: a person's names in a scope, and what a chunk writes when it
 * rewrites a bundle (old postings superseded at the later of bundle and marker, new ones put at the
 * load's generation, each scope's census counted once per person).
 */
import { type SourceEmployee, SourcePersonSchema } from "../../../lib/directory/source.js";
import { namesOf } from "../../../lib/search/matching.js";
import { keyText } from "../../../lib/store/dynamo/batch.js";
import { decodeNamePairs } from "../../../lib/store/dynamo/codec.js";
import { personOrder } from "../../../lib/store/dynamo/items.js";
import { genOf, isGramCensusSort, postingOfSort, scopePartition } from "../../../lib/store/dynamo/layout.js";
import { Writes } from "../../../lib/store/dynamo/load-plan.js";
import { censusKeys, GramCensus } from "../../../lib/store/dynamo/name-grams.js";
import {
  namesInScope,
  type PostedScope,
  rewritePersonPostings,
  scopeCensusWrites,
  scopeGramsOf,
  scopeNamePairs,
  scopePostingGen,
  scopeWork,
} from "../../../lib/store/dynamo/scope-postings.js";
import { DIRECTORY_ATTR as A } from "../../../lib/store/tables.js";
import { parsedValidEmployee, validPerson } from "../../directory/fixtures.js";

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
  const posted = (markerGen: number, holders: GramCensus): PostedScope => ({
    p,
    companies: new Set(["acme", "beta"]),
    markerGen,
    census: { census: holders, gen: markerGen, chunks: 1 },
  });
  /** The person as stored at `gen`, with `employees`. */
  const storedAt = (gen: number, employees: SourceEmployee[]) => ({
    gen,
    chunks: 1,
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
    expect(stamped.every((posting) => posting.gen === scopePostingGen(2, 4) && posting.order === order)).toBe(
      true,
    );
    // Trigrams and bigrams, first name first.
    expect(stamped.map((posting) => posting.trigram)).toEqual([
      "zoë",
      "zo",
      "oë",
      "wei",
      "eiß",
      "we",
      "ei",
      "iß",
    ]);
    const put = [...writes.puts.values()].filter((item) => !isGramCensusSort(item[A.sort] as Uint8Array));
    expect(new Set(put.map((item) => JSON.stringify(decodeNamePairs(item[A.data] as Uint8Array))))).toEqual(
      new Set([JSON.stringify(namesInScope([ACME, BETA], new Set(["acme", "beta"])))]),
    );
    expect(postings(put.map((item) => ({ s: item[A.sort] as Uint8Array }))).every((x) => x.gen === 9)).toBe(
      true,
    );
    // "zoë" is held by the person once, whatever their pairs.
    expect(scopes[0]?.counts.count({ field: "firstName", trigram: "zoë" })).toBe(1);
    expect(scopes[0]?.counts.count({ field: "firstName", trigram: "zoe" })).toBe(1);
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
    expect(writes.puts.size).toBe(8);
  });

  it("rewrite a census only when its counts changed, superseding the stored version", () => {
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
        trigram: "wei",
      }),
    ).toBe(2);
    const [storedCensus] = censusKeys(p, 3, 1);
    expect(storedCensus && writes.stamps.has(keyText(storedCensus))).toBe(true);
  });
});
