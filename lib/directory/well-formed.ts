/**
 * Refusal of text that is not well-formed Unicode. A lone surrogate (`"\uD800"` in JSON) has no
 * UTF-8 form: stored, it would turn into U+FFFD, and the directory would no longer hold what the
 * file said. The loader refuses the record instead, naming the field, never quoting the text.
 */

/** Where the first ill-formed text of a value is: a string's path, or the object whose field name is. */
export interface IllFormedText {
  readonly path: (string | number)[];
  /** True when a field name, not a value, is ill-formed (`path` is then the object holding it). */
  readonly inFieldName: boolean;
}

/** The first string (value or field name) of `value` that is not well-formed Unicode, or undefined. */
export function findIllFormedText(
  value: unknown,
  path: readonly (string | number)[] = [],
): IllFormedText | undefined {
  if (typeof value === "string")
    return value.isWellFormed() ? undefined : { path: [...path], inFieldName: false };
  for (const [key, item] of childrenOf(value)) {
    if (typeof key === "string" && !key.isWellFormed()) return { path: [...path], inFieldName: true };
    const found = findIllFormedText(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** An array's items by index, an object's values by key; else none. */
function childrenOf(value: unknown): [string | number, unknown][] {
  if (Array.isArray(value)) return [...value.entries()];
  if (value !== null && typeof value === "object") return Object.entries(value);
  return [];
}
