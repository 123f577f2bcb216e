/**
 * Which of an employee's coverage records the API returns, and in what form.
 *
 * Everything here works on calendar dates. A stored `startsAt`/`endsAt` may be a date or a
 * date-time; its calendar date is the `YYYY-MM-DD` written at its start, not shifted to any time
 * zone (`2024-03-01T00:30:00+09:00` is 2024-03-01). The `asOf` instant's date is its UTC date.
 */
import type { ApiCoverage } from "./api-schema.js";
import type { SourceCoverage } from "./source.js";
import { COVERAGE_STATUSES } from "./vocabulary.js";

/** The calendar date of a date or RFC 3339 date-time, as written. */
export function calendarDate(value: string): string {
  return value.slice(0, 10);
}

/** The UTC calendar date of an instant. */
export function utcDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

interface Candidate {
  readonly index: number;
  readonly rank: number;
  readonly start: string;
  readonly end: string | null;
  readonly coverage: SourceCoverage;
}

/** Both bounds inclusive: a period ending 2024-12-31 still covers 2024-12-31. */
function contains(candidate: Candidate, day: string): boolean {
  return candidate.start <= day && (candidate.end === null || day <= candidate.end);
}

/** Negative when `a` is preferred. YYYY-MM-DD strings compare correctly as plain strings. */
const byRank = (a: Candidate, b: Candidate) => a.rank - b.rank;
const byLatestStart = (a: Candidate, b: Candidate) => (a.start === b.start ? 0 : a.start > b.start ? -1 : 1);
/** An open period (no end) counts as ending last. */
const byLatestEnd = (a: Candidate, b: Candidate) =>
  a.end === b.end ? 0 : a.end === null ? -1 : b.end === null ? 1 : a.end > b.end ? -1 : 1;
/** Final tie-break: the earlier record in the source `coverages` array. */
const bySourceOrder = (a: Candidate, b: Candidate) => a.index - b.index;

function best(
  candidates: Candidate[],
  order: ((a: Candidate, b: Candidate) => number)[],
): Candidate | undefined {
  const compare = (a: Candidate, b: Candidate) => {
    for (const step of order) {
      const result = step(a, b);
      if (result !== 0) return result;
    }
    return 0;
  };
  return candidates.reduce<Candidate | undefined>(
    (chosen, c) => (chosen === undefined || compare(c, chosen) < 0 ? c : chosen),
    undefined,
  );
}

/**
 * Among records whose period contains the `asOf` date: best status rank (enrolled >
 * enrolled_not_paying > awaiting_coverage > waived > terminated), then latest start. If none is
 * current: the latest start, then best rank. Remaining ties: the latest end (open-ended first),
 * then source order. `null` when there are no records.
 */
export function selectCoverage(coverages: readonly SourceCoverage[], asOf: Date): ApiCoverage | null {
  const day = utcDate(asOf);
  const candidates: Candidate[] = coverages.map((coverage, index) => ({
    index,
    rank: COVERAGE_STATUSES.indexOf(coverage.status),
    start: calendarDate(coverage.startsAt),
    end: coverage.endsAt === null ? null : calendarDate(coverage.endsAt),
    coverage,
  }));
  const current = candidates.filter((c) => contains(c, day));
  const chosen =
    current.length > 0
      ? best(current, [byRank, byLatestStart, byLatestEnd, bySourceOrder])
      : best(candidates, [byLatestStart, byRank, byLatestEnd, bySourceOrder]);
  if (chosen === undefined) return null;
  return {
    status: chosen.coverage.status,
    startsAt: chosen.start,
    endsAt: chosen.end,
    planTier: chosen.coverage.planTier,
  };
}
