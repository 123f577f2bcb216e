/**
 * The scale profile's keys: one company, 50 companies and every company. The one is the
 * largest; the 50 sit at ranks spread evenly through the size distribution, from the largest to the
 * smallest, so the key reads huge, middling and tiny companies alike, and every key reads the
 * largest company (its employees queries run under any of them).
 */
/** The keys' sizes short of every company. */
const KEY_SIZES = [1, 50] as const;

/** Company ids by record count (recordsPerCompany), largest first, ties by id; an absent company counts 0. */
export function companiesBySize(
  companyIds: readonly string[],
  recordCounts: ReadonlyMap<string, number>,
): string[] {
  const count = (id: string) => recordCounts.get(id) ?? 0;
  return [...companyIds].sort((a, b) => count(b) - count(a) || (a < b ? -1 : 1));
}

/** `count` items of `ranked`, at ranks spread evenly from the first to the last (all when fewer). */
export function spreadRanks<T>(ranked: readonly T[], count: number): T[] {
  if (count >= ranked.length) return [...ranked];
  if (count <= 1) return ranked.slice(0, count);
  // The step is at least 1, so rounding never picks a rank twice.
  const step = (ranked.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => ranked[Math.round(i * step)] as T);
}

/**
 * The keys' companies, smallest key first: 1, 50 and all of `ranked` (largest first). A size the
 * directory cannot fill (50 of 30 companies) is the every-company key, listed once.
 */
export function scaleKeys(ranked: readonly string[]): string[][] {
  const keys = KEY_SIZES.filter((size) => size < ranked.length).map((size) => spreadRanks(ranked, size));
  return [...keys, [...ranked]];
}
