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
 * The distinct runs of `size` code points of a normalized name or fragment, in order (none when it
 * is shorter). A name holds a fragment as a substring only if it holds every such run of it, which
 * is what a trigram index relies on (lib/store/dynamo/structures/name-grams.ts); a fragment of exactly `size`
 * is its one run. Code points, not UTF-16 units: `😀ab` is one trigram.
 */
export function gramsOfSize(normalized: string, size: number): string[] {
  const points = [...normalized];
  const found = new Set<string>();
  for (let i = 0; i + size <= points.length; i++) found.add(points.slice(i, i + size).join(""));
  return [...found];
}

/** The distinct runs of 3 code points (none below 3): `gramsOfSize(normalized, 3)`. */
export const trigramsOf = (normalized: string): string[] => gramsOfSize(normalized, 3);
