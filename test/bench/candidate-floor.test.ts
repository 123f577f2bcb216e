import { candidateUnits, grams, rarestGram } from "../../lib/bench/candidate-floor.js";
import { employeeCandidates, personCandidates, readUnits } from "../../lib/bench/floor.js";
import { type SourceEmployee, type SourcePerson, SourcePersonSchema } from "../../lib/directory/source.js";
import {
  employeesSearchRequestSchema,
  personsSearchRequestSchema,
} from "../../lib/search/request-schemas.js";
import { parsedValidEmployee, validPerson } from "../directory/fixtures.js";
import { uuidOf } from "../support/records.js";

let serial = 0;
/** `count` records of `companyId` named `lastName`, each with a person of its own (or none). */
function named(companyId: string, lastName: string | null, count: number, linked = true): SourceEmployee[] {
  return Array.from({ length: count }, () => {
    serial += 1;
    return parsedValidEmployee({
      id: uuidOf("e", serial),
      companyId,
      personId: linked ? uuidOf("a", serial) : null,
      demographics: { firstName: "Ann", lastName, dateOfBirth: null, gender: null },
    });
  });
}

describe("grams", () => {
  it("are the distinct runs of 3 code points of the normalized fragment, in order", () => {
    expect(grams("Weiß")).toEqual(["wei", "eiß"]);
    expect(grams("aaaa")).toEqual(["aaa"]);
    // NFKC then lower case: the ligature is two letters.
    expect(grams("ﬁLE")).toEqual(["fil", "ile"]);
    // Code points, not UTF-16 units: the emoji is one character.
    expect(grams("😀ab")).toEqual(["😀ab"]);
  });

  it("are the normalized fragment itself below 3 characters", () => {
    expect(grams("AB")).toEqual(["ab"]);
    expect(grams("😀a")).toEqual(["😀a"]);
    expect(grams("Q")).toEqual(["q"]);
    expect(grams("ﬁ")).toEqual(["fi"]);
  });
});

describe("rarestGram", () => {
  const records = [...named("c1", "Smith", 30), ...named("c1", "Mitchell", 10), ...named("c1", "Smit", 2)];
  const candidates = records.map((record) => ({ record, entryBytes: 10 }));

  it("counts the candidates whose normalized name holds each trigram and keeps the rarest", () => {
    // "smi": Smith and Smit (32); "mit": those and Mitchell (42).
    expect(rarestGram(candidates, { lastName: "SMIT" })).toEqual({
      field: "lastName",
      gram: "smi",
      records: 32,
      entryBytes: 320,
    });
  });

  it("keeps the first trigram of the fragment on a tie, and looks at the field filtered on", () => {
    // "itc" and "tch" are both held by the 10 Mitchells.
    expect(rarestGram(candidates, { lastName: "itch" })).toMatchObject({ gram: "itc", records: 10 });
    expect(rarestGram(candidates, { firstName: "ann" })).toMatchObject({
      field: "firstName",
      records: 42,
    });
    expect(rarestGram(candidates, { firstName: "Ann", lastName: "chel" })).toMatchObject({
      field: "lastName",
      gram: "che",
      records: 10,
    });
  });

  it("finds a gram nobody holds (0 records), reads a short fragment as itself, none without a name", () => {
    expect(rarestGram(candidates, { lastName: "xyz" })).toMatchObject({ records: 0, entryBytes: 0 });
    expect(rarestGram(candidates, { lastName: "sm" })).toMatchObject({ gram: "sm", records: 32 });
    expect(rarestGram(candidates, { lastName: "L", firstName: "n" })).toMatchObject({
      field: "lastName",
      gram: "l",
      records: 10,
    });
    expect(rarestGram(candidates, {})).toBeNull();
  });
});

describe("candidateUnits", () => {
  it("prices the rarest trigram's floor entries as one Query (employees)", () => {
    const records = [...named("c1", "Smith", 300), ...named("c1", "Jones", 500), ...named("c2", "Smith", 50)];
    const request = employeesSearchRequestSchema.parse({ companyId: "c1", lastName: "smith" });
    // Entry: 1+2 company, 1+24 instant and uuid, 1+5 the normalized last name: 34 bytes, c1 only.
    expect(candidateUnits(employeeCandidates(request, records), request)).toBe(readUnits(300 * 34));
    expect(readUnits(300 * 34)).toBe(1.5);
  });

  it("prices a fragment of 1 or 2 characters by its own entries, and is null with no name", () => {
    const request = employeesSearchRequestSchema.parse({ companyId: "c1", lastName: "sm" });
    const records = [...named("c1", "Smith", 5), ...named("c1", "Jones", 500)];
    expect(candidateUnits(employeeCandidates(request, records), request)).toBe(readUnits(5 * 34));
    const unnamed = employeesSearchRequestSchema.parse({ companyId: "c1" });
    expect(candidateUnits(employeeCandidates(unnamed, records), unnamed)).toBeNull();
  });

  it("grows with the records sharing the trigram, not with the companies in scope (persons)", () => {
    const companies = Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, "0")}`);
    const records = companies.flatMap((company, i) => [
      ...named(company, i === 0 ? "Quist" : "Brown", 20),
      ...named(company, "Quist", 5, false),
    ]);
    const persons = new Map<string, SourcePerson>();
    for (const record of records)
      if (record.personId)
        persons.set(record.personId, SourcePersonSchema.parse(validPerson({ id: record.personId })));
    const request = personsSearchRequestSchema.parse({ lastName: "quist" });
    const input = { request, authorized: new Set(companies), records, persons };
    const candidates = [...personCandidates(input, new Set(companies))];
    // Only the 20 linked Quists of k00 (records with no person are no persons candidates); 1+3, 1+24, 1+5.
    expect(rarestGram(candidates, request)).toMatchObject({ records: 20, entryBytes: 20 * 35 });
    expect(candidateUnits(candidates, request)).toBe(0.5);
  });
});
