/**
 * The request bodies of both searches, parsed as the pipeline parses them (strict schema, input
 * reported) and described as the 400 message describes them. Every rule of the contract and of
 * docs/decisions has a case; each refusal names the field.
 */
import fc from "fast-check";
import { safeParse } from "zod/mini";
import type * as core from "zod/v4/core";
import { MAX_INSTANT_KEY, MIN_INSTANT_KEY } from "../../lib/directory/instant-key.js";
import { describeZodError } from "../../lib/http/validation-message.js";
import { inCreatedRange } from "../../lib/search/matching.js";
import {
  createdRange,
  DEFAULT_LIMIT,
  employeesSearchRequestSchema,
  MAX_LIMIT,
  type PersonsSearchRequest,
  personsSearchRequestSchema,
} from "../../lib/search/request-schemas.js";
import { validDateTime } from "../support/date-times.js";

type Parsed = { ok: true; data: unknown } | { ok: false; message: string };

function parse(schema: core.$ZodType, body: unknown): Parsed {
  const result = safeParse(schema, body, { reportInput: true });
  return result.success
    ? { ok: true, data: result.data }
    : { ok: false, message: describeZodError(result.error) };
}

const persons = (body: unknown) => parse(personsSearchRequestSchema, body);
const employees = (body: unknown) => parse(employeesSearchRequestSchema, body);

function refusal(parsed: Parsed): string {
  if (parsed.ok) throw new Error(`expected a refusal, got ${JSON.stringify(parsed.data)}`);
  return parsed.message;
}

function accepted(parsed: Parsed): unknown {
  if (!parsed.ok) throw new Error(`expected acceptance, got: ${parsed.message}`);
  return parsed.data;
}

/** Both routes share every filter rule; employees search needs a companyId besides. */
const ROUTES = [
  { route: "persons", run: (body: Record<string, unknown>) => persons(body) },
  { route: "employees", run: (body: Record<string, unknown>) => employees({ companyId: "acme", ...body }) },
] as const;

describe.each(ROUTES)("$route search request", ({ run }) => {
  it("applies the defaults limit 50 and offset 0", () => {
    expect(accepted(run({}))).toMatchObject({ limit: DEFAULT_LIMIT, offset: 0 });
    expect(DEFAULT_LIMIT).toBe(50);
    expect(MAX_LIMIT).toBe(100);
  });

  it("refuses an unknown field and names it (a misspelt filter never widens a search)", () => {
    expect(refusal(run({ compnyId: "acme" }))).toContain('unknown field "compnyId"');
    expect(refusal(run({ first_name: "Ann" }))).toContain('unknown field "first_name"');
    expect(refusal(run({ sort: "desc" }))).toContain('unknown field "sort"');
  });

  it.each([
    ["firstName", ""],
    ["lastName", ""],
  ])("refuses an empty %s", (field, value) => {
    expect(refusal(run({ [field]: value }))).toMatch(new RegExp(`^${field}: must be at least 1 character`));
  });

  it("keeps a name filter as typed (spaces are part of it)", () => {
    expect(accepted(run({ firstName: " ", lastName: "O'Neil " }))).toMatchObject({
      firstName: " ",
      lastName: "O'Neil ",
    });
  });

  it.each([
    ["(212) 555-0142", "2125550142"],
    ["212.555.0142", "2125550142"],
    ["+1 212 555 0142", "2125550142"],
    ["1-212-555-0142", "2125550142"],
    ["12125550142", "2125550142"],
    ["2125550142", "2125550142"],
  ])("normalizes the phone %j to %s", (phone, digits) => {
    expect(accepted(run({ phone }))).toMatchObject({ phone: digits });
  });

  it.each([
    ["", "it has 0"],
    ["212-555-014", "it has 9"],
    ["2 212 555 0142", "it has 11"],
    ["212 555 0142 1", "it has 11"],
    ["+44 20 7946 0958", "it has 12"],
  ])("refuses the phone %j, which does not normalize to 10 digits", (phone, count) => {
    const message = refusal(run({ phone }));
    expect(message).toMatch(/^phone: must have exactly 10 digits/);
    expect(message).toContain(count);
  });

  it.each(["212-555-0142 ext 9", "２１２５５５０１４２", "212\t555\t0142", "212/555/0142"])(
    "refuses the phone %j, which holds characters other than digits and punctuation",
    (phone) => {
      expect(refusal(run({ phone }))).toBe("phone: may contain only digits, spaces and - . ( ) +");
    },
  );

  it("accepts every external id system, alone, together or none, and keeps the list", () => {
    for (const systems of [[], ["payroll_system"], ["hhaexchange"], ["payroll_system", "hhaexchange"]]) {
      expect(accepted(run({ externalIdSystems: systems }))).toMatchObject({ externalIdSystems: systems });
    }
  });

  it("refuses an unsupported externalIdSystems value and names the value", () => {
    const message = refusal(run({ externalIdSystems: ["payroll_system", "adp"] }));
    expect(message).toContain("externalIdSystems[1]");
    expect(message).toContain('"adp"');
    expect(refusal(run({ externalIdSystems: ["PAYROLL_SYSTEM"] }))).toContain('"PAYROLL_SYSTEM"');
    expect(refusal(run({ externalIdSystems: "payroll_system" }))).toBe(
      "externalIdSystems: expected array, received string",
    );
  });

  it.each([
    [["hhaexchange", "hhaexchange"], "hhaexchange"],
    [["payroll_system", "hhaexchange", "payroll_system"], "payroll_system"],
    [Array(60_000).fill("hhaexchange"), "hhaexchange"],
  ])("refuses a system listed more than once, naming the field and the system", (systems, repeated) => {
    expect(refusal(run({ externalIdSystems: systems }))).toBe(
      `externalIdSystems: must name each system at most once ("${repeated}" is repeated)`,
    );
  });

  it("names unsupported values before repeats, which only known systems can be", () => {
    expect(refusal(run({ externalIdSystems: ["adp", "adp"] }))).toBe(
      'externalIdSystems[0]: unsupported value "adp" (allowed: payroll_system, hhaexchange); externalIdSystems[1]: unsupported value "adp" (allowed: payroll_system, hhaexchange)',
    );
  });

  it.each(["limit", "offset"])("refuses a %s too large to be finite (1e400 reads as Infinity)", (field) => {
    for (const value of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(refusal(run({ [field]: value }))).toBe(`${field}: must be a finite number`);
    }
  });

  it.each([1, 2, 99, 100])("accepts limit %i", (limit) => {
    expect(accepted(run({ limit }))).toMatchObject({ limit });
  });

  it.each([
    [0, "limit: must be at least 1"],
    [-1, "limit: must be at least 1"],
    [101, "limit: must be at most 100"],
    [1.5, "limit: expected integer, received number"],
  ])("refuses limit %j", (limit, message) => {
    expect(refusal(run({ limit }))).toBe(message);
  });

  it("accepts offset 0 and beyond, and refuses a negative or fractional offset", () => {
    expect(accepted(run({ offset: 0 }))).toMatchObject({ offset: 0 });
    expect(accepted(run({ offset: 10_000 }))).toMatchObject({ offset: 10_000 });
    expect(refusal(run({ offset: -1 }))).toBe("offset: must be at least 0");
    expect(refusal(run({ offset: 0.5 }))).toBe("offset: expected integer, received number");
  });

  it.each([
    ["limit", "5", "limit: expected number, received string"],
    ["limit", null, "limit: expected number, received null"],
    ["limit", true, "limit: expected number, received boolean"],
    ["offset", "0", "offset: expected number, received string"],
    ["offset", null, "offset: expected number, received null"],
    ["phone", 2125550142, "phone: expected string, received number"],
    ["phone", null, "phone: expected string, received null"],
    ["firstName", null, "firstName: expected string, received null"],
    ["lastName", ["Smith"], "lastName: expected string, received array"],
    ["personId", 7, "personId: expected string, received number"],
    ["externalIdSystems", null, "externalIdSystems: expected array, received null"],
    ["createdFrom", 1714550400000, "createdFrom: expected string, received number"],
    ["createdBefore", null, "createdBefore: expected string, received null"],
  ])("refuses %s of the wrong JSON type (%j)", (field, value, message) => {
    expect(refusal(run({ [field]: value }))).toBe(message);
  });

  it.each([
    "2024-05-01T09:30:00Z",
    "2024-05-01T09:30:00+02:00",
    "2024-05-01T09:30:00-05:30",
    "2024-05-01T09:30:00.5Z",
    "2024-05-01T09:30:00.123456789+00:00",
    "2024-05-01T09:30:00.1234567891Z",
    "2024-05-01T09:30:00.123456789012345678901234567890-00:00",
    "0000-01-01T00:00:00+14:00",
    "9999-12-31T23:59:59-14:00",
  ])("accepts the date-time %s with Z or an offset, any precision, years 0000 to 9999", (value) => {
    expect(accepted(run({ createdFrom: value, createdBefore: value }))).toMatchObject({
      createdFrom: value,
      createdBefore: value,
    });
  });

  it.each([
    "2024-05-01T09:30:00",
    "2024-05-01",
    "2024-05-01T09:30Z",
    "2024-05-01T09:30:00+0200",
    "2024-05-01 09:30:00Z",
    "2024-02-30T09:30:00Z",
    "2024-05-01T24:00:00Z",
    "2016-12-31T23:59:60Z",
    "2024-05-01T09:30:00z",
    "10000-01-01T00:00:00Z",
    "yesterday",
  ])("refuses %j as a date-time (no time zone, not RFC 3339, or a leap second)", (value) => {
    expect(refusal(run({ createdFrom: value }))).toBe(
      "createdFrom: must be a valid date-time with a time zone (RFC 3339)",
    );
    expect(refusal(run({ createdBefore: value }))).toBe(
      "createdBefore: must be a valid date-time with a time zone (RFC 3339)",
    );
  });

  it("lower-cases personId and refuses one that is not a uuid", () => {
    expect(accepted(run({ personId: "3F2504E0-4F89-41D3-9A0C-0305E82C3301" }))).toMatchObject({
      personId: "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
    });
    expect(refusal(run({ personId: "3f2504e0" }))).toMatch(/^personId: /);
    expect(refusal(run({ personId: "" }))).toMatch(/^personId: /);
    expect(refusal(run({ personId: "3f2504e0-4f89-41d3-9a0c-0305e82c330z" }))).toMatch(/^personId: /);
  });

  it("names every broken field at once", () => {
    const message = refusal(run({ limit: 0, offset: -1, firstName: "", extra: 1 }));
    for (const field of ["limit", "offset", "firstName", '"extra"']) expect(message).toContain(field);
  });
});

describe("persons search request", () => {
  it("accepts an empty object and a full set of filters", () => {
    expect(accepted(persons({}))).toEqual({ limit: 50, offset: 0 });
    const full = {
      companyId: "acme",
      phone: "(212) 555-0142",
      firstName: "Zoë",
      lastName: "Weiß",
      personId: "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
      externalIdSystems: ["hhaexchange"],
      createdFrom: "2024-01-01T00:00:00Z",
      createdBefore: "2025-01-01T00:00:00+01:00",
      limit: 10,
      offset: 20,
    };
    expect(accepted(persons(full))).toEqual({ ...full, phone: "2125550142" });
  });

  it("refuses an empty companyId and takes any other as a filter", () => {
    expect(refusal(persons({ companyId: "" }))).toBe("companyId: must be at least 1 character");
    expect(refusal(persons({ companyId: 5 }))).toBe("companyId: expected string, received number");
    expect(accepted(persons({ companyId: "acme" }))).toMatchObject({ companyId: "acme" });
  });

  it.each([
    [null, "request body: expected object, received null"],
    [[], "request body: expected object, received array"],
    ["{}", "request body: expected object, received string"],
    [42, "request body: expected object, received number"],
  ])("refuses a body that is not an object (%j)", (body, message) => {
    expect(refusal(persons(body))).toBe(message);
  });
});

describe("employees search request", () => {
  it("requires companyId, and refuses an empty one", () => {
    expect(refusal(employees({}))).toBe("companyId: required");
    expect(refusal(employees({ firstName: "Ann" }))).toBe("companyId: required");
    expect(refusal(employees({ companyId: "" }))).toBe("companyId: must be at least 1 character");
    expect(refusal(employees({ companyId: null }))).toBe("companyId: expected string, received null");
  });

  it("accepts companyId alone, with the defaults", () => {
    expect(accepted(employees({ companyId: "acme" }))).toEqual({ companyId: "acme", limit: 50, offset: 0 });
  });
});

describe("createdRange", () => {
  it("gives no bound for absent filters", () => {
    expect(createdRange({})).toEqual({});
  });

  it("turns each bound into a key of the same instant, whatever offset or precision", () => {
    const range = createdRange({
      createdFrom: "2024-05-01T11:30:00+02:00",
      createdBefore: "2024-05-01T09:30:00.5Z",
    });
    expect(range).toEqual({
      from: "2024-05-01T09:30:00.000000000Z",
      before: "2024-05-01T09:30:00.500000000Z",
    });
  });

  it("rounds a bound finer than a nanosecond up, for both bounds (t >= x iff t >= ceil(x); t < x iff t < ceil(x))", () => {
    expect(
      createdRange({
        createdFrom: "2024-05-01T09:30:00.1234567891Z",
        createdBefore: "2024-05-01T09:30:00.12345678900001Z",
      }),
    ).toEqual({ from: "2024-05-01T09:30:00.123456790Z", before: "2024-05-01T09:30:00.123456790Z" });
    expect(createdRange({ createdFrom: "2024-05-01T09:30:00.1234567890000Z" })).toEqual({
      from: "2024-05-01T09:30:00.123456789Z",
    });
  });

  it("bounds before year 0000 (UTC) at the first key: nothing is before it", () => {
    expect(
      createdRange({ createdFrom: "0000-01-01T00:00:00+14:00", createdBefore: "0000-01-01T00:00:00+14:00" }),
    ).toEqual({ from: MIN_INSTANT_KEY, before: MIN_INSTANT_KEY });
  });

  it("drops a createdBefore after year 9999 (UTC): every instant is before it", () => {
    expect(createdRange({ createdBefore: "9999-12-31T23:59:59-14:00" })).toEqual({});
    expect(
      createdRange({ createdFrom: "2024-01-01T00:00:00Z", createdBefore: "9999-12-31T23:59:59.9999999991Z" }),
    ).toEqual({ from: "2024-01-01T00:00:00.000000000Z" });
  });

  it("makes a createdFrom after year 9999 (UTC) an empty range: no instant is at or after it", () => {
    for (const createdFrom of ["9999-12-31T23:59:59-14:00", "9999-12-31T23:59:59.9999999991Z"]) {
      const range = createdRange({ createdFrom, createdBefore: "2024-01-01T00:00:00Z" });
      expect(range).toEqual({ from: MIN_INSTANT_KEY, before: MIN_INSTANT_KEY });
      for (const key of [MIN_INSTANT_KEY, MAX_INSTANT_KEY]) expect(inCreatedRange(key, range)).toBe(false);
    }
  });

  it("gives a range for every bound the schema accepts", () => {
    fc.assert(
      fc.property(validDateTime, validDateTime, (createdFrom, createdBefore) => {
        const request = accepted(persons({ createdFrom, createdBefore })) as PersonsSearchRequest;
        expect(() => createdRange(request)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});
