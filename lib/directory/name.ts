/**
 * Name matching: case-insensitive substring after Unicode NFKC and lower-casing, so `ﬁ` (ligature)
 * matches `fi`, full-width `Ｓａｒａ` matches `sara`, and `É` matches `é`. No other folding: `ß`
 * does not match `ss`, `é` does not match `e`. The query is matched as typed, spaces included.
 */

/** NFKC first, then lower-case: NFKC can produce capitals (`ᴬ` → `A`), lower-casing cannot undo that. */
export function normalizeName(value: string): string {
  return value.normalize("NFKC").toLowerCase();
}

/**
 * Whether `query` occurs in the stored name. A `null` name never matches. An empty query matches
 * every non-null name; the search routes refuse an empty name filter before getting here.
 */
export function nameMatches(stored: string | null, query: string): boolean {
  if (stored === null) return false;
  return normalizeName(stored).includes(normalizeName(query));
}
