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

/**
 * The first string (value or field name) of `value` that is not well-formed Unicode, or undefined.
 * It runs on every record a load reads, so the path is one array, copied only when something is found.
 */
export function findIllFormedText(
  value: unknown,
  path: readonly (string | number)[] = [],
): IllFormedText | undefined {
  const at = [...path];
  const inFieldName = illFormedIn(value, at);
  return inFieldName === undefined ? undefined : { path: at, inFieldName };
}

/** Whether `value` holds ill-formed text: undefined when not, else whether a field name is it. */
function illFormedIn(value: unknown, at: (string | number)[]): boolean | undefined {
  if (typeof value === "string") return value.isWellFormed() ? undefined : false;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, item] of entriesOf(value)) {
    if (typeof key === "string" && !key.isWellFormed()) return true;
    at.push(key);
    const found = illFormedIn(item, at);
    if (found !== undefined) return found;
    at.pop();
  }
  return undefined;
}

/** An array's items by index, an object's values by key. */
export const entriesOf = (value: object): [string | number, unknown][] =>
  Array.isArray(value) ? [...value.entries()] : Object.entries(value);
