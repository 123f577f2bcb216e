/**
 * The source-record format the directory is loaded from (docs/data-format.md), and the one parser
 * of data files. A file is all or nothing: every record is checked before anything is returned,
 * and the first bad record stops the load with a `DataFileError` naming the record, the field and
 * the rule. Messages never echo a field's value (records hold personal data); only ids are shown.
 */
import { z } from "zod";
import { callerText } from "../observability/caller-text.js";
import { COMPANY_ID_PATTERN } from "./company-id.js";
import { instantKeyProblem } from "./instant-key.js";
import { MAX_NAME_BYTES, normalizeName } from "./name.js";
import { findFullSsn } from "./ssn.js";
import {
  COVERAGE_STATUSES,
  EXTERNAL_ID_SYSTEMS,
  PARTICIPATION_DECISIONS,
  SOURCE_MEMBERSHIP_STATES,
  USER_STATES,
} from "./vocabulary.js";
import { findIllFormedText } from "./well-formed.js";

// ---------------------------------------------------------------------------------------------
// Field rules. Each schema carries the text of its rule, so an error reads
// `contact.phone: expected string or null` rather than Zod's generic wording.

/** Zod error option: "required" for a missing field, otherwise the rule. */
const rule = (text: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "required" : text),
});

const DATE_TIME = "date-time (RFC 3339 with Z or an offset, e.g. 2024-05-01T09:30:00Z)";
const DATE = "date (YYYY-MM-DD)";
const UUID = "uuid (8-4-4-4-12 hex digits)";
const oneOf = (values: readonly string[]) => values.map((v) => `"${v}"`).join(", ");

/**
 * Ids are lower-cased on load: the API sorts by id as a plain string and matches `personId`
 * exactly, so one id must have one spelling whatever case the source system wrote it in.
 */
const uuid = () => z.guid(rule(`expected ${UUID}`)).transform((id) => id.toLowerCase());
const nullableUuid = () =>
  z
    .guid(rule(`expected ${UUID} or null`))
    .transform((id) => id.toLowerCase())
    .nullable();
const dateTime = () => z.iso.datetime({ offset: true, ...rule(`expected ${DATE_TIME}`) });
/** A date-time the searches order and filter by: it must also be an instant key (instant-key.ts). */
const createdAt = () =>
  dateTime().superRefine((value, context) => {
    const problem = instantKeyProblem(value);
    if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
  });
const nullableDateTime = () =>
  z.iso.datetime({ offset: true, ...rule(`expected ${DATE_TIME} or null`) }).nullable();
const text = () => z.string(rule("expected string"));

const name = () =>
  nullableText().refine(
    (value) => value === null || Buffer.byteLength(normalizeName(value)) <= MAX_NAME_BYTES,
    `is longer than ${MAX_NAME_BYTES} bytes after NFKC and lower-casing`,
  );
const nullableText = () => z.string(rule("expected string or null")).nullable();
const object = <T extends z.core.$ZodLooseShape>(shape: T) => z.strictObject(shape, rule("expected object"));
const nullableEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, rule(`expected one of ${oneOf(values)} or null`)).nullable();
/** Coverage periods come as a date or a date-time; the API reports the calendar date either way. */
const dateOrDateTime = (orNull: string) =>
  z.union(
    [z.iso.date(), z.iso.datetime({ offset: true })],
    rule(`expected ${DATE} or ${DATE_TIME}${orNull}`),
  );

// ---------------------------------------------------------------------------------------------
// Schemas

export const SourcePersonSchema = object({ id: uuid(), createdAt: createdAt(), updatedAt: dateTime() });

const SourceExternalIdSchema = object({
  system: z.enum(EXTERNAL_ID_SYSTEMS, rule(`expected one of ${oneOf(EXTERNAL_ID_SYSTEMS)}`)),
  system_id: text().min(1, "must not be empty"),
});

const SourceInvitationSchema = object({
  status: text(),
  invitedAt: dateTime(),
  expiresAt: dateTime(),
});

/** Source state from which `membership.status` is derived at read time (derive.ts). */
const SourceMembershipSchema = object({
  state: nullableEnum(SOURCE_MEMBERSHIP_STATES),
  userState: nullableEnum(USER_STATES),
  invitation: SourceInvitationSchema.nullable(),
});

const SourceCoverageSchema = object({
  status: z.enum(COVERAGE_STATUSES, rule(`expected one of ${oneOf(COVERAGE_STATUSES)}`)),
  startsAt: dateOrDateTime(""),
  endsAt: dateOrDateTime(" or null").nullable(),
  planTier: text(),
  /** Plan program (medical, dental…); kept in the source only, the API does not return it. */
  program: text().optional(),
});

export const SourceEmployeeSchema = object({
  id: uuid(),
  companyId: text().regex(COMPANY_ID_PATTERN, "expected company id: 1-128 letters, digits, '-', '_' or '.'"),
  personId: nullableUuid(),
  externalIds: z.array(SourceExternalIdSchema, rule("expected array")),
  demographics: object({
    firstName: name(),
    lastName: name(),
    dateOfBirth: z.iso.date(rule(`expected ${DATE} or null`)).nullable(),
    gender: nullableText(),
  }),
  contact: object({
    email: nullableText(),
    /** Stored as given; a phone that does not normalize is kept but never matches a filter. */
    phone: nullableText(),
    address: object({
      line1: nullableText(),
      line2: nullableText(),
      city: nullableText(),
      state: nullableText(),
      postalCode: nullableText(),
    }),
  }),
  membership: SourceMembershipSchema,
  participation: object({
    decision: nullableEnum(PARTICIPATION_DECISIONS),
    decidedAt: nullableDateTime(),
  }).nullable(),
  /** Every coverage record; absent means none. */
  coverages: z.array(SourceCoverageSchema, rule("expected array")).default(() => []),
  createdAt: createdAt(),
  updatedAt: dateTime(),
});

export type SourcePerson = z.output<typeof SourcePersonSchema>;
export type SourceEmployee = z.output<typeof SourceEmployeeSchema>;
export type SourceMembership = z.output<typeof SourceMembershipSchema>;
export type SourceInvitation = z.output<typeof SourceInvitationSchema>;
export type SourceCoverage = z.output<typeof SourceCoverageSchema>;
export type SourceExternalId = z.output<typeof SourceExternalIdSchema>;
export interface DataFile {
  persons: SourcePerson[];
  employees: SourceEmployee[];
}

// ---------------------------------------------------------------------------------------------
// Errors

/**
 * A refused data file. `record` names the record, `field` the path in it (if any), `rule` why. A
 * path holds the file's own field names, so it is caller text: redacted and cut (callerText) here,
 * once, for every message, log line and report that shows it.
 */
export class DataFileError extends Error {
  override readonly name = "DataFileError";
  readonly record: string;
  readonly field: string | null;
  readonly rule: string;

  constructor(record: string, field: string | null, rule: string) {
    const shown = field === null ? null : callerText(field);
    super(shown === null ? `${record}: ${rule}` : `${record}: ${shown}: ${rule}`);
    this.record = record;
    this.field = shown;
    this.rule = rule;
  }
}

/** `contact.address.line1`, `coverages[2].endsAt`. */
function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`))
    .join("");
}

function firstIssue(error: z.ZodError): { field: string | null; rule: string } {
  const issue = error.issues[0];
  if (issue === undefined) return { field: null, rule: "invalid" };
  if (issue.code === "unrecognized_keys") {
    return { field: formatPath([...issue.path, issue.keys[0] ?? ""]), rule: "unknown field" };
  }
  return { field: issue.path.length === 0 ? null : formatPath(issue.path), rule: issue.message };
}

// ---------------------------------------------------------------------------------------------
// Parsing

export type RecordKind = "person" | "employee";
type Kind = RecordKind;
interface Located<T> {
  value: T;
  label: string;
}

/** Built once: building a Zod schema costs about 20 times what one parse does, and this runs per record. */
const UUID_SHAPED = z.guid();

/** The id of a raw record, shown in messages only when it is uuid-shaped (never free text). */
function rawId(raw: unknown): string | undefined {
  if (raw === null || typeof raw !== "object" || !("id" in raw)) return undefined;
  const { id } = raw;
  return typeof id === "string" && UUID_SHAPED.safeParse(id).success ? id : undefined;
}

function withId(label: string, raw: unknown): string {
  const id = rawId(raw);
  return id === undefined ? label : `${label} (id ${id})`;
}

function validate<S extends z.ZodType>(schema: S, raw: unknown, label: string): z.output<S> {
  const illFormed = findIllFormedText(raw);
  if (illFormed !== undefined) {
    const { path, inFieldName } = illFormed;
    throw new DataFileError(
      label,
      path.length === 0 ? null : formatPath(path),
      `${inFieldName ? "holds a field name that " : ""}is not well-formed Unicode (a lone surrogate)`,
    );
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    const { field, rule } = firstIssue(result.error);
    throw new DataFileError(label, field, rule);
  }
  const ssnAt = findFullSsn(result.data);
  if (ssnAt !== undefined) {
    throw new DataFileError(
      label,
      formatPath(ssnAt),
      "looks like a full Social Security number, which is refused",
    );
  }
  return result.data;
}

/** One record validated; the label names it in messages (with its id when uuid-shaped). */
export function validateRecord(kind: "person", raw: unknown, label: string): SourcePerson;
export function validateRecord(kind: "employee", raw: unknown, label: string): SourceEmployee;
export function validateRecord(kind: Kind, raw: unknown, label: string): SourcePerson | SourceEmployee {
  const labelled = withId(label, raw);
  return kind === "person"
    ? validate(SourcePersonSchema, raw, labelled)
    : validate(SourceEmployeeSchema, raw, labelled);
}

/** Accumulates validated records and checks what needs more than one record. */
class Collector {
  readonly persons: Located<SourcePerson>[] = [];
  readonly employees: Located<SourceEmployee>[] = [];
  private readonly personLabels = new Map<string, string>();
  private readonly employeeLabels = new Map<string, string>();

  add(kind: Kind, raw: unknown, label: string): void {
    const labelled = withId(label, raw);
    if (kind === "person") {
      const value = validate(SourcePersonSchema, raw, labelled);
      this.claimId(kind, value.id, label, labelled, this.personLabels);
      this.persons.push({ value, label: labelled });
    } else {
      const value = validate(SourceEmployeeSchema, raw, labelled);
      this.claimId(kind, value.id, label, labelled, this.employeeLabels);
      this.employees.push({ value, label: labelled });
    }
  }

  /** Ids are unique per kind (duplicate employee *records* are allowed, but each has its own id). */
  private claimId(kind: Kind, id: string, label: string, labelled: string, seen: Map<string, string>): void {
    const earlier = seen.get(id);
    if (earlier !== undefined)
      throw new DataFileError(labelled, "id", `duplicate ${kind} id (first used by ${earlier})`);
    seen.set(id, label);
  }

  /** Whether each personId names a stored person is the load's check, once the file is applied. */
  finish(): DataFile {
    return { persons: this.persons.map((p) => p.value), employees: this.employees.map((e) => e.value) };
  }
}

/** JSON.parse without its message, which quotes the input text (and so possibly personal data). */
export function parseJson(source: string): { ok: true; value: unknown } | { ok: false; where: string } {
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch (error) {
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : "")?.[1];
    if (position === undefined) return { ok: false, where: "" };
    const before = source.slice(0, Number(position)).split("\n");
    return { ok: false, where: ` at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}` };
  }
}

/** Whether an NDJSON line's value is a change line: an object with `"op"`, as no record line has. */
export function isChangeLine(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value) && "op" in value;
}

/** The refusal of an NDJSON line that is no record; a change line (`"op"`) is told the mode it needs. */
export function notAnEntry(lineNumber: number, value: unknown): DataFileError {
  return new DataFileError(
    `line ${lineNumber}`,
    null,
    `expected an object with one key, "person" or "employee"${isChangeLine(value) ? '; it is a change line ("op"): load a changes file with --mode changes' : ""}`,
  );
}

/** One NDJSON line: `{"person": …}` or `{"employee": …}`. */
export function ndjsonEntry(value: unknown): { kind: Kind; raw: unknown } | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  const [only] = entries;
  if (entries.length !== 1 || only === undefined) return undefined;
  const [key, raw] = only;
  return key === "person" || key === "employee" ? { kind: key, raw } : undefined;
}

const JsonFileSchema = z.strictObject(
  {
    persons: z.array(z.unknown(), rule("expected array")),
    employees: z.array(z.unknown(), rule("expected array")),
  },
  rule("expected an object {persons, employees}"),
);

function parseJsonFile(value: unknown): DataFile {
  const file = JsonFileSchema.safeParse(value);
  if (!file.success) {
    const { field, rule } = firstIssue(file.error);
    throw new DataFileError("data file", field, rule);
  }
  const collector = new Collector();
  for (const [i, raw] of file.data.persons.entries()) collector.add("person", raw, `persons[${i}]`);
  for (const [i, raw] of file.data.employees.entries()) collector.add("employee", raw, `employees[${i}]`);
  return collector.finish();
}

function parseNdjson(body: string): DataFile {
  const collector = new Collector();
  for (const [i, line] of body.split("\n").entries()) {
    const lineNumber = i + 1;
    if (line.trim() === "") continue; // blank lines (a trailing newline) are allowed
    const parsed = parseJson(line);
    if (!parsed.ok) throw new DataFileError(`line ${lineNumber}`, null, "not valid JSON");
    const entry = ndjsonEntry(parsed.value);
    if (entry === undefined) throw notAnEntry(lineNumber, parsed.value);
    collector.add(entry.kind, entry.raw, `${entry.kind} at line ${lineNumber}`);
  }
  return collector.finish();
}

/**
 * Parses a data file: JSON `{"persons": […], "employees": […]}` or NDJSON (one `{"person": …}`
 * or `{"employee": …}` a line). The text is JSON when it parses whole as something other than a
 * single NDJSON entry; otherwise it is read line by line. Throws `DataFileError` on the first
 * problem; returns only when every record is valid.
 */
export function parseDataFile(text: string): DataFile {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (body.trim() === "") {
    throw new DataFileError("data file", null, "is empty; expected JSON {persons, employees} or NDJSON");
  }
  const whole = parseJson(body);
  if (whole.ok) {
    return ndjsonEntry(whole.value) === undefined ? parseJsonFile(whole.value) : parseNdjson(body);
  }
  const firstLine = body.split("\n").find((line) => line.trim() !== "") ?? "";
  if (!parseJson(firstLine).ok) throw new DataFileError("data file", null, `not valid JSON${whole.where}`);
  return parseNdjson(body);
}

/** What a data file may contain for one record, before ids are lower-cased and defaults applied. */
export type SourcePersonInput = z.input<typeof SourcePersonSchema>;
export type SourceEmployeeInput = z.input<typeof SourceEmployeeSchema>;
