/**
 * The scale profile's short name fragments (1 or 2 characters), picked from the dataset by fixed
 * rules: the letter and the pair held by the most normalized first and last names (common, like
 * `a`, `an`) and by the fewest that hold any (rare, like `q`, `xq`). Each is asked alone, deep
 * (offset 1,000) and beside another name filter, of the largest company's employees and of the
 * persons over every key of more than one company; the common ones also alone in a created range
 * (the middle half of the records), first and deep.
 */
import { gramsOfSize, normalizeName } from "../directory/name.js";
import type { SourceEmployee } from "../directory/source.js";
import { compareText } from "../store/bytes.js";
import { type BenchQuery, EMPLOYEES_ROUTE, PERSONS_ROUTE } from "./query-mix.js";

type NameField = "firstName" | "lastName";

/** The common and rare letter and pair of first and last names. */
export interface ShortFragments {
  readonly commonLetter: string;
  readonly commonPair: string;
  readonly rareLetter: string;
  readonly rarePair: string;
}

/** The offset of the deep short-fragment queries. */
const DEEP_OFFSET = 1_000;

/** Per gram of `size`, the names of `field` holding it (each name counted once a record). */
function holders(records: readonly SourceEmployee[], field: NameField, size: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of records) {
    const name = normalizeName(record.demographics[field] ?? "");
    for (const gram of gramsOfSize(name, size)) counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** The gram held by the most (`most`) or the fewest names; ties by text. */
function pick(counts: ReadonlyMap<string, number>, most: boolean): string {
  const ranked = [...counts].sort(([a, x], [b, y]) => (most ? y - x : x - y) || compareText(a, b));
  const [first] = ranked;
  if (!first) throw new Error("short fragments: no record has a name");
  return first[0];
}

/** Common ones from first names, rare ones from last names: both fields are asked. */
export function shortFragments(records: readonly SourceEmployee[]): ShortFragments {
  const [firstLetters, firstPairs] = [holders(records, "firstName", 1), holders(records, "firstName", 2)];
  const [lastLetters, lastPairs] = [holders(records, "lastName", 1), holders(records, "lastName", 2)];
  return {
    commonLetter: pick(firstLetters, true),
    commonPair: pick(lastPairs, true),
    rareLetter: pick(lastLetters, false),
    rarePair: pick(firstPairs, false),
  };
}

/** A created range: createdFrom and createdBefore. */
export interface CreatedSlice {
  readonly createdFrom: string;
  readonly createdBefore: string;
}

/**
 * The short-fragment bodies, by name: `lastName3` is 3 letters of a last name the scope holds,
 * `range` a created range of its records.
 */
function bodies(
  f: ShortFragments,
  lastName3: string,
  range: CreatedSlice,
): [string, Record<string, unknown>][] {
  return [
    ["first name, 1 common letter", { firstName: f.commonLetter }],
    ["first name, 1 common letter, offset 1,000", { firstName: f.commonLetter, offset: DEEP_OFFSET }],
    ["last name, 2 common letters", { lastName: f.commonPair }],
    ["last name, 1 rare letter", { lastName: f.rareLetter }],
    ["first name, 2 rare letters", { firstName: f.rarePair }],
    ["1 common letter + 3 of a last name", { firstName: f.commonLetter, lastName: lastName3 }],
    [
      "1 common letter + 3 of a last name, offset 1,000",
      { firstName: f.commonLetter, lastName: lastName3, offset: DEEP_OFFSET },
    ],
    ["1 common letter + 2 common of a last name", { firstName: f.commonLetter, lastName: f.commonPair }],
    [
      "1 common letter + 2 common of a last name, offset 1,000",
      { firstName: f.commonLetter, lastName: f.commonPair, offset: DEEP_OFFSET },
    ],
    [
      "1 common letter + 2 common of a last name, created range",
      { firstName: f.commonLetter, lastName: f.commonPair, ...range },
    ],
    ["first name, 1 common letter, created range", { firstName: f.commonLetter, ...range }],
    [
      "first name, 1 common letter, created range, offset 1,000",
      { firstName: f.commonLetter, ...range, offset: DEEP_OFFSET },
    ],
    ["last name, 2 common letters, created range", { lastName: f.commonPair, ...range }],
  ];
}

/** The largest company's employees by short fragments (`key`: the one-company key). */
export function shortEmployeesQueries(
  f: ShortFragments,
  companyId: string,
  lastName3: string,
  range: CreatedSlice,
): BenchQuery[] {
  return bodies(f, lastName3, range).map(([name, body]) => ({
    name: `employees: largest company, ${name}`,
    kind: "name",
    route: EMPLOYEES_ROUTE,
    body: { companyId, ...body },
  }));
}

/** Persons by short fragments over a key of several companies. */
export function shortPersonsQueries(f: ShortFragments, lastName3: string, range: CreatedSlice): BenchQuery[] {
  return bodies(f, lastName3, range).map(([name, body]) => ({
    name: `persons: ${name}`,
    kind: "name",
    route: PERSONS_ROUTE,
    body,
  }));
}

/** Whether a name query asks a fragment of 1 or 2 characters (the short-fragment targets apply). */
export function hasShortFragment(body: Readonly<Record<string, unknown>>): boolean {
  return (["firstName", "lastName"] as const).some((field) => {
    const fragment = body[field];
    return typeof fragment === "string" && [...normalizeName(fragment)].length < 3;
  });
}
