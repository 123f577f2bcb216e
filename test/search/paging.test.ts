/** Offset paging over a fully counted, sorted result. */
import fc from "fast-check";
import { pageOf } from "../../lib/search/paging.js";

describe("pageOf", () => {
  const items = ["a", "b", "c", "d", "e"];

  it("returns the window and the total of the whole result", () => {
    expect(pageOf(items, 0, 2)).toEqual({ page: ["a", "b"], pagination: { limit: 2, offset: 0, total: 5 } });
    expect(pageOf(items, 4, 2)).toEqual({ page: ["e"], pagination: { limit: 2, offset: 4, total: 5 } });
  });

  it("gives an empty page past the end, still counting the total", () => {
    expect(pageOf(items, 5, 2)).toEqual({ page: [], pagination: { limit: 2, offset: 5, total: 5 } });
    expect(pageOf(items, 500, 100)).toEqual({ page: [], pagination: { limit: 100, offset: 500, total: 5 } });
    expect(pageOf([], 0, 50)).toEqual({ page: [], pagination: { limit: 50, offset: 0, total: 0 } });
  });

  it("does not change the list it pages", () => {
    const list = [...items];
    pageOf(list, 1, 2).page.push("z");
    expect(list).toEqual(items);
  });

  it("pages that follow one another join to the whole list, with no repeat or gap", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 60 }), fc.integer({ min: 1, max: 100 }), (list, limit) => {
        const joined: number[] = [];
        for (let offset = 0; offset < list.length; offset += limit) {
          const { page, pagination } = pageOf(list, offset, limit);
          expect(pagination).toEqual({ limit, offset, total: list.length });
          expect(page.length).toBe(Math.min(limit, list.length - offset));
          joined.push(...page);
        }
        expect(joined).toEqual(list);
      }),
    );
  });
});
