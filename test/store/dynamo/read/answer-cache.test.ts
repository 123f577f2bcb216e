/**
 * The answer cache on its own: keys that tell every query apart, the bound, generations, shared
 * reads, and what is never kept. The reader's use of it, on both engines:
 * reader-cache.integration.test.ts.
 */
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { answerCache, approximateBytes, queryKey } from "../../../../lib/store/dynamo/read/answer-cache.js";
import type { EmployeesQuery, PersonsQuery } from "../../../../lib/store/port.js";

/** An answer of about `chars` characters, and a counter of how often it was read. */
function reads(chars = 100) {
  const asked: string[] = [];
  const ask = (name: string) => () => {
    asked.push(name);
    return Promise.resolve({ name, text: "x".repeat(chars) });
  };
  return { asked, ask };
}

const BASE: PersonsQuery = {
  filter: { companies: new Set(["acme", "beta"]) },
  readable: new Set(["acme", "beta"]),
  created: {},
  offset: 0,
  limit: 50,
};

describe("queryKey", () => {
  it("is the same for the same query, whatever the order of its sets and fields", () => {
    const shuffled: PersonsQuery = {
      limit: 50,
      offset: 0,
      created: {},
      readable: new Set(["beta", "acme"]),
      filter: { companies: new Set(["beta", "acme"]) },
      personId: undefined,
    };
    expect(queryKey("persons", shuffled)).toBe(queryKey("persons", BASE));
  });

  it("differs with the route, and with each field of the query", () => {
    const variants: PersonsQuery[] = [
      { ...BASE, filter: { companies: new Set(["acme"]) } },
      { ...BASE, filter: { companies: new Set(["acme", "beta", "gamma"]) } },
      { ...BASE, readable: new Set(["acme"]) },
      { ...BASE, readable: new Set(["acme", "beta", "gamma"]) },
      { ...BASE, readable: new Set() },
      { ...BASE, filter: { ...BASE.filter, firstName: "ann" } },
      { ...BASE, filter: { ...BASE.filter, lastName: "ann" } },
      { ...BASE, filter: { ...BASE.filter, phone: "7135557808" } },
      { ...BASE, personId: "00237009-9406-4bb5-92ef-5f634f0fc0dc" },
      { ...BASE, created: { from: "a" } },
      { ...BASE, created: { before: "a" } },
      { ...BASE, offset: 50 },
      { ...BASE, limit: 49 },
    ];
    const keys = [
      queryKey("persons", BASE),
      queryKey("employees", BASE),
      ...variants.map((q) => queryKey("persons", q)),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("keeps a set's members apart: no join of company ids looks like another", () => {
    const of = (...companies: string[]) =>
      queryKey("employees", { ...BASE, readable: undefined, filter: { companies: new Set(companies) } });
    expect(of("a,b")).not.toBe(of("a", "b"));
    expect(of('a","b')).not.toBe(of("a", "b"));
    expect(of("")).not.toBe(of());
  });

  it("is equal for two queries exactly when they are (sets as sets)", () => {
    const companies = fc.uniqueArray(fc.constantFrom("a", "b", "a,b", "c", ""), { maxLength: 3 });
    const query = fc
      .record(
        {
          filter: fc.record(
            { companies, firstName: fc.constantFrom("ann", "an"), phone: fc.constantFrom("7135557808") },
            { requiredKeys: ["companies"], noNullPrototype: true },
          ),
          readable: companies,
          personId: fc.constantFrom("p1", "p2"),
          created: fc.record(
            { from: fc.constantFrom("1", "2"), before: fc.constantFrom("3") },
            { requiredKeys: [], noNullPrototype: true },
          ),
          offset: fc.integer({ min: 0, max: 2 }),
          limit: fc.integer({ min: 1, max: 2 }),
        },
        { requiredKeys: ["filter", "readable", "created", "offset", "limit"], noNullPrototype: true },
      )
      .map((q) => ({
        ...q,
        filter: { ...q.filter, companies: new Set(q.filter.companies) },
        readable: new Set(q.readable),
      }));
    /** The same query built again: sets and fields in the reverse order. */
    const rebuilt = (q: object): object => {
      if (q instanceof Set) return new Set([...q].reverse());
      if (typeof q !== "object" || q === null) return q;
      return Object.fromEntries(
        Object.entries(q)
          .reverse()
          .map(([name, value]) => [name, rebuilt(value)]),
      );
    };
    fc.assert(
      fc.property(query, query, fc.boolean(), (a, other, same) => {
        const b = same ? rebuilt(a) : other;
        expect(queryKey("persons", a) === queryKey("persons", b)).toBe(isDeepStrictEqual(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses a field it has no rule for rather than keying it loosely", () => {
    const odd = { ...BASE, created: new Map() } as unknown as EmployeesQuery;
    expect(() => queryKey("employees", odd)).toThrow(/cannot key/);
  });
});

describe("approximateBytes", () => {
  it("counts strings by their length, and containers by their slots", () => {
    expect(approximateBytes("abcd")).toBe(20);
    expect(approximateBytes({ a: "abcd", b: 1, c: null })).toBe(16 + 3 * 8 + 20 + 8 + 8);
    expect(approximateBytes(["abcd", ["abcd"]])).toBe(16 + 2 * 8 + 20 + (16 + 8 + 20));
  });

  it("freezes what it measures, all the way down", () => {
    const answer = { items: [{ person: { id: "p" }, employments: [{ id: "e" }] }], total: 1 };
    approximateBytes(answer);
    expect(Object.isFrozen(answer)).toBe(true);
    expect(Object.isFrozen(answer.items)).toBe(true);
    expect(Object.isFrozen(answer.items[0]?.employments[0])).toBe(true);
    expect(() => (answer.items as unknown[]).push({})).toThrow(TypeError);
  });
});

describe("answerCache", () => {
  it("reads a question once per generation, and again at a newer one", async () => {
    const cache = answerCache(1_000_000);
    const { asked, ask } = reads();
    const first = await cache.answer(1, "q", ask("at 1"));
    expect(await cache.answer(1, "q", ask("at 1 again"))).toBe(first);
    expect(await cache.answer(2, "q", ask("at 2"))).toMatchObject({ name: "at 2" });
    expect(await cache.answer(2, "q", ask("at 2 again"))).toMatchObject({ name: "at 2" });
    expect(asked).toEqual(["at 1", "at 2"]);
  });

  it("drops every answer of older generations once a newer one is seen", async () => {
    const cache = answerCache(1_000_000);
    const { asked, ask } = reads();
    await cache.answer(1, "a", ask("a at 1"));
    await cache.answer(1, "b", ask("b at 1"));
    expect(cache.stats().answers).toBe(2);
    await cache.answer(2, "a", ask("a at 2"));
    expect(cache.stats().answers).toBe(1);
    // A search still at generation 1 (its manifest read before the flip) reads, and is not kept.
    expect(await cache.answer(1, "b", ask("b at 1, late"))).toMatchObject({ name: "b at 1, late" });
    expect(cache.stats().answers).toBe(1);
    expect(asked).toEqual(["a at 1", "b at 1", "a at 2", "b at 1, late"]);
  });

  it("does not keep an answer read at a generation older than one seen during its read", async () => {
    const cache = answerCache(1_000_000);
    let finish: (value: object) => void = () => undefined;
    const slow = cache.answer(1, "q", () => new Promise<object>((resolve) => (finish = resolve)));
    await cache.answer(2, "other", () => Promise.resolve({}));
    finish({ stale: true });
    await slow;
    expect(cache.stats().answers).toBe(1);
  });

  it("keeps within its bound, least recently used out first", async () => {
    const probe = answerCache(1_000_000);
    await probe.answer(1, "a", reads().ask("a"));
    const one = probe.stats().bytes;
    // Room for two answers of this size (same-length keys and names), not three.
    const cache = answerCache(Math.floor(2.5 * one));
    const { asked, ask } = reads();
    await cache.answer(1, "a", ask("a"));
    await cache.answer(1, "b", ask("b"));
    await cache.answer(1, "a", ask("a again")); // a is now the most recent
    await cache.answer(1, "c", ask("c")); // evicts b
    expect(cache.stats()).toEqual({ answers: 2, bytes: 2 * one });
    await cache.answer(1, "a", ask("a again"));
    await cache.answer(1, "c", ask("c again"));
    await cache.answer(1, "b", ask("b again"));
    expect(asked).toEqual(["a", "b", "c", "b again"]);
    expect(cache.stats().bytes).toBeLessThanOrEqual(Math.floor(2.5 * one));
  });

  it("does not keep an answer larger than its whole bound", async () => {
    const cache = answerCache(500);
    const { asked, ask } = reads(1_000);
    await cache.answer(1, "q", ask("big"));
    await cache.answer(1, "q", ask("big again"));
    expect(asked).toEqual(["big", "big again"]);
    expect(cache.stats()).toEqual({ answers: 0, bytes: 0 });
  });

  it("shares one read among identical questions asked at once", async () => {
    const cache = answerCache(1_000_000);
    const { asked, ask } = reads();
    const answers = await Promise.all([1, 2, 3].map(() => cache.answer(1, "q", ask("once"))));
    expect(asked).toEqual(["once"]);
    expect(answers[1]).toBe(answers[0]);
    expect(answers[2]).toBe(answers[0]);
  });

  it("keeps neither a rejection nor an answer its reader did not accept", async () => {
    const cache = answerCache(1_000_000);
    const failing = cache.answer(1, "q", () => Promise.reject(new Error("throttled")));
    const joined = cache.answer(1, "q", () => Promise.resolve({ never: "asked" }));
    await expect(failing).rejects.toThrow("throttled");
    await expect(joined).rejects.toThrow("throttled");
    expect(await cache.answer(1, "q", () => Promise.resolve(undefined))).toBeUndefined();
    expect(cache.stats().answers).toBe(0);
    expect(await cache.answer(1, "q", () => Promise.resolve({ read: "at last" }))).toEqual({
      read: "at last",
    });
    expect(cache.stats().answers).toBe(1);
  });

  it("gives every caller a frozen answer, the first one included", async () => {
    const cache = answerCache(1_000_000);
    const answer = await cache.answer(1, "q", () => Promise.resolve({ items: [{ id: "e" }], total: 1 }));
    expect(Object.isFrozen(answer)).toBe(true);
    expect(Object.isFrozen(answer?.items[0])).toBe(true);
  });
});
