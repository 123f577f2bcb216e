/**
 * What one chunk writes (load-plan.ts, pure): the items whose bytes change, and no others. A record
 * whose company, order key and names stay keeps its entries and id entry; a person whose order key
 * and names in each company stay keeps theirs, and their postings in the posted scopes.
 */
import type { SourceEmployee, SourcePerson } from "../../../../lib/directory/source.js";
import { SourcePersonSchema } from "../../../../lib/directory/source.js";
import { type Item, type ItemKey, keyText } from "../../../../lib/store/dynamo/model/batch.js";
import {
  bundleItems,
  idEntryItem,
  itemKey,
  locationItem,
  locationOf,
  personEntryItems,
  recordEntryItems,
  recordItem,
  type StoredLocation,
} from "../../../../lib/store/dynamo/model/items.js";
import {
  FAMILY,
  isPersonPartition,
  scopeIdOf,
  scopePartition,
} from "../../../../lib/store/dynamo/model/layout.js";
import { GramCensus } from "../../../../lib/store/dynamo/structures/name-grams.js";
import { namesInScope, scopeGramsOf } from "../../../../lib/store/dynamo/structures/scope-postings.js";
import { type ChunkInput, planChunk } from "../../../../lib/store/dynamo/write/load-plan.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { parsedValidEmployee, validPerson } from "../../../directory/fixtures.js";

const person: SourcePerson = SourcePersonSchema.parse(validPerson());
const stored: SourceEmployee = parsedValidEmployee({ companyId: "acme" });
/** The record and its person as loads 3 (entries) and 5 (the record, after a change of phone) left them. */
const ENTRIES_GEN = 3;
const RECORD_GEN = 5;
const LOAD = 9;

const storedLocation = (record: SourceEmployee): StoredLocation => ({
  gen: RECORD_GEN,
  current: locationOf(record, ENTRIES_GEN),
});
const storedBundle = (employees: SourceEmployee[]) => ({
  gen: RECORD_GEN,
  entries: ENTRIES_GEN,
  parts: 1,
  bundle: { person, employees },
});

/** A chunk upserting `next` over `stored`, with a kept scope of acme posted at 2. */
function chunkOf(next: SourceEmployee, scoped = false): ChunkInput {
  const scopes = scoped
    ? [
        {
          p: scopePartition(scopeIdOf(["acme"])),
          companies: new Set(["acme"]),
          marker: { base: 2, changed: new Map() },
          census: {
            census: GramCensus.of([scopeGramsOf(namesInScope([stored], new Set(["acme"])))]),
            gen: 2,
            parts: 1,
          },
        },
      ]
    : [];
  return {
    gen: LOAD,
    records: new Map([[next.id, next]]),
    persons: new Map(),
    locations: new Map([[next.id, storedLocation(stored)]]),
    bundles: new Map([[person.id, storedBundle([stored])]]),
    scopes,
  };
}

const texts = (keys: readonly ItemKey[]) => new Set(keys.map(keyText));
const keysOf = (items: readonly Item[]) => items.map(itemKey);
const sortFamily = (key: ItemKey) => key.s[0];

describe("a chunk writes the items whose bytes change", () => {
  it("a changed phone: the record item, its location and the bundle; no entry, id entry or posting", () => {
    const next = { ...stored, contact: { ...stored.contact, phone: "(713) 555-0101" } };
    const plan = planChunk(chunkOf(next, true));
    const recordPut = recordItem(next, LOAD, null, ENTRIES_GEN);
    expect(texts(keysOf(plan.puts))).toEqual(
      texts([
        itemKey(recordPut),
        itemKey(locationItem(next.id, LOAD, undefined, undefined)),
        ...keysOf(bundleItems(person.id, { person, employees: [next] }, LOAD, ENTRIES_GEN)),
      ]),
    );
    const put = plan.puts.find((item) => keyText(itemKey(item)) === keyText(itemKey(recordPut)));
    expect(put?.[A.entriesGen]).toBe(ENTRIES_GEN);
    const bundle = plan.puts.find((item) => isPersonPartition(itemKey(item).p));
    expect(bundle?.[A.entriesGen]).toBe(ENTRIES_GEN);
    expect(texts(plan.stamps)).toEqual(
      texts([
        itemKey(recordItem(stored, RECORD_GEN, null, ENTRIES_GEN)),
        ...keysOf(bundleItems(person.id, { person, employees: [stored] }, RECORD_GEN, ENTRIES_GEN)),
      ]),
    );
    expect(plan.scopes[0]?.deltas.changed()).toEqual([]);
  });

  it("a rename: the record's and the person's entries, id entries and postings too, at the load's generation", () => {
    const next = { ...stored, demographics: { ...stored.demographics, lastName: "Okafor" } };
    const plan = planChunk(chunkOf(next, true));
    const puts = texts(keysOf(plan.puts));
    for (const item of [
      ...recordEntryItems(next, LOAD),
      idEntryItem("employee", next.id, LOAD),
      ...personEntryItems(person, [next], LOAD),
      idEntryItem("person", person.id, LOAD),
    ])
      expect(puts).toContain(keyText(itemKey(item)));
    const stamps = texts(plan.stamps);
    for (const item of [
      ...recordEntryItems(stored, ENTRIES_GEN),
      idEntryItem("employee", stored.id, ENTRIES_GEN),
      ...personEntryItems(person, [stored], ENTRIES_GEN),
      idEntryItem("person", person.id, ENTRIES_GEN),
    ])
      expect(stamps).toContain(keyText(itemKey(item)));
    expect(plan.scopes[0]?.deltas.changed().length).toBeGreaterThan(0);
    const location = plan.puts.find((item) => item[A.gen] === LOAD);
    expect(location).toBeDefined();
  });

  it("a change of case the names normalize away: the entries stay", () => {
    const upper = stored.demographics.firstName?.toUpperCase() ?? null;
    const next = { ...stored, demographics: { ...stored.demographics, firstName: upper } };
    const plan = planChunk(chunkOf(next));
    const families = new Set(keysOf(plan.puts).map(sortFamily));
    expect(families.has(FAMILY.employmentKey)).toBe(false);
    expect(families.has(FAMILY.employmentNames)).toBe(false);
    expect(families.has(FAMILY.record)).toBe(true);
  });

  it("a move to another company: entries in the new company, the old ones stamped", () => {
    const next = { ...stored, companyId: "beta" };
    const plan = planChunk(chunkOf(next));
    const puts = texts(keysOf(plan.puts));
    for (const item of recordEntryItems(next, LOAD)) expect(puts).toContain(keyText(itemKey(item)));
    const stamps = texts(plan.stamps);
    for (const item of recordEntryItems(stored, ENTRIES_GEN))
      expect(stamps).toContain(keyText(itemKey(item)));
  });

  it("a delete: the record item at its generation, its entries and id entry at theirs", () => {
    const input = { ...chunkOf(stored), records: new Map([[stored.id, null]]) };
    const plan = planChunk(input);
    expect(texts(plan.stamps)).toEqual(
      texts([
        itemKey(recordItem(stored, RECORD_GEN, null, ENTRIES_GEN)),
        ...keysOf(recordEntryItems(stored, ENTRIES_GEN)),
        itemKey(idEntryItem("employee", stored.id, ENTRIES_GEN)),
        ...keysOf(bundleItems(person.id, { person, employees: [stored] }, RECORD_GEN, ENTRIES_GEN)),
        ...keysOf(personEntryItems(person, [stored], ENTRIES_GEN)),
        itemKey(idEntryItem("person", person.id, ENTRIES_GEN)),
      ]),
    );
  });
});
