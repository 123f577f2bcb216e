/**
 * Name normalization. Names match as a case-insensitive substring after Unicode NFKC and
 * lower-casing (`namesMatch`, lib/search/matching.ts), so `ﬁ` (ligature) matches `fi`, full-width
 * `Ｓａｒａ` matches `sara`, and `É` matches `é`. No other folding: `ß` does not match `ss`, `é`
 * does not match `e`. The query is matched as typed, spaces included.
 */

/**
 * The longest first or last name, in UTF-8 bytes after NFKC and lower-casing (how the directory
 * stores it for matching; the store encodes a name's length in two bytes). Here, not in source.ts,
 * so that the store (in every search Lambda) does not pull classic Zod into its bundle.
 */
export const MAX_NAME_BYTES = 65_534;

/** NFKC first, then lower-case: NFKC can produce capitals (`ᴬ` → `A`), lower-casing cannot undo that. */
export function normalizeName(value: string): string {
  return value.normalize("NFKC").toLowerCase();
}

/**
 * The distinct runs of 3 code points of a normalized name or fragment, in order (none below 3).
 * A name holds a fragment as a substring only if it holds every trigram of it, which is what a
 * trigram index relies on (lib/store/dynamo/name-grams.ts). Code points, not UTF-16 units: `😀ab`
 * is one trigram.
 */
export function trigramsOf(normalized: string): string[] {
  const points = [...normalized];
  const found = new Set<string>();
  for (let i = 0; i + 3 <= points.length; i++) found.add(points.slice(i, i + 3).join(""));
  return [...found];
}
