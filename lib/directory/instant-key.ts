/**
 * A sortable text form of an RFC 3339 date-time: UTC, nanosecond digits always present. Sorting
 * these strings sorts by instant whatever offset or precision the source used, which plain ISO
 * text does not (`10:00+02:00` is before `09:00Z`).
 */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;

export function instantKey(dateTime: string): string {
  const match = DATE_TIME.exec(dateTime);
  if (!match?.[1] || !match[3]) throw new Error(`not an RFC 3339 date-time: ${dateTime}`);
  const wholeSeconds = Date.parse(`${match[1]}${match[3].toUpperCase()}`);
  if (Number.isNaN(wholeSeconds)) throw new Error(`not an RFC 3339 date-time: ${dateTime}`);
  const utc = new Date(wholeSeconds).toISOString().slice(0, 19);
  return `${utc}.${(match[2] ?? "").padEnd(9, "0")}Z`;
}
