/**
 * RFC 3339 date-times for property tests: valid ones (every year, offset and precision, the edges
 * often), near misses, and an exact comparison that does not use the service's parser.
 */
import fc from "fast-check";

/**
 * An exact comparison, independent of the parser: whole seconds from Date.parse (the text without
 * its fraction), then the fractions as digit strings padded to one length.
 */
export function compareExactly(a: string, b: string): number {
  const whole = (text: string) => Date.parse(text.replace(/\.\d+/, "")) / 1000;
  const fraction = (text: string) => /\.(\d+)/.exec(text)?.[1] ?? "";
  if (whole(a) !== whole(b)) return whole(a) < whole(b) ? -1 : 1;
  const width = Math.max(fraction(a).length, fraction(b).length);
  const [fa, fb] = [fraction(a).padEnd(width, "0"), fraction(b).padEnd(width, "0")];
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

const digitString = (min: number, max: number) =>
  fc.array(fc.constantFrom(..."0123456789"), { minLength: min, maxLength: max }).map((d) => d.join(""));
const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, "0"));

/** Valid date-times: any year (the edges often), any offset, 0 to 15 fractional digits. */
export const validDateTime: fc.Arbitrary<string> = fc
  .record({
    year: fc.oneof(
      fc.constantFrom(0, 1, 99, 1970, 2000, 2024, 9998, 9999),
      fc.integer({ min: 0, max: 9999 }),
    ),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    time: fc.tuple(two(23), two(59), two(59)),
    fraction: fc.option(digitString(1, 15), { nil: undefined }),
    offset: fc.oneof(
      fc.constant("Z"),
      fc.tuple(fc.constantFrom("+", "-"), two(23), two(59)).map(([s, h, m]) => `${s}${h}:${m}`),
      fc.constantFrom("+14:00", "-14:00", "+23:59", "-23:59", "-00:00"),
    ),
  })
  .map(({ year, month, day, time, fraction, offset }) => {
    const last = new Date(Date.UTC(2000 + (year % 400), month, 0)).getUTCDate(); // same leap years
    const date = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(Math.min(day, last)).padStart(2, "0")}`;
    return `${date}T${time.join(":")}${fraction === undefined ? "" : `.${fraction}`}${offset}`;
  });

/** Near misses and valid ones alike: each part in or just out of its range, lower case, other separators. */
export const candidateDateTime: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(digitString(4, 4), fc.constantFrom("0000", "9999", "+2024", "202")),
    two(13),
    two(32),
    fc.constantFrom("T", "t", " "),
    two(25),
    two(61),
    two(61),
    fc.constantFrom("", ".", ".5", ".123456789", ".1234567891", ".000000000000"),
    fc.constantFrom("Z", "z", "+00:00", "-00:00", "+14:00", "+23:59", "+24:00", "+02:60", "+0200", "+02", ""),
  )
  .map(([y, mo, d, t, h, mi, s, f, o]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${o}`);

/** The date-time a tenth of a nanosecond later: its fraction padded to 9 digits, then a 1. */
export function tenthOfANanosecondAfter(dateTime: string): string {
  return dateTime.replace(
    /(:\d\d)(?:\.(\d+))?(?=Z|[+-]\d\d:\d\d$)/,
    (_, seconds: string, fraction = "") => `${seconds}.${fraction.padEnd(9, "0")}1`,
  );
}
