/**
 * Instants: the parser accepts exactly what the request and data schemas accept, keys are exact,
 * sort as instants, and a bound finer than a nanosecond keeps its meaning once rounded up.
 */
import fc from "fast-check";
import * as z from "zod/mini";
import {
  ceilingKey,
  instantKey,
  instantKeyProblem,
  MAX_INSTANT_KEY,
  MIN_INSTANT_KEY,
  parseInstant,
} from "../../lib/directory/instant-key.js";
import { candidateDateTime, compareExactly, validDateTime } from "../support/date-times.js";

const zodDateTime = z.iso.datetime({ offset: true });

describe("parseInstant", () => {
  it("accepts exactly the date-times Zod's iso.datetime({ offset: true }) accepts", () => {
    fc.assert(
      fc.property(fc.oneof(validDateTime, candidateDateTime), (text) => {
        expect(parseInstant(text) !== undefined).toBe(zodDateTime.safeParse(text).success);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ["a leap second", "2016-12-31T23:59:60Z"],
    ["a leap second with a fraction", "2016-12-31T23:59:60.5Z"],
    ["hour 24", "2024-05-01T24:00:00Z"],
    ["30 February", "2024-02-30T00:00:00Z"],
    ["29 February of a common year", "2023-02-29T00:00:00Z"],
    ["an offset without a colon", "2024-05-01T09:30:00+0200"],
    ["an offset of 24 hours", "2024-05-01T09:30:00+24:00"],
    ["a lower-case z", "2024-05-01T09:30:00z"],
    ["a dot without digits", "2024-05-01T09:30:00.Z"],
    ["a five-digit year", "10000-01-01T00:00:00Z"],
  ])("refuses %s (%s)", (_name, text) => {
    expect(parseInstant(text)).toBeUndefined();
    expect(zodDateTime.safeParse(text).success).toBe(false);
  });

  it("keeps the digits past the ninth as whether the instant was exact", () => {
    expect(parseInstant("1970-01-01T00:00:01.123456789000Z")).toEqual({
      seconds: 1,
      nanos: 123_456_789,
      exact: true,
    });
    expect(parseInstant("1970-01-01T00:00:01.1234567890001Z")).toEqual({
      seconds: 1,
      nanos: 123_456_790,
      exact: false,
    });
    expect(parseInstant("1970-01-01T00:00:01.9999999995Z")).toEqual({ seconds: 2, nanos: 0, exact: false });
  });
});

describe("instantKey", () => {
  it.each([
    ["2024-05-01T09:30:00Z", "2024-05-01T09:30:00.000000000Z"],
    ["2024-05-01T11:30:00+02:00", "2024-05-01T09:30:00.000000000Z"],
    ["2024-05-01T04:00:00.5-05:30", "2024-05-01T09:30:00.500000000Z"],
    ["2024-05-01T09:30:00.123456789-00:00", "2024-05-01T09:30:00.123456789Z"],
    ["2024-05-01T09:30:00.123456789000Z", "2024-05-01T09:30:00.123456789Z"],
    ["2024-01-01T00:00:00+23:59", "2023-12-31T00:01:00.000000000Z"],
    ["0000-01-01T00:00:00Z", MIN_INSTANT_KEY],
    ["0000-01-01T14:00:00+14:00", MIN_INSTANT_KEY],
    ["0000-01-01T00:00:00-14:00", "0000-01-01T14:00:00.000000000Z"],
    ["0000-02-29T12:00:00Z", "0000-02-29T12:00:00.000000000Z"],
    ["0099-06-01T00:00:00Z", "0099-06-01T00:00:00.000000000Z"],
    ["9999-12-31T23:59:59.999999999Z", MAX_INSTANT_KEY],
    ["9999-12-31T09:59:59.999999999-14:00", MAX_INSTANT_KEY],
    ["9999-12-31T23:59:59+14:00", "9999-12-31T09:59:59.000000000Z"],
  ])("keys %s as %s", (text, key) => {
    expect(instantKeyProblem(text)).toBeUndefined();
    expect(instantKey(text)).toBe(key);
  });

  it.each([
    [
      "2024-05-01T09:30:00.1234567891Z",
      "expected at most 9 fractional digits (instants are kept to the nanosecond)",
    ],
    ["0000-01-01T00:00:00+14:00", "expected an instant from year 0000 to 9999 in UTC"],
    ["0000-01-01T13:59:59.999999999+14:00", "expected an instant from year 0000 to 9999 in UTC"],
    ["9999-12-31T23:59:59-14:00", "expected an instant from year 0000 to 9999 in UTC"],
    ["9999-12-31T23:59:59.999999999-00:01", "expected an instant from year 0000 to 9999 in UTC"],
    ["2016-12-31T23:59:60Z", "expected an RFC 3339 date-time"],
  ])("has no key for %s: %s", (text, problem) => {
    expect(instantKeyProblem(text)).toBe(problem);
    expect(() => instantKey(text)).toThrow(problem);
  });

  it("sorts as the instants do, whatever offset or precision they were written with", () => {
    const keyable = validDateTime.filter((text) => instantKeyProblem(text) === undefined);
    fc.assert(
      fc.property(keyable, keyable, (a, b) => {
        const [ka, kb] = [instantKey(a), instantKey(b)];
        expect(ka === kb ? 0 : ka < kb ? -1 : 1).toBe(compareExactly(a, b));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("ceilingKey", () => {
  it.each([
    ["2024-05-01T09:30:00Z", "2024-05-01T09:30:00.000000000Z"],
    ["2024-05-01T09:30:00.0000000001Z", "2024-05-01T09:30:00.000000001Z"],
    ["2024-05-01T09:30:00.1234567890000Z", "2024-05-01T09:30:00.123456789Z"],
    ["2024-05-01T09:30:00.123456789000000000000000001Z", "2024-05-01T09:30:00.123456790Z"],
    ["2024-12-31T23:59:59.9999999991+00:00", "2025-01-01T00:00:00.000000000Z"],
    ["0000-01-01T00:00:00+14:00", MIN_INSTANT_KEY],
    ["0000-01-01T13:59:59.999999999+14:00", MIN_INSTANT_KEY],
    ["0000-01-01T14:00:00.0000000001+14:00", "0000-01-01T00:00:00.000000001Z"],
    ["9999-12-31T23:59:59.999999999Z", MAX_INSTANT_KEY],
    ["9999-12-31T23:59:59.9999999990Z", MAX_INSTANT_KEY],
  ])("rounds %s up to %s", (text, key) => {
    expect(ceilingKey(text)).toBe(key);
  });

  it.each([
    "9999-12-31T23:59:59.9999999991Z",
    "9999-12-31T23:59:59-14:00",
    "9999-12-31T23:59:59.999999999-00:01",
  ])("has no key for %s, after every instant key", (text) => {
    expect(ceilingKey(text)).toBeUndefined();
  });

  it("keeps a bound's meaning for every stored instant: t >= x iff key(t) >= ceiling(x), t < x iff key(t) < ceiling(x)", () => {
    const stored = validDateTime.filter((text) => instantKeyProblem(text) === undefined);
    fc.assert(
      fc.property(stored, validDateTime, (t, x) => {
        const key = instantKey(t);
        const ceiling = ceilingKey(x);
        const atOrAfter = compareExactly(t, x) >= 0;
        // No ceiling: x is after every key, so no stored instant is at or after it.
        expect(ceiling === undefined ? false : key >= ceiling).toBe(atOrAfter);
        expect(ceiling === undefined ? true : key < ceiling).toBe(!atOrAfter);
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps it for bounds a hair after a stored instant: its text with more digits", () => {
    const stored = validDateTime.filter((text) => instantKeyProblem(text) === undefined);
    const more = fc.array(fc.constantFrom("0", "0", "1", "9"), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(stored, more, (t, extra) => {
        const x = t.replace(/(:\d\d)(?:\.(\d+))?(?=Z|[+-])/, (_, seconds, fraction = "") => {
          return `${seconds}.${fraction.padEnd(9, "0")}${extra.join("")}`;
        });
        const ceiling = ceilingKey(x);
        expect(ceiling !== undefined && instantKey(t) >= ceiling).toBe(compareExactly(t, x) >= 0);
      }),
      { numRuns: 1000 },
    );
  });

  it("rounds up the bounds next to a stored instant, so inclusive and exclusive still hold", () => {
    const stored = "2024-05-01T09:30:00.123456789Z";
    const key = instantKey(stored);
    for (const [bound, atOrAfter] of [
      ["2024-05-01T09:30:00.1234567889Z", true],
      ["2024-05-01T09:30:00.1234567890Z", true],
      ["2024-05-01T09:30:00.1234567891Z", false],
    ] as const) {
      expect(key >= (ceilingKey(bound) ?? "")).toBe(atOrAfter);
      expect(compareExactly(stored, bound) >= 0).toBe(atOrAfter);
    }
  });

  it("throws for text the schemas refuse (they run first)", () => {
    expect(() => ceilingKey("2016-12-31T23:59:60Z")).toThrow("not an RFC 3339 date-time");
  });
});
