/**
 * Instants, the one parser of the date-times the service compares: stored `createdAt` and the
 * searches' `createdFrom` / `createdBefore`. An instant key is a sortable text form: UTC,
 * nanosecond digits always present (`2024-05-01T07:30:00.000000000Z`). Sorting these strings sorts
 * by instant whatever offset or precision the source used, which plain ISO text does not
 * (`10:00+02:00` is before `09:00Z`). Keys cover UTC years 0000 to 9999 (their four-digit year).
 *
 * Accepted text is exactly what Zod's `iso.datetime({ offset: true })` accepts: a real calendar
 * date, `T`, hours 00-23, minutes and seconds 00-59 (no leap second), any number of fractional
 * digits, `Z` or an offset `±hh:mm` (hours 00-23). docs/decisions.md says why.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** A date-time to the nanosecond: whole seconds since the epoch (UTC) and nanoseconds after them. */
export interface Instant {
  seconds: number;
  nanos: number;
  /** False when digits finer than a nanosecond were not all 0: the instant was rounded up to `seconds`.`nanos`. */
  exact: boolean;
}

export const MIN_INSTANT_KEY = "0000-01-01T00:00:00.000000000Z";
export const MAX_INSTANT_KEY = "9999-12-31T23:59:59.999999999Z";
const MIN_SECONDS = -62_167_219_200; // 0000-01-01T00:00:00Z
const MAX_SECONDS = 253_402_300_799; // 9999-12-31T23:59:59Z

/** Seconds since the epoch of a UTC calendar date, or undefined when the date does not exist. */
function daySeconds(year: number, month: number, day: number): number | undefined {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, takes years 0-99 as written.
  date.setUTCFullYear(year, month - 1, day);
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? date.getTime() / 1000 : undefined;
}

/**
 * The instant a date-time names, rounded up to the nanosecond when it has more than 9 fractional
 * digits; undefined when the text is not an accepted date-time. Any year 0000-9999 as written: the
 * offset may move the instant just outside the instant keys' range (see `instantKeyProblem`).
 */
export function parseInstant(dateTime: string): Instant | undefined {
  const match = DATE_TIME.exec(dateTime);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = "", sign, offsetHours, offsetMinutes] = match;
  const [h, m, s] = [Number(hour), Number(minute), Number(second)];
  const [oh, om] = [Number(offsetHours ?? 0), Number(offsetMinutes ?? 0)];
  if (h > 23 || m > 59 || s > 59 || oh > 23 || om > 59) return undefined;
  const date = daySeconds(Number(year), Number(month), Number(day));
  if (date === undefined) return undefined;
  const offset = (sign === "-" ? -1 : 1) * (oh * 3600 + om * 60);
  let seconds = date + h * 3600 + m * 60 + s - offset;
  let nanos = Number(fraction.slice(0, 9).padEnd(9, "0"));
  const exact = !/[1-9]/.test(fraction.slice(9));
  if (!exact) nanos += 1;
  if (nanos === 1_000_000_000) [seconds, nanos] = [seconds + 1, 0];
  return { seconds, nanos, exact };
}

function keyOf({ seconds, nanos }: Instant): string {
  const whole = new Date(seconds * 1000).toISOString().slice(0, 19);
  return `${whole}.${String(nanos).padStart(9, "0")}Z`;
}

const inKeyRange = ({ seconds }: Instant) => seconds >= MIN_SECONDS && seconds <= MAX_SECONDS;

function problemOf(instant: Instant | undefined): string | undefined {
  if (!instant) return "expected an RFC 3339 date-time";
  if (!instant.exact) return "expected at most 9 fractional digits (instants are kept to the nanosecond)";
  if (!inKeyRange(instant)) return "expected an instant from year 0000 to 9999 in UTC";
  return undefined;
}

/** Why a stored date-time cannot be an instant key (a rule, worded for a data file message), or undefined. */
export function instantKeyProblem(dateTime: string): string | undefined {
  return problemOf(parseInstant(dateTime));
}

/** The instant key of a stored date-time; throws unless `instantKeyProblem` finds none (the data file is checked on load). */
export function instantKey(dateTime: string): string {
  // Parsed once: a load derives the order key of every record it writes, several times.
  const instant = parseInstant(dateTime);
  const problem = problemOf(instant);
  if (problem !== undefined) throw new Error(`not an instant key's date-time: ${problem}`);
  return keyOf(instant as Instant);
}

/**
 * The least instant key at or after a date-time (any the parser accepts): its instant rounded up
 * to the nanosecond, or MIN_INSTANT_KEY for an instant before year 0000 (UTC); undefined for an
 * instant after MAX_INSTANT_KEY. Rounding up keeps a bound's meaning for every nanosecond instant
 * t: t ≥ x ⇔ t ≥ ceil(x), and t < x ⇔ t < ceil(x). Throws for text the parser refuses.
 */
export function ceilingKey(dateTime: string): string | undefined {
  const instant = parseInstant(dateTime);
  if (!instant) throw new Error("not an RFC 3339 date-time");
  if (instant.seconds < MIN_SECONDS) return MIN_INSTANT_KEY;
  if (instant.seconds > MAX_SECONDS) return undefined;
  return keyOf(instant);
}
