/**
 * Deterministic demo data in the source format (docs/data-format.md): the same options and seed
 * always give the same file, byte for byte. It is made to exercise the service: shared and
 * non-ASCII names, people employed by several companies, employee records with no person,
 * duplicate employee records, several coverage records per employee, every membership state,
 * phones in many punctuations (and some invalid), identical `createdAt` values.
 *
 * All dates are fixed, never "now": invitations meant to stay pending expire in 2030-2031.
 * Nothing generated looks like an SSN (no 9-digit runs, no ddd-dd-dddd), so every file passes
 * `parseDataFile`.
 */

import { type CompanySizes, companyPicker } from "./company-sizes.js";
import { DemoRandom } from "./demo-random.js";
import {
  AREA_CODES,
  COMPANY_SLUGS,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  GENDERS,
  IMPORT_BATCHES,
  LAST_NAMES,
  PLACES,
  PLAN_TIERS,
  PROGRAMS,
  STREETS,
} from "./demo-words.js";
import type { SourceEmployeeInput, SourcePersonInput } from "./source.js";
import type { CoverageStatus } from "./vocabulary.js";

export interface DemoOptions {
  readonly companies: number;
  readonly employees: number;
  readonly seed: number;
  /** Evenly (the default) or Zipf-like: the first companies are the largest. */
  readonly companySizes?: CompanySizes;
}

/** What the generator is made for: company ids stay 3 digits wide or more, the seed is 32-bit. */
export const DEMO_LIMITS = {
  companies: { min: 1, max: 100_000 },
  employees: { min: 1, max: 100_000_000 },
  seed: { min: 0, max: 0xffffffff },
} as const;

export type DemoRecord =
  | { readonly kind: "person"; readonly value: SourcePersonInput }
  | { readonly kind: "employee"; readonly value: SourceEmployeeInput };

/** `acme-home-care`, `bluebird-health`, … then `company-009`, `company-010`, … */
export function demoCompanyIds(count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) => COMPANY_SLUGS[i] ?? `company-${String(i + 1).padStart(3, "0")}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Dates and times

const DAY_MS = 86_400_000;
const dayOf = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS;
const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

function randomDay(rng: DemoRandom, from: string, to: string): string {
  return isoDay(rng.int(dayOf(from), dayOf(to)));
}

/** An instant written mostly in UTC to the second, sometimes with milliseconds or a numeric offset. */
function writeInstant(rng: DemoRandom, ms: number): string {
  const style = rng.weighted([
    ["utc", 75],
    ["millis", 10],
    ["offset", 15],
  ] as const);
  if (style === "utc") return `${new Date(ms).toISOString().slice(0, 19)}Z`;
  if (style === "millis") return new Date(ms).toISOString();
  const offsetMinutes = rng.pick([-300, -240, -420, 60, 330]);
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

const FIRST_CREATED = Date.parse("2022-01-01T00:00:00Z");
const LAST_CREATED = Date.parse("2026-06-30T00:00:00Z");
const LAST_UPDATED = Date.parse("2026-10-31T00:00:00Z");

/** createdAt/updatedAt between 2022 and late 2026; about 1 in 8 from a bulk import (ties). */
function timestamps(rng: DemoRandom): { createdAt: string; updatedAt: string } {
  if (rng.chance(0.12)) {
    const batch = rng.pick(IMPORT_BATCHES);
    return { createdAt: batch, updatedAt: batch };
  }
  const created = rng.int(FIRST_CREATED / 1000, LAST_CREATED / 1000) * 1000 + rng.int(0, 999);
  const createdAt = writeInstant(rng, created);
  if (rng.chance(0.3)) return { createdAt, updatedAt: createdAt };
  const updated = Math.min(created + rng.int(60, 400 * 86_400) * 1000, LAST_UPDATED);
  return { createdAt, updatedAt: writeInstant(rng, updated) };
}

// ---------------------------------------------------------------------------------------------
// Identity: what a person's records share (with variations between companies)

interface Identity {
  readonly first: string;
  readonly last: string;
  readonly dateOfBirth: string | null;
  readonly gender: string | null;
  readonly phone: string;
  readonly email: string;
}

/** ASCII letters to full-width (`Ann` → `Ａｎｎ`), as some source systems store them. */
const fullWidth = (text: string) =>
  text.replace(/[A-Za-z]/g, (c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0));

/** Email-safe ASCII of a name: NFKC, `ß` → `ss`, accents dropped, letters only. */
const emailPart = (name: string) =>
  name
    .normalize("NFKC")
    .replace(/ß/g, "ss")
    .normalize("NFD")
    .toLowerCase()
    .replace(/[^a-z]/g, "");

function tenDigitPhone(rng: DemoRandom): string {
  return `${rng.pick(AREA_CODES)}555${rng.digits(4)}`;
}

function identity(rng: DemoRandom): Identity {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pickCommon(LAST_NAMES);
  return {
    first,
    last,
    dateOfBirth: rng.chance(0.9) ? randomDay(rng, "1950-01-01", "2004-12-31") : null,
    gender: rng.chance(0.85) ? rng.pick(GENDERS) : null,
    phone: tenDigitPhone(rng),
    email: `${emailPart(first)}.${emailPart(last)}${rng.chance(0.4) ? rng.int(1, 99) : ""}@${rng.pick(EMAIL_DOMAINS)}`,
  };
}

function renderName(rng: DemoRandom, name: string): string | null {
  return rng.weighted<string | null>([
    [name, 85],
    [name.toUpperCase(), 7],
    [fullWidth(name), 5],
    [null, 3],
  ]);
}

/** A stored phone: the digits in one of many punctuations; a few are unusable on purpose. */
function renderPhone(rng: DemoRandom, digits: string): string | null {
  const [a, e, l] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
  const style = rng.weighted([
    ["valid", 90],
    ["invalid", 5],
    ["none", 5],
  ] as const);
  if (style === "none") return null;
  if (style === "invalid") {
    return rng.pick([
      `${e}-${l}`, // 7 digits
      `${a}-${e}-${l} ext. ${rng.int(10, 99)}`, // letters
      `+44 20 7946 0${rng.digits(3)}`, // 12 digits
      `${a}-${e}-${l}${rng.int(0, 9)}`, // 11 digits not starting with 1
    ]);
  }
  return rng.pick([
    digits,
    `${a}-${e}-${l}`,
    `(${a}) ${e}-${l}`,
    `${a}.${e}.${l}`,
    `+1 ${a} ${e} ${l}`,
    `1-${a}-${e}-${l}`,
    `+1 (${a}) ${e}-${l}`,
    `1${digits}`,
    `+1${digits}`,
    ` ${a} ${e} ${l} `,
  ]);
}

// ---------------------------------------------------------------------------------------------
// The rest of an employee record

function externalIds(rng: DemoRandom): SourceEmployeeInput["externalIds"] {
  const ids: SourceEmployeeInput["externalIds"] = [];
  if (rng.chance(0.7)) ids.push({ system: "payroll_system", system_id: `PR-${rng.digits(6)}` });
  if (rng.chance(0.45)) ids.push({ system: "hhaexchange", system_id: `HHX${rng.digits(7)}` });
  return ids;
}

function address(rng: DemoRandom): SourceEmployeeInput["contact"]["address"] {
  if (rng.chance(0.05)) return { line1: null, line2: null, city: null, state: null, postalCode: null };
  const [city, state, zip] = rng.pick(PLACES);
  return {
    line1: `${rng.int(1, 9999)} ${rng.pick(STREETS)}`,
    line2: rng.chance(0.25)
      ? rng.pick([`Apt ${rng.int(1, 30)}${rng.pick(["A", "B", "C"])}`, "Unit 12", "Suite 200"])
      : null,
    city,
    state,
    postalCode: rng.chance(0.2) ? `${zip}-${rng.digits(4)}` : zip,
  };
}

/** Every membership state, including invitations expired by date and by status. */
function membership(rng: DemoRandom): SourceEmployeeInput["membership"] {
  const invitation = (status: string, expiresFrom: string, expiresTo: string) => {
    const expires = randomDay(rng, expiresFrom, expiresTo);
    const invited = isoDay(dayOf(expires) - rng.int(7, 30));
    return { status, invitedAt: `${invited}T15:00:00Z`, expiresAt: `${expires}T15:00:00Z` };
  };
  const kind = rng.weighted([
    ["active", 30],
    ["disabled", 5],
    ["revoked", 7],
    ["pending", 15],
    ["expiredByDate", 12],
    ["expiredByStatus", 4],
    ["none", 27],
  ] as const);
  switch (kind) {
    case "active":
      return {
        state: "active",
        userState: "active",
        invitation: rng.chance(0.5) ? invitation("accepted", "2022-02-01", "2026-06-30") : null,
      };
    case "disabled":
      return { state: "active", userState: "disabled", invitation: null };
    case "revoked":
      return { state: "revoked", userState: rng.pick(["active", "disabled", null]), invitation: null };
    case "pending":
      return { state: null, userState: null, invitation: invitation("pending", "2030-01-01", "2031-12-31") };
    case "expiredByDate":
      return { state: null, userState: null, invitation: invitation("pending", "2022-02-01", "2025-12-31") };
    case "expiredByStatus":
      return { state: null, userState: null, invitation: invitation("expired", "2030-01-01", "2031-12-31") };
    case "none":
      return { state: null, userState: null, invitation: null };
  }
}

function participation(rng: DemoRandom): SourceEmployeeInput["participation"] {
  if (rng.chance(0.25)) return null;
  const decision = rng.weighted<"opt_in" | "opt_out" | null>([
    ["opt_in", 50],
    ["opt_out", 30],
    [null, 20],
  ]);
  return {
    decision,
    decidedAt: decision === null ? null : `${randomDay(rng, "2022-01-01", "2026-06-30")}T12:00:00Z`,
  };
}

/** A coverage date: mostly a plain date, sometimes a date-time with an offset or Z. */
function coverageDate(rng: DemoRandom, day: string): string {
  return rng.weighted([
    [day, 70],
    [`${day}T00:00:00-05:00`, 20],
    [`${day}T05:00:00Z`, 10],
  ]);
}

function coverages(rng: DemoRandom): NonNullable<SourceEmployeeInput["coverages"]> {
  const count = rng.weighted([
    [0, 20],
    [1, 45],
    [2, 25],
    [3, 10],
  ] as const);
  return Array.from({ length: count }, () => {
    const status = rng.weighted<CoverageStatus>([
      ["enrolled", 35],
      ["enrolled_not_paying", 10],
      ["awaiting_coverage", 10],
      ["waived", 15],
      ["terminated", 30],
    ]);
    const start =
      status === "awaiting_coverage"
        ? randomDay(rng, "2026-01-01", "2027-06-30")
        : randomDay(rng, "2021-01-01", "2026-06-30");
    const end =
      status === "terminated"
        ? isoDay(dayOf(start) + rng.int(90, 900))
        : rng.chance(0.15)
          ? isoDay(dayOf(start) + rng.int(365, 1500))
          : null;
    const record: NonNullable<SourceEmployeeInput["coverages"]>[number] = {
      status,
      startsAt: coverageDate(rng, start),
      endsAt: end === null ? null : coverageDate(rng, end),
      planTier: rng.pick(PLAN_TIERS),
    };
    if (rng.chance(0.8)) record.program = rng.pick(PROGRAMS);
    return record;
  });
}

function employeeRecord(
  rng: DemoRandom,
  companyId: string,
  personId: string | null,
  who: Identity,
): SourceEmployeeInput {
  // A person's records at different companies were keyed in separately: same person, but the
  // name may be cased or encoded differently and the phone punctuated differently or changed.
  const phone = rng.chance(0.1) ? tenDigitPhone(rng) : who.phone;
  return {
    id: rng.uuid(),
    companyId,
    personId,
    externalIds: externalIds(rng),
    demographics: {
      firstName: renderName(rng, who.first),
      lastName: renderName(rng, who.last),
      dateOfBirth: who.dateOfBirth,
      gender: who.gender,
    },
    contact: {
      email: rng.chance(0.9) ? who.email : null,
      phone: renderPhone(rng, phone),
      address: address(rng),
    },
    membership: membership(rng),
    participation: participation(rng),
    coverages: coverages(rng),
    ...timestamps(rng),
  };
}

// ---------------------------------------------------------------------------------------------
// The records, and the file text

/**
 * The records in creation order: each person just before their employee records. Exactly
 * `options.employees` employee records; about 8% have no person; a person has 1-4 employments at
 * distinct companies (fewer when there are fewer companies), and about 1 in 15 persons also has a
 * duplicate record (same company, new id).
 */
export function* demoRecords(options: DemoOptions): Generator<DemoRecord> {
  const rng = new DemoRandom(options.seed);
  const companies = demoCompanyIds(options.companies);
  const picker = companyPicker(companies, options.companySizes);
  // A person brings `perPerson` records on average, so for 8% of *records* to have no person, an
  // orphan must be chosen with this probability per step (about 0.18 with 4 or more companies).
  const perPerson = [1, 2, 3, 4].reduce((sum, k) => sum + Math.min(k, companies.length), 0) / 4 + 1 / 15;
  const orphanChance = (0.08 * perPerson) / (0.92 + 0.08 * perPerson);
  let remaining = options.employees;
  while (remaining > 0) {
    if (rng.chance(orphanChance)) {
      yield { kind: "employee", value: employeeRecord(rng, picker.pick(rng), null, identity(rng)) };
      remaining -= 1;
      continue;
    }
    const person: SourcePersonInput = { id: rng.uuid(), ...timestamps(rng) };
    yield { kind: "person", value: person };
    const who = identity(rng);
    const employers = picker.sample(rng, Math.min(rng.int(1, 4), companies.length, remaining));
    if (rng.chance(1 / 15) && remaining > employers.length) employers.push(rng.pick(employers));
    for (const companyId of employers) {
      yield { kind: "employee", value: employeeRecord(rng, companyId, person.id, who) };
      remaining -= 1;
    }
  }
}

export type DemoFormat = "json" | "ndjson";

export interface DemoSummary {
  persons: number;
  employees: number;
}

/**
 * The file's text a record at a time, for streaming a large file. JSON puts one record on a line;
 * it walks the (deterministic) records twice, persons then employees, instead of holding them in
 * memory.
 */
export function* demoDataByRecord(
  options: DemoOptions,
  format: DemoFormat,
  summary: DemoSummary = { persons: 0, employees: 0 },
): Generator<string> {
  const count = (record: DemoRecord) => {
    if (record.kind === "person") summary.persons += 1;
    else summary.employees += 1;
  };
  yield* format === "ndjson" ? ndjsonByRecord(options, count) : jsonByRecord(options, count);
}

function* ndjsonByRecord(options: DemoOptions, count: (record: DemoRecord) => void): Generator<string> {
  for (const record of demoRecords(options)) {
    count(record);
    yield `${JSON.stringify(record.kind === "person" ? { person: record.value } : { employee: record.value })}\n`;
  }
}

function* jsonByRecord(options: DemoOptions, count: (record: DemoRecord) => void): Generator<string> {
  for (const kind of ["person", "employee"] as const) {
    yield kind === "person" ? '{"persons":[\n' : '\n],"employees":[\n';
    let first = true;
    for (const record of demoRecords(options)) {
      if (record.kind !== kind) continue;
      count(record);
      yield `${first ? "" : ",\n"}${JSON.stringify(record.value)}`;
      first = false;
    }
  }
  yield "\n]}\n";
}

/** The whole file as one string (tests, small files). */
export function demoDataText(options: DemoOptions, format: DemoFormat): string {
  return [...demoDataByRecord(options, format)].join("");
}

/** Joins the many small texts into ~64 KiB writes. */
export function* writesOf(texts: Iterable<string>): Generator<string> {
  let buffer = "";
  for (const text of texts) {
    buffer += text;
    if (buffer.length >= 65_536) {
      yield buffer;
      buffer = "";
    }
  }
  if (buffer !== "") yield buffer;
}
