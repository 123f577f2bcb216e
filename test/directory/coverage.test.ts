import { calendarDate, selectCoverage, utcDate } from "../../lib/directory/coverage.js";
import type { SourceCoverage } from "../../lib/directory/source.js";
import type { CoverageStatus } from "../../lib/directory/vocabulary.js";

const AS_OF = new Date("2025-06-15T12:00:00Z");
const c = (
  status: CoverageStatus,
  startsAt: string,
  endsAt: string | null,
  planTier = "family",
): SourceCoverage => ({
  status,
  startsAt,
  endsAt,
  planTier,
});

describe("calendarDate", () => {
  it.each([
    ["2025-03-01", "2025-03-01"],
    ["2025-03-01T00:30:00+09:00", "2025-03-01"], // not shifted to UTC (which would be 02-28)
    ["2025-02-28T23:30:00-05:00", "2025-02-28"], // not shifted to UTC (which would be 03-01)
    ["2025-12-31T23:59:59.999Z", "2025-12-31"],
  ])("%s → %s", (value, expected) => {
    expect(calendarDate(value)).toBe(expected);
  });

  it("takes the UTC date of asOf", () => {
    expect(utcDate(new Date("2025-06-15T23:30:00-05:00"))).toBe("2025-06-16");
  });
});

describe("selectCoverage", () => {
  it("returns null when there are no records", () => {
    expect(selectCoverage([], AS_OF)).toBeNull();
  });

  it("returns the API form: dates as YYYY-MM-DD, no program", () => {
    const coverage = {
      ...c("enrolled", "2025-01-01T00:00:00-05:00", "2025-12-31T23:59:59+14:00"),
      program: "dental",
    };
    expect(selectCoverage([coverage], AS_OF)).toEqual({
      status: "enrolled",
      startsAt: "2025-01-01",
      endsAt: "2025-12-31",
      planTier: "family",
    });
  });

  it.each<[string, SourceCoverage[], Partial<SourceCoverage> & { index?: number }]>([
    // Current records: highest status rank wins over a later start.
    [
      "enrolled beats a later enrolled_not_paying",
      [c("enrolled_not_paying", "2025-05-01", null), c("enrolled", "2024-01-01", null)],
      { status: "enrolled" },
    ],
    [
      "enrolled_not_paying beats awaiting_coverage",
      [c("awaiting_coverage", "2025-06-01", null), c("enrolled_not_paying", "2024-01-01", null)],
      { status: "enrolled_not_paying" },
    ],
    [
      "awaiting_coverage beats waived",
      [c("waived", "2025-06-01", null), c("awaiting_coverage", "2024-01-01", null)],
      { status: "awaiting_coverage" },
    ],
    [
      "waived beats terminated",
      [c("terminated", "2025-06-01", null), c("waived", "2024-01-01", null)],
      { status: "waived" },
    ],
    [
      "a current terminated record beats a non-current enrolled one",
      [c("enrolled", "2025-07-01", null), c("terminated", "2024-01-01", "2025-12-31")],
      { status: "terminated" },
    ],
    // Same rank: latest start.
    [
      "same rank: the latest start",
      [c("enrolled", "2024-01-01", null, "old"), c("enrolled", "2025-01-01", null, "new")],
      { planTier: "new" },
    ],
    // Same rank and start: latest end, open-ended first, then source order.
    [
      "same rank and start: open-ended beats a dated end",
      [c("enrolled", "2025-01-01", "2025-12-31", "dated"), c("enrolled", "2025-01-01", null, "open")],
      { planTier: "open" },
    ],
    [
      "same rank and start: the later end",
      [
        c("enrolled", "2025-01-01", "2025-09-30", "sooner"),
        c("enrolled", "2025-01-01", "2025-12-31", "later"),
      ],
      { planTier: "later" },
    ],
    [
      "full tie: the first in source order",
      [c("enrolled", "2025-01-01", null, "first"), c("enrolled", "2025-01-01", null, "second")],
      { planTier: "first" },
    ],
    [
      "start tie at calendar-date level, whatever the time of day",
      [
        c("enrolled", "2025-01-01T00:00:00Z", null, "first"),
        c("enrolled", "2025-01-01T18:00:00Z", null, "second"),
      ],
      { planTier: "first" },
    ],
    // Period bounds: both inclusive, compared as calendar dates.
    [
      "starts on the asOf date: current",
      [c("terminated", "2020-01-01", "2020-12-31"), c("waived", "2025-06-15", null)],
      { status: "waived" },
    ],
    [
      "ends on the asOf date: still current (end inclusive)",
      [c("enrolled", "2025-06-16", null), c("waived", "2024-01-01", "2025-06-15")],
      { status: "waived" },
    ],
    [
      "ended the day before asOf: not current",
      [c("enrolled", "2024-01-01", "2025-06-14"), c("terminated", "2023-01-01", null)],
      { status: "terminated" },
    ],
    [
      "end written as a date-time late on the asOf date, with an offset: current",
      [c("enrolled", "2025-06-16", null), c("waived", "2024-01-01", "2025-06-15T23:00:00-10:00")],
      { status: "waived" },
    ],
    [
      "start written as a date-time of the day after asOf (UTC would be asOf): not current",
      [c("enrolled", "2025-06-16T01:00:00+09:00", null), c("terminated", "2025-01-01", null)],
      { status: "terminated" },
    ],
    // None current: the latest start, whatever the status.
    [
      "none current: the latest start (a future one)",
      [c("enrolled", "2023-01-01", "2023-12-31"), c("awaiting_coverage", "2025-09-01", null)],
      { status: "awaiting_coverage" },
    ],
    [
      "none current: the latest start (all ended)",
      [
        c("enrolled", "2022-01-01", "2022-12-31", "2022"),
        c("terminated", "2023-01-01", "2023-12-31", "2023"),
      ],
      { planTier: "2023" },
    ],
    [
      "none current, same start: the better rank",
      [c("terminated", "2023-01-01", "2023-12-31", "a"), c("enrolled", "2023-01-01", "2023-06-30", "b")],
      { planTier: "b" },
    ],
    [
      "none current, same start and rank: the later end",
      [c("enrolled", "2023-01-01", "2023-06-30", "a"), c("enrolled", "2023-01-01", "2023-12-31", "b")],
      { planTier: "b" },
    ],
    [
      "none current, full tie: the first in source order",
      [c("waived", "2026-01-01", null, "a"), c("waived", "2026-01-01", null, "b")],
      { planTier: "a" },
    ],
    [
      "a period ending before it starts is never current",
      [
        c("enrolled", "2025-06-20", "2025-06-10", "backwards"),
        c("terminated", "2020-01-01", null, "current"),
      ],
      { planTier: "current" },
    ],
    [
      "the only record, not current, is returned",
      [c("terminated", "2020-01-01", "2020-12-31", "only")],
      { planTier: "only" },
    ],
  ])("%s", (_name, coverages, expected) => {
    const chosen = selectCoverage(coverages, AS_OF);
    expect(chosen).toMatchObject(expected);
    // The result does not depend on the order the records are given in, except for full ties.
    if (!_name.includes("full tie") && !_name.includes("whatever the time")) {
      expect(selectCoverage([...coverages].reverse(), AS_OF)).toEqual(chosen);
    }
  });
});
