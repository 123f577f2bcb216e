/**
 * The items visible at the committed generation checked against each other (pure, over a survey):
 * a record item has its entries (of the generation its `e` names) and a location pointing at it; a
 * bundle has its person's entries in each of its companies (of its `e`) and agrees with its
 * records' locations; every entry and location leads back to an item that is visible. With a
 * company scope, only what belongs to that company.
 */
import { type OrderKey, orderKeyParts } from "../../binary-keys.js";
import type { Location } from "../model/index.js";
import {
  bundleSort,
  companyPartition,
  entrySort,
  FAMILY,
  type Family,
  type ItemKey,
  idEntryKey,
  keyText,
  LOCATION_SORT,
  locationPartition,
  type PersonNameFamily,
  personPartition,
} from "../model/index.js";
import type { BundleSummary, RecordSummary } from "./summaries.js";
import { type EntryKey, entryKey, entryKeyParts, type TableSurvey } from "./table-survey.js";
import type { Problem } from "./verify-rules.js";

/** The same record at the same place (`entries` aside: a bundle does not say it). */
const sameLocation = (a: Location, b: Location) =>
  a.companyId === b.companyId &&
  a.order === b.order &&
  a.personId === b.personId &&
  a.named === b.named &&
  a.hash === b.hash &&
  a.names === b.names;

const companyKey = (company: string, family: Family, order: OrderKey, gen: number): ItemKey => ({
  p: companyPartition(company),
  s: entrySort(family, order, gen),
});
const locationKey = (id: string): ItemKey => ({ p: locationPartition(id), s: LOCATION_SORT });
const found = (gen: number | undefined) => (gen === undefined ? "none is" : `the visible one is of ${gen}`);

/** A record item's entries, of its `e`: its key entry, and a names entry exactly when it has a name. */
function* recordEntries(survey: TableSurvey, logical: EntryKey, record: RecordSummary): Generator<Problem> {
  const { order, company } = entryKeyParts(logical);
  const key = companyKey(company, FAMILY.record, order, record.gen);
  const entries = record.expected.entries;
  const entry = survey.entries.get(entryKey(FAMILY.employmentKey, order, company));
  if (entry?.gen !== entries)
    yield { key, what: `no employment key entry of generation ${entries} (${found(entry?.gen)})` };
  const names = survey.entries.get(entryKey(FAMILY.employmentNames, order, company));
  const namesKey = (gen: number) => companyKey(company, FAMILY.employmentNames, order, gen);
  if (record.names === null) {
    if (names) yield { key: namesKey(names.gen), what: "a names entry of a record without a name" };
    return;
  }
  if (names?.gen !== entries)
    yield { key, what: `no names entry of generation ${entries} (${found(names?.gen)})` };
  if (names && names.pairs !== record.names)
    yield { key: namesKey(names.gen), what: "names differ from the record's normalized names" };
}

/** A record item's location shows it, and its `q` is its person's order key. */
function* recordLocation(survey: TableSurvey, logical: EntryKey, record: RecordSummary): Generator<Problem> {
  const { order, company } = entryKeyParts(logical);
  const key = companyKey(company, FAMILY.record, order, record.gen);
  const location = survey.locations.get(record.id);
  if (!location) yield { key, what: `no location of record ${record.id} shows it` };
  else if (
    location.gen !== record.gen ||
    !sameLocation(location.value, record.expected) ||
    location.value.entries !== record.expected.entries
  )
    yield {
      key: locationKey(record.id),
      what: `does not point at the visible record item ${keyText(key)}, or its hashes or \`e\` differ`,
    };
  const personId = record.expected.personId;
  const q = personId === null ? null : (survey.bundles.get(personId)?.personOrder ?? null);
  if (record.q !== q)
    yield { key, what: `\`q\` is not the order key of person ${personId}'s visible bundle` };
}

function* recordLinks(survey: TableSurvey): Generator<Problem> {
  for (const [logical, record] of survey.records) {
    yield* recordEntries(survey, logical, record);
    yield* recordLocation(survey, logical, record);
  }
}

function* entryLinks(survey: TableSurvey): Generator<Problem> {
  for (const [logical, entry] of survey.entries) {
    const { family, order, company } = entryKeyParts(logical);
    const key = companyKey(company, family as Family, order, entry.gen);
    if (family === FAMILY.employmentKey || family === FAMILY.employmentNames) {
      const record = survey.records.get(entryKey(FAMILY.record, order, company));
      if (record?.expected.entries !== entry.gen)
        yield { key, what: `no record item whose entries are of generation ${entry.gen}` };
      continue;
    }
    const personId = orderKeyParts(order).id;
    const bundle = survey.bundles.get(personId);
    if (bundle?.entries !== entry.gen || bundle.personOrder !== order)
      yield {
        key,
        what: `no bundle of person ${personId} whose entries are of generation ${entry.gen}, with this order key`,
      };
    else if (!bundle.pairs.has(company))
      yield { key, what: `person ${personId} has no record in ${company}` };
  }
}

function* locationLinks(survey: TableSurvey, inScope: (company: string) => boolean): Generator<Problem> {
  for (const [id, location] of survey.locations) {
    const { companyId, order, personId } = location.value;
    if (!inScope(companyId)) continue;
    const record = survey.records.get(entryKey(FAMILY.record, order, companyId));
    if (record?.gen !== location.gen || record.id !== id)
      yield {
        key: locationKey(id),
        what: `points at record item ${keyText(companyKey(companyId, FAMILY.record, order, location.gen))}, which is not visible`,
      };
    if (personId !== null && !survey.bundles.get(personId)?.records.has(id))
      yield { key: locationKey(id), what: `person ${personId} has no visible bundle holding record ${id}` };
  }
}

const NAME_LISTS: Record<PersonNameFamily, string> = {
  [FAMILY.personNames]: "name pairs",
  [FAMILY.personFirstNames]: "first names",
  [FAMILY.personLastNames]: "last names",
};

/** A bundle's entries in one company: its person key entry, and each names entry its records call for. */
function* bundleEntries(
  survey: TableSurvey,
  personId: string,
  bundle: BundleSummary,
  company: string,
  lists: ReadonlyMap<PersonNameFamily, string>,
): Generator<Problem> {
  const key = { p: personPartition(personId), s: bundleSort(bundle.gen, 0) };
  const entry = survey.entries.get(entryKey(FAMILY.personKey, bundle.personOrder, company));
  if (entry?.gen !== bundle.entries)
    yield {
      key,
      what: `no person key entry in ${company} of generation ${bundle.entries} (${found(entry?.gen)})`,
    };
  for (const [family, list] of lists) {
    const names = survey.entries.get(entryKey(family, bundle.personOrder, company));
    const what = NAME_LISTS[family];
    if (list === "[]" && names)
      yield { key, what: `a person ${what} entry in ${company}, but no record there has such a name` };
    if (list !== "[]" && (names?.gen !== bundle.entries || names.pairs !== list))
      yield {
        key,
        what: `no person ${what} entry in ${company} of generation ${bundle.entries} with the records' ${what}`,
      };
  }
}

function* bundleLinks(survey: TableSurvey, inScope: (company: string) => boolean): Generator<Problem> {
  for (const [personId, bundle] of survey.bundles) {
    for (const [company, lists] of bundle.pairs)
      if (inScope(company)) yield* bundleEntries(survey, personId, bundle, company, lists);
    const key = { p: personPartition(personId), s: bundleSort(bundle.gen, 0) };
    for (const [id, expected] of bundle.records) {
      if (!inScope(expected.companyId)) continue;
      const location = survey.locations.get(id);
      if (!location || !sameLocation(location.value, expected))
        yield { key, what: `record ${id} differs from the record its location shows` };
    }
  }
}

/**
 * The id index holds exactly the visible locations' records and bundles' persons, at the
 * generations of their entries.
 */
function* idLinks(survey: TableSurvey): Generator<Problem> {
  for (const [id, location] of survey.locations) {
    const gen = survey.ids.employee.get(id);
    const entries = location.value.entries;
    if (gen !== entries)
      yield { key: locationKey(id), what: `no id index entry of generation ${entries} (${found(gen)})` };
  }
  for (const [id, gen] of survey.ids.employee)
    if (survey.locations.get(id)?.value.entries !== gen)
      yield {
        key: idEntryKey("employee", id, gen),
        what: `an id index entry of no record location whose entries are of its generation`,
      };
  for (const [id, bundle] of survey.bundles) {
    const gen = survey.ids.person.get(id);
    if (gen !== bundle.entries)
      yield {
        key: { p: personPartition(id), s: bundleSort(bundle.gen, 0) },
        what: `no id index entry of generation ${bundle.entries} (${found(gen)})`,
      };
  }
  for (const [id, gen] of survey.ids.person)
    if (survey.bundles.get(id)?.entries !== gen)
      yield {
        key: idEntryKey("person", id, gen),
        what: `an id index entry of no bundle whose entries are of its generation`,
      };
}

/** The first item that does not agree with the others, if any (the id index: read whole only). */
export function checkLinks(survey: TableSurvey, scope?: string): Problem | undefined {
  const inScope = (company: string) => scope === undefined || company === scope;
  const all = [
    recordLinks(survey),
    entryLinks(survey),
    locationLinks(survey, inScope),
    bundleLinks(survey, inScope),
    ...(scope === undefined ? [idLinks(survey)] : []),
  ];
  for (const problems of all) for (const problem of problems) return problem;
  return undefined;
}
