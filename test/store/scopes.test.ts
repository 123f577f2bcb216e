import { instantKey } from "../../lib/directory/instant-key.js";
import { orderKey } from "../../lib/store/binary-keys.js";
import { scopeIdOf } from "../../lib/store/dynamo/model/layout.js";
import { unionOfSorted } from "../../lib/store/dynamo/write/derive-scopes.js";
import { distinctScopes } from "../../lib/store/scopes.js";
import { testUuid } from "../support/records.js";

describe("distinctScopes", () => {
  it("sorts each list, drops repeats and lists of one company, and keeps each scope once", () => {
    expect(
      distinctScopes([["beta", "acme"], ["acme"], ["acme", "beta", "acme"], [], ["gamma", "acme", "beta"]]),
    ).toEqual([
      ["acme", "beta"],
      ["acme", "beta", "gamma"],
    ]);
  });
});

describe("scopeIdOf", () => {
  it("names a set of companies, whatever their order or repeats", () => {
    expect(scopeIdOf(["beta", "acme", "beta"])).toBe(scopeIdOf(["acme", "beta"]));
    expect(scopeIdOf(["acme", "beta"])).toMatch(/^[0-9a-f]{32}$/);
  });

  it("tells sets apart, even where joining their ids would not", () => {
    expect(scopeIdOf(["acme", "beta"])).not.toBe(scopeIdOf(["acme", "beta", "gamma"]));
    expect(scopeIdOf(["a", "b.c"])).not.toBe(scopeIdOf(["a.b", "c"]));
  });
});

describe("unionOfSorted", () => {
  it("merges sorted lists into one, each key once", () => {
    const key = (second: number, n: number) =>
      orderKey(instantKey(`2024-01-01T00:00:0${second}Z`), testUuid(1, 0, n));
    const [a, b, c] = [key(1, 1), key(2, 2), key(3, 3)];
    expect(unionOfSorted([[a, c], [b, c], [], [a]])).toEqual([a, b, c]);
  });
});
