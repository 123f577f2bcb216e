/**
 * Where kept scopes live: a new scope takes over the partition of the dropped scope closest to it
 * when they share more companies than they differ by; every other new scope gets one of its own,
 * never one a kept scope lives in.
 */
import { type ScopeId, scopeIdOf } from "../../../../lib/store/dynamo/model/layout.js";
import { houseScopes } from "../../../../lib/store/dynamo/structures/scope-homes.js";
import type { RegisteredScope } from "../../../../lib/store/dynamo/structures/scope-registry.js";

const companies = (n: number, prefix = "c") => Array.from({ length: n }, (_, i) => `${prefix}${i}`).sort();
const registered = (list: readonly string[], home = scopeIdOf(list)): [ScopeId, RegisteredScope] => [
  scopeIdOf(list),
  { companies: list, gen: 1, home },
];
const wantedOf = (...lists: (readonly string[])[]) => new Map(lists.map((list) => [scopeIdOf(list), list]));

describe("housing the scopes kept", () => {
  const ten = companies(10);
  const eleven = [...ten, "z"].sort();

  it("gives a scope widened by one company the partition of the scope it replaces", () => {
    const housing = houseScopes(new Map([registered(ten)]), wantedOf(eleven));
    expect(housing.added).toEqual([
      {
        id: scopeIdOf(eleven),
        companies: eleven,
        home: scopeIdOf(ten),
        from: { id: scopeIdOf(ten), scope: { companies: ten, gen: 1, home: scopeIdOf(ten) } },
      },
    ]);
    expect(housing.replaced.map((scope) => scope.id)).toEqual([scopeIdOf(ten)]);
    expect(housing.dropped).toEqual([]);
  });

  it("keeps a home across changes: the partition follows the scope, not its first companies", () => {
    const housing = houseScopes(new Map([registered(eleven, "feed" as ScopeId)]), wantedOf(ten));
    expect(housing.added[0]?.home).toBe("feed");
  });

  it("builds a scope of its own when the dropped one shares no more companies than differ", () => {
    const half = [...companies(5), ...companies(5, "d")].sort();
    const housing = houseScopes(new Map([registered(ten)]), wantedOf(half));
    expect(housing.added[0]?.home).toBe(scopeIdOf(half));
    expect(housing.added[0]?.from).toBeUndefined();
    expect(housing.dropped.map((scope) => scope.id)).toEqual([scopeIdOf(ten)]);
  });

  it("does not take over a scope still wanted (another key reads it)", () => {
    const housing = houseScopes(new Map([registered(ten)]), wantedOf(ten, eleven));
    expect(housing.added).toEqual([{ id: scopeIdOf(eleven), companies: eleven, home: scopeIdOf(eleven) }]);
    expect(housing.replaced).toEqual([]);
  });

  it("pairs the closest first, each dropped scope taken over once", () => {
    const twelve = [...eleven, "y"].sort();
    const housing = houseScopes(new Map([registered(ten), registered(twelve)]), wantedOf(eleven));
    // eleven differs from each by one company: the tie goes by id, and only one is taken over.
    expect(housing.added).toHaveLength(1);
    expect(housing.replaced).toHaveLength(1);
    expect(housing.dropped).toHaveLength(1);
    const wider = [...twelve, "x"].sort();
    const both = houseScopes(new Map([registered(ten), registered(twelve)]), wantedOf(eleven, wider));
    const homes = new Map(both.added.map((scope) => [scope.id, scope.home]));
    expect(homes.get(scopeIdOf(wider))).toBe(scopeIdOf(twelve));
    expect(homes.get(scopeIdOf(eleven))).toBe(scopeIdOf(ten));
  });

  it("never houses a new scope where a kept one lives, even in its own id's partition", () => {
    // `ten` came back while `eleven`, kept, lives in ten's old partition.
    const housing = houseScopes(new Map([registered(eleven, scopeIdOf(ten))]), wantedOf(eleven, ten));
    const home = housing.added[0]?.home;
    expect(home).toBeDefined();
    expect(home).not.toBe(scopeIdOf(ten));
    expect(home).toMatch(/^[0-9a-f]{32}$/);
  });
});
