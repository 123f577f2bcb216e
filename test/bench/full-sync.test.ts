import { fullSync, type SyncedPage, type SyncSource } from "../../lib/bench/full-sync.js";
import type { ApiPersonsSearchResponse } from "../../lib/directory/api-schema.js";

type ApiPerson = ApiPersonsSearchResponse["persons"][number];

/** A directory of `count` persons (ids p0…), each page's search billed 2 RCU plus 0.5 per person. */
function directory(count: number, options: { lose?: number } = {}) {
  const fetched: number[] = [];
  const source: SyncSource = {
    scopeCompanies: 7,
    async fetch(offset, limit): Promise<SyncedPage> {
      fetched.push(offset);
      const ids = Array.from({ length: Math.max(0, Math.min(limit, count - offset)) }, (_, i) => offset + i);
      const persons = ids
        .filter((id) => id !== options.lose)
        .map((id) => ({ id: `p${id}`, employments: [] }) as unknown as ApiPerson);
      const response = {
        asOf: "2026-07-01T00:00:00.000Z",
        persons,
        pagination: { limit, offset, total: count },
      };
      return { response, rcu: 2 + 0.5 * persons.length };
    },
    recordsUnits: (ids) => ids.length * 0.5 + 0.5,
  };
  return { source, fetched };
}

const bytes = (response: unknown) => Buffer.byteLength(JSON.stringify(response), "utf8");

describe("fullSync", () => {
  it("pages by 100 from offset 0 until past the total, and sums each page's figures", async () => {
    const { source, fetched } = directory(250);
    const seen: [number, number][] = [];
    const report = await fullSync(source, (done, pages) => seen.push([done, pages]));
    expect(fetched).toEqual([0, 100, 200]);
    expect(seen).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const pages = await Promise.all(fetched.map((offset) => source.fetch(offset, 100)));
    expect(report).toEqual({
      scopeCompanies: 7,
      persons: 250,
      pages: 3,
      returnedBytes: pages.reduce((sum, page) => sum + bytes(page.response), 0),
      rcu: 3 * 2 + 250 * 0.5,
      recordsRcu: 250 * 0.5 + 3 * 0.5,
    });
  });

  it("stops at the total exactly when it is a whole number of pages", async () => {
    const { source, fetched } = directory(200);
    expect((await fullSync(source)).pages).toBe(2);
    expect(fetched).toEqual([0, 100]);
  });

  it("reads one (empty) page of an empty scope", async () => {
    const { source } = directory(0);
    expect(await fullSync(source)).toMatchObject({ persons: 0, pages: 1, rcu: 2, recordsRcu: 0.5 });
  });

  it("fails when the pages do not return every person once", async () => {
    const { source } = directory(150, { lose: 120 });
    await expect(fullSync(source)).rejects.toThrow("full sync: 149 persons in pages, total 150");
  });
});
