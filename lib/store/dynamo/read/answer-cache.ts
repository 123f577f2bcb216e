/**
 * Answers kept by generation, so that a company searched again and again in one warm process costs
 * the manifest's read a second and nothing else (the scale benchmark's hot company).
 *
 * Every stored version is immutable, and a reader at generation G sees exactly one state of the
 * directory: an answer read at G is G's answer for ever. An entry therefore never goes stale; it is
 * only no longer asked for once the manifest names a newer generation. The cache has no time-to-live
 * of its own: how soon a load reaches searches is the manifest's cache (`manifestTtlMs`), as without
 * it.
 *
 * - **Key**: the generation and `queryKey`, a canonical encoding of the whole query (the route, every
 *   field, sets sorted). Two queries that differ in anything (the companies searched or those the key
 *   may read above all) never share an entry, so an entry holds nothing its own question may not see.
 * - **Bound**: answers are kept least recently used first out, within `maxBytes` of their approximate
 *   size (`approximateBytes`); an answer larger than the whole bound is not kept. Seeing a newer
 *   generation drops every answer kept, since they are all older.
 * - **One read for identical questions at once**: the answer in flight is shared. A rejection, or an
 *   answer its reader did not accept (`undefined`), is never kept.
 * - **Frozen**: callers share one object per entry, so every answer is deep-frozen before anyone gets
 *   it. The use cases only read answers (`lib/directory/derive.ts` copies what it returns), but the
 *   port is open to any caller, and one that sorted `items` in place or edited a record would
 *   silently corrupt every later answer of that query; frozen, the same edit throws at once (modules
 *   are strict). Freezing costs one walk when an answer is kept (the same walk that sizes it);
 *   copying instead would cost a whole page on every hit, which is what the cache is there to save.
 */

/** The default bound: a small share of a route function's 1,024 MB. */
export const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;

/** Bytes of an entry besides its answer: the map's slot, the entry object, the key's header. */
const ENTRY_OVERHEAD = 64;

export interface AnswerCache {
  /**
   * The answer to `key` at generation `gen`: the one kept, the one being read, or `ask()`'s. `ask`
   * resolves `undefined` when its answer does not hold at `gen` (the generation moved during the
   * read): that is passed on and not kept, nor is a rejection.
   */
  answer<T extends object>(
    gen: number,
    key: string,
    ask: () => Promise<T | undefined>,
  ): Promise<T | undefined>;
  /** What is kept now: answers and their approximate bytes (keys included). */
  stats(): { readonly answers: number; readonly bytes: number };
}

/**
 * The approximate bytes `value` takes on V8's heap, and `value` deep-frozen: 16 bytes of header
 * for each string, object and array, 8 a property or element, 8 a number, boolean or null, a byte
 * a character. On the demo's
 * records and persons this comes within 10% of the heap they take (measured with `--expose-gc`:
 * 1.47 times their JSON, the estimate 1.48 times).
 */
export function approximateBytes(value: unknown): number {
  if (typeof value === "string") return 16 + value.length;
  if (value === null || typeof value !== "object") return 8;
  if (ArrayBuffer.isView(value)) return 16 + value.byteLength;
  const values: unknown[] = Array.isArray(value) ? value : Object.values(value);
  Object.freeze(value);
  let bytes = 16 + 8 * values.length;
  for (const inner of values) bytes += approximateBytes(inner);
  return bytes;
}

/**
 * `value` as text, equal for equal values and different for different ones: object keys sorted,
 * undefined properties left out (the port reads them as absent), sets as their sorted elements
 * (`set[…]`, which no JSON value starts like). A value it has no rule for (a Map, a function…) is
 * refused rather than encoded loosely.
 */
function canonical(value: unknown): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Object.is(value, -0) ? "0" : String(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value instanceof Set) return `set[${[...value].map(canonical).sort().join(",")}]`;
  if (typeof value === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const fields = Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, inner]) => `${JSON.stringify(name)}:${canonical(inner)}`);
    return `{${fields.join(",")}}`;
  }
  throw new Error(`a query field the answer cache cannot key: ${Object.prototype.toString.call(value)}`);
}

/** The cache key of a route's query: every field of it, so different questions never share an answer. */
export const queryKey = (route: string, query: object): string => `${route} ${canonical(query)}`;

export function answerCache(maxBytes: number): AnswerCache {
  /** In order of use, least recent first (a Map iterates in insertion order). */
  const kept = new Map<string, { readonly value: object; readonly bytes: number }>();
  const inFlight = new Map<string, Promise<object | undefined>>();
  let newest = Number.NEGATIVE_INFINITY;
  let bytes = 0;

  const keep = (key: string, value: object, size: number) => {
    if (size > maxBytes) return;
    kept.set(key, { value, bytes: size });
    bytes += size;
    for (const [oldest, entry] of kept) {
      if (bytes <= maxBytes) break;
      kept.delete(oldest);
      bytes -= entry.bytes;
    }
  };

  const answer = (gen: number, key: string, ask: () => Promise<object | undefined>) => {
    if (gen > newest) {
      newest = gen;
      kept.clear();
      bytes = 0;
    }
    const at = `${gen} ${key}`;
    const hit = kept.get(at);
    if (hit) {
      kept.delete(at);
      kept.set(at, hit);
      return Promise.resolve(hit.value);
    }
    const flying = inFlight.get(at);
    if (flying) return flying;
    const reading = ask()
      .then((value) => {
        if (value === undefined) return undefined;
        const size = approximateBytes(value) + approximateBytes(at) + ENTRY_OVERHEAD;
        // A newer generation was seen meanwhile: this one is no longer asked for.
        if (gen === newest) keep(at, value, size);
        return value;
      })
      .finally(() => inFlight.delete(at));
    inFlight.set(at, reading);
    return reading;
  };

  return {
    answer: answer as AnswerCache["answer"],
    stats: () => ({ answers: kept.size, bytes }),
  };
}
