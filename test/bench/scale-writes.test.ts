import { widenedKeys } from "../../lib/bench/scale-writes.js";

describe("widenedKeys", () => {
  it("gives the second key the first company by rank it lacks, leaving the others as they are", () => {
    const ranked = ["a", "b", "c", "d"];
    expect(widenedKeys([["a"], ["a", "c"], ranked], ranked)).toEqual([["a"], ["a", "c", "b"], ranked]);
  });

  it("refuses keys it cannot widen", () => {
    expect(() => widenedKeys([["a"]], ["a", "b"])).toThrow(/a key of one and one of several/);
    expect(() => widenedKeys([["a"], ["a", "b"]], ["a", "b"])).toThrow(/already reads every company/);
  });
});
